import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { ulid } from 'ulid';
import { Subjects, type JobFinishedEvent, type JobStatusResponseDto, type WebhookEventType } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient, webhookAttempts, type HandlerOutcome } from '@docket/messaging';
import type { Logger } from 'pino';
import { DeliveryAttemptEntity } from '../entities/delivery-attempt.entity.js';
import { WebhookEntity } from '../entities/webhook.entity.js';
import { SecretCipher } from '../security/secret-cipher.js';
import { signedHeaders } from '../security/signature.js';
import { CONFIG, LOGGER } from '../tokens.js';
import type { WebhookConfig } from '../config.js';
import { buildBody, deliveryId, eventTypesFor } from './event-payload.js';
import { HttpSender } from './http-sender.js';

/** One signed POST: `version` is the result version for `job.corrected` (0 for job-finished events). */
export interface OutgoingAttempt {
  jobId: string;
  type: WebhookEventType;
  version: number;
  attemptNumber: number;
  /** `webhook-id` / `X-Webhook-Id`: stable across attempts so receivers can dedupe. */
  id: string;
  body: string;
}

/** Attempt numbers 1 to 4 (spec §6 rule 4). */
export const MAX_ATTEMPTS = 4;
export const USER_AGENT = 'Docket-Webhooks/1.0';

/**
 * Turns a job-finished event into signed deliveries. Each (job, event type, webhook) pair gets up to
 * four attempts; an attempt is claimed by inserting its log row before the request goes out, so a
 * redelivered event never repeats an attempt or re-sends after a success. Retries are JetStream
 * redeliveries delayed by WEBHOOK_RETRY_DELAYS_MS.
 */
@Injectable()
export class WebhookDeliveryService {
  private readonly webhooks: Repository<WebhookEntity>;
  private readonly attempts: Repository<DeliveryAttemptEntity>;

  constructor(
    ds: DataSource,
    private readonly cipher: SecretCipher,
    private readonly sender: HttpSender,
    private readonly rpc: RpcClient,
    @Inject(CONFIG) private readonly config: WebhookConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.webhooks = ds.getRepository(WebhookEntity);
    this.attempts = ds.getRepository(DeliveryAttemptEntity);
  }

  async handle(ev: JobFinishedEvent, ctx: { working: () => void }): Promise<HandlerOutcome> {
    if (!ev.webhookId) return { ack: true };
    let retryInMs: number | undefined;
    const types = await this.pendingTypes(ev);
    // Fetched before any attempt is claimed: artifact unreachable → the event is naked and retried, no attempt used.
    const result = types.length && ev.status === 'success' ? await this.resultOf(ev) : null;
    for (const type of types) {
      // Re-read per type: a webhook deleted or deactivated mid-way gets nothing more.
      const w = await this.liveWebhook(ev);
      if (!w) break;
      ctx.working();
      const attempt = await this.nextAttempt(ev.jobId, type, w.id);
      if (attempt === undefined) continue;
      const ok = await this.deliver(w, ev, type, attempt, result);
      if (!ok && attempt < MAX_ATTEMPTS) retryInMs = Math.max(retryInMs ?? 0, this.delayAfter(attempt));
    }
    return retryInMs === undefined ? { ack: true } : { retryInMs };
  }

  private async pendingTypes(ev: JobFinishedEvent): Promise<WebhookEventType[]> {
    const w = await this.liveWebhook(ev);
    if (!w) {
      this.log.debug({ jobId: ev.jobId, webhookId: ev.webhookId }, 'webhook missing, deleted or inactive: no delivery');
      return [];
    }
    return eventTypesFor(ev.status, w.events);
  }

  private async liveWebhook(ev: JobFinishedEvent): Promise<WebhookEntity | null> {
    const w = await this.webhooks.findOneBy({ id: ev.webhookId!, accountId: ev.accountId });
    return w && w.isActive && !w.deletedAt ? w : null;
  }

