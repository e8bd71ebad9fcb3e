import { Injectable } from '@nestjs/common';
import { DataSource, type Repository } from 'typeorm';
import type {
  DeliveryLogEntryDto,
  JobWebhookLogsQuery,
  WebhookDeliveriesQuery,
  WebhookDeliveryDto,
  WebhookStatsDto,
  WebhookStatsQuery,
} from '@docket/contracts';
import { DeliveryAttemptEntity } from '../entities/delivery-attempt.entity.js';
import { toDeliveryLogEntry, toWebhookDelivery } from '../webhooks/webhook.mapper.js';
import { WebhookRegistryService } from '../webhooks/webhook-registry.service.js';

/**
 * An attempt is logged (claimed) before it is sent and finished after the answer. Until then it is not shown: its
 * status 0 would read as a failure. One left unfinished past this horizon (the dispatcher stopped mid-attempt) is
 * shown as what it is, an attempt without an answer. Longer than the largest WEBHOOK_TIMEOUT_MS (60 s).
 */
export const IN_FLIGHT_HORIZON_SECONDS = 120;
const VISIBLE = `(a.finished_at IS NOT NULL OR a.attempted_at < now() - make_interval(secs => ${IN_FLIGHT_HORIZON_SECONDS}))`;

/** Read side of the delivery log: per job (spec §4.4), per webhook (§4.6), stats (§2.4). */
@Injectable()
export class DeliveryLogService {
  private readonly repo: Repository<DeliveryAttemptEntity>;

  constructor(
    ds: DataSource,
    private readonly registry: WebhookRegistryService,
  ) {
    this.repo = ds.getRepository(DeliveryAttemptEntity);
  }

  async logsByJob(q: JobWebhookLogsQuery): Promise<DeliveryLogEntryDto[]> {
    const rows = await this.repo
      .createQueryBuilder('a')
      .where('a.account_id = :accountId AND a.job_id = :jobId', { accountId: q.accountId, jobId: q.jobId })
      .andWhere(VISIBLE)
      .orderBy('a.attempted_at', 'ASC')
      .addOrderBy('a.attempt_number', 'ASC')
      .addOrderBy('a.id', 'ASC')
      .take(q.limit)
      .skip(q.offset)
      .getMany();
    return rows.map(toDeliveryLogEntry);
  }

  async deliveries(q: WebhookDeliveriesQuery): Promise<WebhookDeliveryDto[]> {
    const w = await this.registry.findOwned(q);
    const qb = this.repo
      .createQueryBuilder('a')
      .where('a.account_id = :accountId AND a.webhook_id = :webhookId', { accountId: w.accountId, webhookId: w.id })
      .andWhere(VISIBLE);
    if (q.statusFilter) qb.andWhere('a.is_success = :ok', { ok: q.statusFilter === 'success' });
    if (q.eventType) qb.andWhere('a.event_type = :eventType', { eventType: q.eventType });
    const rows = await qb
      .orderBy('a.attempted_at', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .take(q.limit ?? 50)
      .skip(q.offset ?? 0)
      .getMany();
    return rows.map(toWebhookDelivery);
  }

  /**
   * An event is one (job, event type, result version) in the window; it counts as a success when any attempt
   * succeeded. Failures and latency are per attempt.
   */
  async stats(q: WebhookStatsQuery): Promise<WebhookStatsDto> {
    const w = await this.registry.findOwned(q);
    const days = q.days ?? 30;
    const [row] = (await this.repo.query(
      `WITH a AS (
         SELECT a.*
           FROM "webhook"."delivery_attempts" a
          WHERE account_id = $1 AND webhook_id = $2 AND attempted_at >= now() - make_interval(days => $3) AND ${VISIBLE}),
       e AS (SELECT bool_or(is_success) AS ok FROM a GROUP BY job_id, event_type, result_version)
       SELECT (SELECT count(*) FROM e)::int AS total,
              (SELECT count(*) FROM e WHERE ok)::int AS ok,
              (SELECT count(*) FROM a WHERE NOT is_success AND attempted_at >= now() - interval '24 hours')::int AS failures_24h,
              (SELECT coalesce(avg(duration_ms), 0) FROM a)::float8 AS avg_ms`,
      [w.accountId, w.id, days],
    )) as { total: number; ok: number; failures_24h: number; avg_ms: number }[];
    const total = row?.total ?? 0;
    return {
      total_events: total,
      success_rate: total ? round2((row.ok / total) * 100) : 0,
      failures_last_24h: row?.failures_24h ?? 0,
      avg_latency_ms: round2(row?.avg_ms ?? 0),
    };
  }
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
