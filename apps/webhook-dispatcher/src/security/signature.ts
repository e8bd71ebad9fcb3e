import { createHmac } from 'node:crypto';

const PREFIX = 'whsec_';

function keyBytes(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** Standard Webhooks `v1,<base64 HMAC-SHA256>` over `<id>.<timestamp>.<body>`. */
export function signV1(secret: string, msgId: string, timestampSec: number, body: string): string {
  const mac = createHmac('sha256', keyBytes(secret)).update(`${msgId}.${timestampSec}.${body}`).digest('base64');
  return `v1,${mac}`;
}

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

/**
 * Headers for one delivery. During a rotation overlap every still-valid secret signs, space-separated,
 * so receivers holding either secret verify.
 */
export function signedHeaders(secrets: string[], msgId: string, timestampSec: number, body: string): SignedHeaders {
  return {
    'webhook-id': msgId,
    'webhook-timestamp': String(timestampSec),
    'webhook-signature': secrets.map((s) => signV1(s, msgId, timestampSec, body)).join(' '),
  };
}
