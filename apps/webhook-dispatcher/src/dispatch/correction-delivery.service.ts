import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import { Subjects, type JobCorrectedEvent, type JobStatusResponseDto } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient, type HandlerOutcome } from '@docket/messaging';
import type { Logger } from 'pino';
import { WebhookEntity } from '../entities/webhook.entity.js';
import { LOGGER } from '../tokens.js';
import { MAX_ATTEMPTS, WebhookDeliveryService } from './webhook-delivery.service.js';

export const JOB_CORRECTED = 'job.corrected' as const;

/** The signed body of a `job.corrected` delivery: the corrected result as artifact holds it now. */
export function correctedBody(ev: JobCorrectedEvent, result: Record<string, unknown> | null, now: Date) {
  return {
    type: JOB_CORRECTED,
    timestamp: now.toISOString(),
    data: {
      job_id: ev.jobId,
      artifact_id: ev.artifactId,
      result_version: ev.version,
      changed_fields: ev.changedFields,
      corrected_by: ev.apiKeyId,
      corrected_at: ev.correctedAt,
      result,
    },
  };
}

/**
 * `events.v1.job.corrected` → one signed `job.corrected` delivery per result version to every active webhook of the
 * account that lists `job.corrected` in its events (it is never sent to webhooks that did not ask for it). Attempts and
 * retries as for job-finished events: up to four per (job, version, webhook), claimed in the delivery log first.
 */
@Injectable()
export class CorrectionDeliveryService {
  private readonly webhooks: Repository<WebhookEntity>;

  constructor(
    ds: DataSource,
    private readonly delivery: WebhookDeliveryService,
    private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly log: Logger,
  ) {
    this.webhooks = ds.getRepository(WebhookEntity);
  }

  async handle(ev: JobCorrectedEvent, ctx: { working: () => void }): Promise<HandlerOutcome> {
    const subscribers = await this.subscribers(ev.accountId);
    if (!subscribers.length) return { ack: true };
    const result = await this.resultOf(ev);
    let retryInMs: number | undefined;
    for (const w of subscribers) {
      ctx.working();
      const attempt = await this.delivery.nextAttempt(ev.jobId, JOB_CORRECTED, w.id, ev.version);
      if (attempt === undefined) continue;
      const now = new Date();
      const body = JSON.stringify(correctedBody(ev, result, now));
      const id = `${ev.jobId}:${JOB_CORRECTED}:${ev.version}`;
      const ok = await this.delivery.send(
        w,
        { jobId: ev.jobId, type: JOB_CORRECTED, version: ev.version, attemptNumber: attempt, id, body },
        now,
      );
      if (!ok && attempt < MAX_ATTEMPTS) retryInMs = Math.max(retryInMs ?? 0, this.delivery.delayAfter(attempt));
    }
    return retryInMs === undefined ? { ack: true } : { retryInMs };
  }

  private async subscribers(accountId: string): Promise<WebhookEntity[]> {
    const all = await this.webhooks.find({ where: { accountId, isActive: true }, order: { createdAt: 'ASC' } });
    return all.filter((w) => !w.deletedAt && w.events.includes(JOB_CORRECTED));
  }

  /** The job's current result (null when the job was deleted before delivery). */
  private async resultOf(ev: JobCorrectedEvent): Promise<Record<string, unknown> | null> {
    try {
      const job = await this.rpc.request<JobStatusResponseDto>(Subjects.artifact.getJob, { accountId: ev.accountId, jobId: ev.jobId });
      return (job.result as Record<string, unknown> | undefined) ?? null;
    } catch (err) {
      if (err instanceof DocketError && err.code === 'job_not_found') return null;
      this.log.warn({ err, jobId: ev.jobId }, 'could not read the corrected result; retrying');
      throw err;
    }
  }
}
