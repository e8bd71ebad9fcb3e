import { describe, expect, it } from '@jest/globals';
import {
  API_KEY_PATTERN,
  SECRET_PATTERN,
  basicAuthHeader,
  environmentOfKey,
  generateApiKey,
  generateSecret,
  hashSecret,
  hashesEqual,
  parseBasicAuth,
  randomBase62,
} from './credentials.js';

const KEY = 'dk_test_' + 'a'.repeat(24);
const SECRET = 'sk_' + 'B'.repeat(43);
const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');

describe('credential formats', () => {
  it('generates keys with the environment prefix and 256-bit secrets with sk_', () => {
    const sandbox = generateApiKey('sandbox');
    const live = generateApiKey('live');
    expect(sandbox).toMatch(/^dk_test_[0-9A-Za-z]{24}$/);
    expect(live).toMatch(/^dk_live_[0-9A-Za-z]{24}$/);
    expect(environmentOfKey(sandbox)).toBe('sandbox');
    expect(environmentOfKey(live)).toBe('live');
    expect(environmentOfKey('dk_prod_x')).toBeUndefined();
    expect(generateSecret()).toMatch(SECRET_PATTERN);
    expect(new Set(Array.from({ length: 200 }, generateSecret)).size).toBe(200);
  });

  it('draws base62 characters uniformly enough to use the whole alphabet', () => {
    const chars = new Set(randomBase62(5000));
    expect(chars.size).toBe(62);
  });

  it('hashes to hex SHA-256 and compares in constant time', () => {
    const h = hashSecret(SECRET);
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(h).not.toContain(SECRET);
    expect(hashesEqual(h, hashSecret(SECRET))).toBe(true);
    expect(hashesEqual(h, hashSecret(SECRET + 'x'))).toBe(false);
    expect(hashesEqual(h, 'abcd')).toBe(false);
  });
});

describe('parseBasicAuth', () => {
  it('accepts a well-formed Basic header, scheme case-insensitive', () => {
    expect(parseBasicAuth(basicAuthHeader(KEY, SECRET))).toEqual({ apiKey: KEY, secret: SECRET });
    expect(parseBasicAuth(`basic ${b64(`${KEY}:${SECRET}`)}`)).toEqual({ apiKey: KEY, secret: SECRET });
    expect(parseBasicAuth(`BASIC  ${b64(`${KEY}:${SECRET}`)}  `)).toEqual({ apiKey: KEY, secret: SECRET });
    expect(API_KEY_PATTERN.test(KEY.replace('test', 'live'))).toBe(true);
  });

  it.each([
    ['missing', undefined],
    ['empty', ''],
    ['other scheme', `Bearer ${b64(`${KEY}:${SECRET}`)}`],
    ['no credentials', 'Basic '],
    ['not base64', 'Basic %%%%'],
    ['no colon', `Basic ${b64(KEY + SECRET)}`],
    ['empty secret', `Basic ${b64(`${KEY}:`)}`],
    ['empty key', `Basic ${b64(`:${SECRET}`)}`],
    ['unknown key prefix', `Basic ${b64(`dk_prod_${'a'.repeat(24)}:${SECRET}`)}`],
    ['secret without sk_', `Basic ${b64(`${KEY}:${'B'.repeat(46)}`)}`],
    ['key too short', `Basic ${b64(`dk_test_abc:${SECRET}`)}`],
    ['extra colon in secret', `Basic ${b64(`${KEY}:${SECRET}:x`)}`],
    ['oversized', `Basic ${'A'.repeat(400)}`],
    ['two tokens', `Basic ${b64(`${KEY}:${SECRET}`)} extra`],
  ])('rejects %s', (_label, header) => {
    expect(parseBasicAuth(header)).toBeUndefined();
  });
});