  /** The next attempt number, or undefined when already delivered or out of attempts. */
  async nextAttempt(jobId: string, eventType: string, webhookId: string, resultVersion = 0): Promise<number | undefined> {
    const prior = await this.attempts.find({
      where: { jobId, eventType, webhookId, resultVersion },
      select: { attemptNumber: true, isSuccess: true },
    });
    if (prior.some((p) => p.isSuccess)) return undefined;
    const next = prior.reduce((m, p) => Math.max(m, p.attemptNumber), 0) + 1;
    return next <= MAX_ATTEMPTS ? next : undefined;
  }

  delayAfter(attempt: number): number {
    const d = this.config.WEBHOOK_RETRY_DELAYS_MS;
    return d[Math.min(attempt - 1, d.length - 1)];
  }

  /**
   * The job's result by reference: job-finished events carry none (ADR 0008); an event published before that
   * change still does. Null when the job was deleted before delivery (nothing left to send).
   */
  private async resultOf(ev: JobFinishedEvent): Promise<Record<string, unknown> | null> {
    if (ev.result) return ev.result;
    try {
      const job = await this.rpc.request<JobStatusResponseDto>(Subjects.artifact.getJob, { accountId: ev.accountId, jobId: ev.jobId });
      return (job.result as Record<string, unknown> | undefined) ?? null;
    } catch (err) {
      if (err instanceof DocketError && err.code === 'job_not_found') return null;
      throw err;
    }
  }

  private async deliver(
    w: WebhookEntity,
    ev: JobFinishedEvent,
    type: WebhookEventType,
    attemptNumber: number,
    result: Record<string, unknown> | null,
  ): Promise<boolean> {
    const now = new Date();
    const body = JSON.stringify(buildBody(type, ev, now, result));
    return this.send(w, { jobId: ev.jobId, type, version: 0, attemptNumber, id: deliveryId(ev.jobId, type), body }, now);
  }

  /**
   * Signs and posts one attempt, logged in the delivery log. The attempt is claimed first (unique on job, event type,
   * result version, attempt and webhook), so a concurrent or repeated delivery of the same event loses here.
   */
  async send(w: WebhookEntity, a: OutgoingAttempt, now = new Date()): Promise<boolean> {
    const logged: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      'webhook-id': a.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'X-Webhook-Id': a.id,
    };
    const signature = signedHeaders(this.secretsOf(w, now), a.id, Math.floor(now.getTime() / 1000), a.body)['webhook-signature'];
    const rowId = `dlv_${ulid().toLowerCase()}`;
    const claimed = (await this.attempts.query(
      `INSERT INTO "webhook"."delivery_attempts"
         (id, account_id, webhook_id, job_id, event_type, result_version, attempt_number, url, request_headers, response_status_code, response_body, is_success, duration_ms, attempted_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, '', false, 0, $10)
       ON CONFLICT (job_id, event_type, result_version, attempt_number, webhook_id) DO NOTHING RETURNING id`,
      [rowId, w.accountId, w.id, a.jobId, a.type, a.version, a.attemptNumber, w.url, JSON.stringify(logged), now],
    )) as unknown[];
    if (!claimed.length) return false;

    const res = await this.sender.post(w.url, { ...logged, 'webhook-signature': signature }, a.body);
    const ok = res.status >= 200 && res.status < 300;
    // 'unreachable': no HTTP answer (network error, timeout, refused address); 'failed': a non-2xx answer.
    webhookAttempts.inc({ outcome: ok ? 'delivered' : res.status > 0 ? 'failed' : 'unreachable' });
    await this.attempts.update(
      { id: rowId },
      { responseStatusCode: res.status, responseBody: res.body, isSuccess: ok, durationMs: res.durationMs, finishedAt: new Date() },
    );
    this.log.info(
      { jobId: a.jobId, webhookId: w.id, eventType: a.type, version: a.version, attempt: a.attemptNumber, status: res.status, ok },
      'webhook delivery attempt',
    );
    return ok;
  }

  /** Current secret, plus the previous one while its 24-hour overlap lasts. */
  private secretsOf(w: WebhookEntity, now: Date): string[] {
    const secrets = [this.cipher.decrypt(w.secretCiphertext, w.id)];
    if (w.previousSecretCiphertext && w.previousSecretExpiresAt && w.previousSecretExpiresAt > now) {
      secrets.push(this.cipher.decrypt(w.previousSecretCiphertext, w.id));
    }
    return secrets;
  }
}
