import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Pure credential helpers (spec §5): formats, generation, Basic header parsing and hashing.
 * No I/O here, so every rule is unit-testable.
 */

export type Environment = 'sandbox' | 'live';

export const KEY_PREFIX: Record<Environment, string> = { sandbox: 'dk_test_', live: 'dk_live_' };
export const SECRET_PREFIX = 'sk_';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 24 base62 characters ≈ 143 bits: unguessable, though the key is public (safe to log). */
const KEY_BODY_LENGTH = 24;
/** 43 base62 characters ≈ 256 bits of entropy, which is why a fast hash is enough (ADR 0002). */
const SECRET_BODY_LENGTH = 43;

export const API_KEY_PATTERN = /^dk_(test|live)_[0-9A-Za-z]{24}$/;
export const SECRET_PATTERN = /^sk_[0-9A-Za-z]{43}$/;
/** Generous bound on the header so garbage is rejected before any decoding work. */
const MAX_HEADER_LENGTH = 256;

/** Uniform random base62 string (rejection sampling: no modulo bias). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateApiKey(environment: Environment): string {
  return KEY_PREFIX[environment] + randomBase62(KEY_BODY_LENGTH);
}

export function generateSecret(): string {
  return SECRET_PREFIX + randomBase62(SECRET_BODY_LENGTH);
}

export function environmentOfKey(apiKey: string): Environment | undefined {
  if (apiKey.startsWith(KEY_PREFIX.sandbox)) return 'sandbox';
  if (apiKey.startsWith(KEY_PREFIX.live)) return 'live';
  return undefined;
}

export function isApiKey(value: string): boolean {
  return API_KEY_PATTERN.test(value);
}

/** SHA-256 of the whole secret string, hex. The plaintext is never stored (ADR 0002). */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** Constant-time comparison of two hex SHA-256 digests. */
export function hashesEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  if (x.length !== 32 || y.length !== 32) return false;
  return timingSafeEqual(x, y);
}

export interface BasicCredentials {
  apiKey: string;
  secret: string;
}

/**
 * Parses `Authorization: Basic base64(api_key:secret)` (RFC 7617). Returns undefined for anything
 * that is not exactly one well-formed key and secret; the caller answers every failure the same way.
 */
export function parseBasicAuth(header: string | undefined): BasicCredentials | undefined {
  if (typeof header !== 'string' || header.length > MAX_HEADER_LENGTH) return undefined;
  const match = /^basic +([A-Za-z0-9+/]+={0,2})$/i.exec(header.trim());
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const apiKey = decoded.slice(0, colon);
  const secret = decoded.slice(colon + 1);
  if (!API_KEY_PATTERN.test(apiKey) || !SECRET_PATTERN.test(secret)) return undefined;
  return { apiKey, secret };
}

/** Builds the header value a client sends; used by tests and tooling. */
export function basicAuthHeader(apiKey: string, secret: string): string {
  return `Basic ${Buffer.from(`${apiKey}:${secret}`, 'utf8').toString('base64')}`;
}
