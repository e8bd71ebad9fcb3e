import { Webhook } from 'standardwebhooks';
import { WebhookVerificationError } from './errors.js';
import type { JobStatus } from './types.js';

export type WebhookEventType = 'extraction.completed' | 'extraction.failed' | 'artifact.processed';

/** The signed body of one delivery (what the webhook-dispatcher sends; not part of the OpenAPI document). */
export interface WebhookEvent<T extends Record<string, unknown> = Record<string, unknown>> {
  type: WebhookEventType;
  /** ISO 8601, when this attempt was sent. */
  timestamp: string;
  data: {
    job_id: string;
    artifact_id: string;
    status: JobStatus;
    /** `success` only. */
    result?: T | null;
    /** `<code>: <message>`, when not `success`. */
    error?: string | null;
    confidence?: number | null;
    needs_review?: boolean;
    batch_id?: string;
    filename?: string;
    completed_at?: string;
  };
}

/** Header values as Node (`IncomingHttpHeaders`), the Fetch API (`Headers`) or a plain object give them. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const found = Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  return Array.isArray(found) ? found[0] : found;
}

/**
 * Verifies one delivery (Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature`,
 * HMAC-SHA256 over `<id>.<timestamp>.<body>`, timestamps within 5 minutes) and returns the parsed event.
 * Pass the raw body exactly as received. During a secret rotation pass both secrets: either verifies.
 * Throws WebhookVerificationError otherwise.
 */
export function verifyWebhook<T extends Record<string, unknown> = Record<string, unknown>>(
  headers: HeaderSource,
  body: string | Buffer | Uint8Array,
  secret: string | readonly string[],
): WebhookEvent<T> {
  const wanted = {
    'webhook-id': header(headers, 'webhook-id'),
    'webhook-timestamp': header(headers, 'webhook-timestamp'),
    'webhook-signature': header(headers, 'webhook-signature'),
  };
  const missing = Object.entries(wanted).filter(([, v]) => !v);
  if (missing.length) throw new WebhookVerificationError(`missing header ${missing.map(([k]) => k).join(', ')}`);
  const payload = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const secrets = typeof secret === 'string' ? [secret] : secret;
  if (secrets.length === 0) throw new WebhookVerificationError('no signing secret given');
  let reason = 'no matching signature';
  for (const s of secrets) {
    try {
      return new Webhook(s).verify(payload, wanted as Record<string, string>) as WebhookEvent<T>;
    } catch (err) {
      reason = (err as Error).message;
    }
  }
  throw new WebhookVerificationError(reason);
}

/**
 * Resolves `extractFile` from webhook deliveries instead of polling: hand every request your endpoint
 * receives to `handle()` (it verifies and answers which job it was for); `wait(jobId)` resolves when that
 * job's delivery arrives — also when it arrived first. `extractFile({ webhookWaiter })` registers one-shot
 * secrets itself and keeps polling slowly as a fallback.
 */
export class WebhookWaiter {
  private readonly secrets = new Set<string>();
  private readonly arrived = new Map<string, WebhookEvent>();
  private readonly waiting = new Map<string, Array<(ev: WebhookEvent) => void>>();

  constructor(
    secrets: string | readonly string[] = [],
    private readonly maxRemembered = 1000,
  ) {
    for (const s of typeof secrets === 'string' ? [secrets] : secrets) this.secrets.add(s);
  }

  addSecret(secret: string): void {
    this.secrets.add(secret);
  }

  /** Verifies one delivery against every known secret and wakes whoever waits for its job. */
  handle(headers: HeaderSource, body: string | Buffer | Uint8Array): WebhookEvent {
    const event = verifyWebhook(headers, body, [...this.secrets]);
    const jobId = event.data.job_id;
    const waiters = this.waiting.get(jobId);
    if (waiters) {
      this.waiting.delete(jobId);
      for (const w of waiters) w(event);
    } else {
      this.arrived.set(jobId, event);
      if (this.arrived.size > this.maxRemembered) this.arrived.delete(this.arrived.keys().next().value as string);
    }
    return event;
  }

  /** The delivery for `jobId` (immediately when it already arrived). */
  wait(jobId: string, signal?: AbortSignal): Promise<WebhookEvent> {
    const early = this.arrived.get(jobId);
    if (early) {
      this.arrived.delete(jobId);
      return Promise.resolve(early);
    }
    return new Promise((resolve, reject) => {
      const done = (ev: WebhookEvent) => {
        signal?.removeEventListener('abort', onAbort);
        resolve(ev);
      };
      const onAbort = () => {
        const list = this.waiting.get(jobId)?.filter((w) => w !== done) ?? [];
        if (list.length) this.waiting.set(jobId, list);
        else this.waiting.delete(jobId);
        reject(signal!.reason);
      };
      if (signal?.aborted) return reject(signal.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(jobId, [...(this.waiting.get(jobId) ?? []), done]);
    });
  }
}
