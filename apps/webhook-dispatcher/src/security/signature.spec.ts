import { describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { generateSigningSecret } from './secret-cipher.js';
import { signedHeaders } from './signature.js';

describe('Standard Webhooks signing', () => {
  const body = JSON.stringify({ type: 'extraction.completed', timestamp: new Date().toISOString(), data: { job_id: 'job_1' } });
  const now = Math.floor(Date.now() / 1000);

  it('produces signatures the standardwebhooks verifier accepts', () => {
    const secret = generateSigningSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const headers = signedHeaders([secret], 'job_1:extraction.completed', now, body);
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
  });

  it('rejects a tampered body and a different secret', () => {
    const secret = generateSigningSecret();
    const headers = signedHeaders([secret], 'job_1:extraction.completed', now, body);
    expect(() => new Webhook(secret).verify(body.replace('job_1', 'job_2'), { ...headers })).toThrow();
    expect(() => new Webhook(generateSigningSecret()).verify(body, { ...headers })).toThrow();
  });

  it('signs with both secrets during a rotation overlap, so either verifies', () => {
    const current = generateSigningSecret();
    const previous = generateSigningSecret();
    const headers = signedHeaders([current, previous], 'job_1:extraction.failed', now, body);
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
  });
});
