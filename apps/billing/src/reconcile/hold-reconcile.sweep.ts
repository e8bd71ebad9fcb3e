import { Inject, Injectable } from '@nestjs/common';
import { Subjects, type JobFinishedEvent, type JobSettlementReply } from '@docket/contracts';
import { PeriodicSweep, RpcClient } from '@docket/messaging';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { BillingConfig } from '../config.js';
import { HoldEntity } from '../entities/index.js';
import { ReleaseHoldService } from '../holds/release-hold.service.js';
import { SettleJobService } from '../settlement/settle-job.service.js';
import { BILLING_CONFIG, LOGGER } from '../tokens.js';

/** Open holds looked at per pass (oldest first, continuing where the previous pass stopped). */
const HOLDS_PER_PASS = 200;

/** What the sweep did since the process started (logged with each reconciliation; billing has no metrics endpoint). */
export interface ReconcileCounters {
  charged: number;
  released: number;
}

/**
 * The safety net behind the job-finished event (ADR 0008): a hold still `held` HOLD_RECONCILE_AFTER_MS after it
 * was placed is checked against artifact. A terminal job settles it exactly as its event would (success → charge
 * the pages, anything else → release); a job that does not exist (artifact deleted, creation aborted after the
 * hold) releases it as `aborted`; a job still queued or running keeps it. Settlement is idempotent, so an event
 * arriving later changes nothing. An unreachable artifact leaves the hold for the next pass.
 */
@Injectable()
export class HoldReconcileSweep extends PeriodicSweep {
  readonly counters: ReconcileCounters = { charged: 0, released: 0 };
  private cursor?: { createdAt: Date; jobId: string };

  constructor(
    private readonly ds: DataSource,
    private readonly settlement: SettleJobService,
    private readonly releases: ReleaseHoldService,
    private readonly rpc: RpcClient,
    @Inject(BILLING_CONFIG) private readonly cfg: BillingConfig,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, 'hold reconciliation');
  }

  start(): void {
    this.every(this.cfg.HOLD_RECONCILE_SWEEP_MS);
  }

  async sweep(now = new Date()): Promise<number> {
    const holds = await this.openHolds(new Date(now.getTime() - this.cfg.HOLD_RECONCILE_AFTER_MS));
    let handled = 0;
    for (const hold of holds) if (await this.reconcile(hold)) handled++;
    return handled;
  }

  /** The next page of old open holds; the cursor wraps to the start after the last page. */
  private async openHolds(cutoff: Date): Promise<HoldEntity[]> {
    const qb = this.ds.getRepository(HoldEntity).createQueryBuilder('h').where("h.state = 'held' AND h.created_at < :cutoff", { cutoff });
    if (this.cursor) qb.andWhere('(h.created_at, h.job_id) > (:c, :j)', { c: this.cursor.createdAt, j: this.cursor.jobId });
    const holds = await qb.orderBy('h.created_at').addOrderBy('h.job_id').limit(HOLDS_PER_PASS).getMany();
    const last = holds[holds.length - 1];
    this.cursor = holds.length === HOLDS_PER_PASS && last ? { createdAt: last.createdAt, jobId: last.jobId } : undefined;
    return holds;
  }

  private async reconcile(hold: HoldEntity): Promise<boolean> {
    const facts = await this.rpc.request<JobSettlementReply>(Subjects.artifact.jobSettlement, {
      accountId: hold.accountId,
      jobId: hold.jobId,
    });
    if (facts.exists && !facts.terminal) return false;
    let outcome: string;
    if (!facts.exists) {
      const r = await this.releases.release({ accountId: hold.accountId, jobId: hold.jobId, reason: 'aborted' });
      outcome = r.status === 'released' ? 'released' : r.status;
    } else {
      outcome = await this.settlement.settle({
        jobId: hold.jobId,
        accountId: hold.accountId,
        status: facts.status as JobFinishedEvent['status'],
        pages: facts.pages,
        sandbox: hold.sandbox,
        eventId: `reconcile_${hold.jobId}`,
      });
    }
    if (outcome === 'charged') this.counters.charged++;
    if (outcome === 'released') this.counters.released++;
    this.log.warn(
      { jobId: hold.jobId, accountId: hold.accountId, jobStatus: facts.status ?? 'gone', outcome, reconciled: this.counters },
      'open hold of a finished job reconciled (its job-finished event was not applied)',
    );
    return true;
  }
}
