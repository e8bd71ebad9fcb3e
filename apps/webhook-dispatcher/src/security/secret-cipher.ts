import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';

const VERSION = 'v1';

/**
 * AES-256-GCM for signing secrets at rest. Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url).
 * The key comes from WEBHOOK_SECRET_KEY; the ciphertext is bound to the webhook id (AAD) so a
 * row's secret cannot be swapped onto another webhook.
 */
export class SecretCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('Webhook secret key must be 32 bytes');
  }

  encrypt(plain: string, aad: string): string {
    const iv = randomBytes(12);
    const c = createCipheriv('aes-256-gcm', this.key, iv);
    c.setAAD(Buffer.from(aad));
    const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return [VERSION, iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
  }

  decrypt(stored: string, aad: string): string {
    const [v, iv, tag, ct] = stored.split('.');
    if (v !== VERSION || !iv || !tag || ct === undefined) throw new Error('Unrecognised secret ciphertext');
    const d = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    d.setAAD(Buffer.from(aad));
    d.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
  }
}

/** Accepts 32 bytes as 64 hex characters or base64; anything else is a boot error. */
export function parseSecretKey(raw: string): Buffer {
  const trimmed = raw.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('WEBHOOK_SECRET_KEY must be 32 bytes, base64 or hex encoded');
  return key;
}

/** Production refuses to start without a key; development and test derive a fixed, loudly logged one. */
export function resolveSecretKey(raw: string | undefined, nodeEnv: string, log: Logger): Buffer {
  if (raw && raw.trim()) return parseSecretKey(raw);
  if (nodeEnv === 'development' || nodeEnv === 'test') {
    log.warn('WEBHOOK_SECRET_KEY is not set: using a fixed development key. Never do this in production.');
    return createHash('sha256').update('docket-development-webhook-secret-key').digest();
  }
  throw new Error('WEBHOOK_SECRET_KEY is required when NODE_ENV is not development or test');
}

/** `whsec_` + base64 of 24 random bytes, the Standard Webhooks secret format. */
export function generateSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}
