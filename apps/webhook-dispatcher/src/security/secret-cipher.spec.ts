import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { generateSigningSecret, parseSecretKey, resolveSecretKey, SecretCipher } from './secret-cipher.js';

const log = pino({ level: 'silent' });

describe('SecretCipher (AES-256-GCM)', () => {
  const cipher = new SecretCipher(randomBytes(32));

  it('round-trips and never stores the plain secret', () => {
    const secret = generateSigningSecret();
    const stored = cipher.encrypt(secret, 'wh_1');
    expect(stored).not.toContain(secret.slice(6));
    expect(cipher.encrypt(secret, 'wh_1')).not.toEqual(stored);
    expect(cipher.decrypt(stored, 'wh_1')).toBe(secret);
  });

  it('fails on another webhook id, another key or a tampered ciphertext', () => {
    const stored = cipher.encrypt('whsec_abc', 'wh_1');
    expect(() => cipher.decrypt(stored, 'wh_2')).toThrow();
    expect(() => new SecretCipher(randomBytes(32)).decrypt(stored, 'wh_1')).toThrow();
    const parts = stored.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.decrypt(parts.join('.'), 'wh_1')).toThrow();
  });
});

describe('secret key resolution', () => {
  it('accepts 32 bytes as hex or base64 and rejects other lengths', () => {
    const key = randomBytes(32);
    expect(parseSecretKey(key.toString('hex'))).toEqual(key);
    expect(parseSecretKey(key.toString('base64'))).toEqual(key);
    expect(() => parseSecretKey(randomBytes(16).toString('base64'))).toThrow(/32 bytes/);
  });

  it('derives a fixed key only in development/test and refuses production without one', () => {
    expect(resolveSecretKey(undefined, 'test', log)).toEqual(resolveSecretKey('', 'development', log));
    expect(() => resolveSecretKey(undefined, 'production', log)).toThrow(/WEBHOOK_SECRET_KEY/);
    expect(() => resolveSecretKey(undefined, 'staging', log)).toThrow(/WEBHOOK_SECRET_KEY/);
  });
});
