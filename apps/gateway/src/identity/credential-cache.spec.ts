import { describe, expect, it } from '@jest/globals';
import { CREDENTIAL_CACHE_MAX_ENTRIES, CredentialCache } from './credential-cache.js';
import type { AuthContext } from './identity.service.js';

const TTL_MS = 10_000;
const KEY = 'dk_live_' + 'k'.repeat(24);
const OTHER = 'dk_live_' + 'o'.repeat(24);
const DIGEST = 'd'.repeat(64);
const auth = (apiKeyId: string, apiKey = KEY): AuthContext => ({ accountId: 'acct_a', apiKeyId, apiKey, sandbox: false });

function cache(ttl = TTL_MS) {
  let now = 1_000_000;
  const c = new CredentialCache(ttl, () => now);
  c.active = true;
  return { c, advance: (ms: number) => (now += ms) };
}

describe('CredentialCache', () => {
  it('answers a verified key and digest until the TTL ends, and only that pair', () => {
    const { c, advance } = cache();
    c.set(KEY, DIGEST, auth('key_1'), c.epoch);
    expect(c.get(KEY, DIGEST)).toEqual(auth('key_1'));
    expect(c.get(KEY, 'e'.repeat(64))).toBeUndefined();
    expect(c.get(OTHER, DIGEST)).toBeUndefined();
    advance(TTL_MS - 1);
    expect(c.get(KEY, DIGEST)).toBeDefined();
    advance(1);
    expect(c.get(KEY, DIGEST)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('drops every secret of a revoked key and keeps the others', () => {
    const { c } = cache();
    c.set(KEY, DIGEST, auth('key_1'), c.epoch);
    c.set(KEY, 'e'.repeat(64), auth('key_1'), c.epoch);
    c.set(OTHER, DIGEST, auth('key_2', OTHER), c.epoch);
    c.dropKey('key_1');
    expect(c.get(KEY, DIGEST)).toBeUndefined();
    expect(c.get(KEY, 'e'.repeat(64))).toBeUndefined();
    expect(c.get(OTHER, DIGEST)).toEqual(auth('key_2', OTHER));
  });

  it('does not keep a verification that started before a revocation arrived', () => {
    const { c } = cache();
    const started = c.epoch;
    c.dropKey('key_1'); // the revocation commits while the rows were being read
    c.set(KEY, DIGEST, auth('key_1'), started);
    expect(c.get(KEY, DIGEST)).toBeUndefined();
  });

  it('serves and keeps nothing while the revocation channel is down, or with a TTL of 0', () => {
    const { c } = cache();
    c.set(KEY, DIGEST, auth('key_1'), c.epoch);
    c.active = false;
    expect(c.get(KEY, DIGEST)).toBeUndefined();
    c.set(OTHER, DIGEST, auth('key_2', OTHER), c.epoch);
    c.active = true;
    expect(c.get(OTHER, DIGEST)).toBeUndefined();

    const off = cache(0).c;
    off.set(KEY, DIGEST, auth('key_1'), off.epoch);
    expect(off.get(KEY, DIGEST)).toBeUndefined();
  });

  it('holds at most CREDENTIAL_CACHE_MAX_ENTRIES, the oldest leaving first', () => {
    const { c } = cache();
    const digest = (i: number) => i.toString(16).padStart(64, '0');
    for (let i = 0; i <= CREDENTIAL_CACHE_MAX_ENTRIES; i++) c.set(KEY, digest(i), auth('key_1'), c.epoch);
    expect(c.size).toBe(CREDENTIAL_CACHE_MAX_ENTRIES);
    expect(c.get(KEY, digest(0))).toBeUndefined();
    expect(c.get(KEY, digest(CREDENTIAL_CACHE_MAX_ENTRIES))).toBeDefined();
  });
});
