import { Injectable } from '@nestjs/common';
import { toCredits, type UsageQuery, type UsageSummaryResponseDto } from '@docket/contracts';
import { DataSource } from 'typeorm';
import { usageWindow } from './usage-period.js';

/**
 * Spec §2.7. Jobs are the holds created in the window (one per job; holds of aborted job creations
 * are not jobs). Spend is the sum of charge ledger entries in the window, so in-flight holds never
 * count and a job is counted as spend when it was actually charged.
 */
@Injectable()
export class UsageService {
  constructor(private readonly ds: DataSource) {}

  async summary(q: UsageQuery, now = new Date()): Promise<UsageSummaryResponseDto> {
    const period = q.period ?? '30d';
    const { start, end } = usageWindow(period, now);
    const [jobs] = await this.ds.query(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE "outcome" = 'success')::int AS successful,
              count(*) FILTER (WHERE "outcome" = 'failed')::int AS failed
         FROM "billing"."holds"
        WHERE "account_id" = $1 AND "created_at" >= $2 AND "created_at" <= $3
          AND "outcome" IS DISTINCT FROM 'aborted'`,
      [q.accountId, start, end],
    );
    const [spend] = await this.ds.query(
      `SELECT coalesce(-sum("balance_change_micro"), 0)::text AS micro
         FROM "billing"."ledger_entries"
        WHERE "account_id" = $1 AND "kind" = 'charge' AND "created_at" >= $2 AND "created_at" <= $3`,
      [q.accountId, start, end],
    );
    return {
      period,
      period_start: start.toISOString(),
      period_end: end.toISOString(),
      total_jobs: jobs.total,
      successful_jobs: jobs.successful,
      failed_jobs: jobs.failed,
      total_spend: toCredits(spend.micro),
    };
  }
}
