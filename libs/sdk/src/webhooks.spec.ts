import { describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError } from './errors.js';
import { verifyWebhook, WebhookWaiter } from './webhooks.js';

const secret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** Signs like the webhook-dispatcher: Standard Webhooks v1 over `<id>.<timestamp>.<body>`, signed by an independent implementation. */
function delivery(secrets: string[], jobId = 'job_01TEST', at = new Date()) {
  const id = `${jobId}:extraction.completed`;
  const body = JSON.stringify({
    type: 'extraction.completed',
    timestamp: at.toISOString(),
    data: { job_id: jobId, artifact_id: 'art_01TEST', status: 'success', result: { total: 12 } },
  });
  const signature = secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
  const ts = String(Math.floor(at.getTime() / 1000));
  return { body, headers: { 'webhook-id': id, 'webhook-timestamp': ts, 'webhook-signature': signature, 'x-webhook-id': id } };
}

describe('verifyWebhook (Standard Webhooks)', () => {
  it('returns the parsed event for a valid delivery, with Node, Fetch and array-valued headers', () => {
    const s = secret();
    const d = delivery([s]);
    expect(verifyWebhook(d.headers, d.body, s)).toMatchObject({
      type: 'extraction.completed',
      data: { job_id: 'job_01TEST', result: { total: 12 } },
    });
    expect(verifyWebhook(new Headers(d.headers), Buffer.from(d.body), s).data.status).toBe('success');
    const upper = Object.fromEntries(Object.entries(d.headers).map(([k, v]) => [k.toUpperCase(), [v]]));
    expect(verifyWebhook(upper, d.body, s).type).toBe('extraction.completed');
  });

  it('refuses a changed body, another secret, a stale timestamp and missing headers', () => {
    const s = secret();
    const d = delivery([s]);
    expect(() => verifyWebhook(d.headers, d.body.replace('12', '13'), s)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(d.headers, d.body, secret())).toThrow(WebhookVerificationError);
    const old = delivery([s], 'job_01OLD', new Date(Date.now() - 10 * 60_000));
    expect(() => verifyWebhook(old.headers, old.body, s)).toThrow(/timestamp/i);
    const { 'webhook-signature': _drop, ...unsigned } = d.headers;
    expect(() => verifyWebhook(unsigned, d.body, s)).toThrow(/missing header webhook-signature/);
    expect(() => verifyWebhook(d.headers, d.body, [])).toThrow(/no signing secret/);
  });

  it('during a rotation accepts a delivery signed by both secrets with either, and checks every given secret', () => {
    const [oldS, newS] = [secret(), secret()];
    const both = delivery([oldS, newS]);
    expect(verifyWebhook(both.headers, both.body, oldS).data.job_id).toBe('job_01TEST');
    expect(verifyWebhook(both.headers, both.body, newS).data.job_id).toBe('job_01TEST');
    const onlyNew = delivery([newS]);
    expect(verifyWebhook(onlyNew.headers, onlyNew.body, [oldS, newS]).type).toBe('extraction.completed');
  });
});

describe('WebhookWaiter', () => {
  it('resolves a waiting job, remembers one that arrived first, and refuses a forged delivery', async () => {
    const s = secret();
    const waiter = new WebhookWaiter(s);
    const pending = waiter.wait('job_A');
    const a = delivery([s], 'job_A');
    expect(waiter.handle(a.headers, a.body).data.job_id).toBe('job_A');
    expect((await pending).data.job_id).toBe('job_A');

    const early = delivery([s], 'job_B');
    waiter.handle(early.headers, early.body);
    expect((await waiter.wait('job_B')).data.job_id).toBe('job_B');

    const forged = delivery([secret()], 'job_C');
    expect(() => waiter.handle(forged.headers, forged.body)).toThrow(WebhookVerificationError);
  });

  it('stops waiting when the signal aborts', async () => {
    const waiter = new WebhookWaiter();
    const ctl = new AbortController();
    const pending = waiter.wait('job_X', ctl.signal);
    ctl.abort(new Error('gave up'));
    await expect(pending).rejects.toThrow('gave up');
  });
});
