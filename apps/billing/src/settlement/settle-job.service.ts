import { Inject, Injectable } from '@nestjs/common';
import type { JobFinishedEvent } from '@docket/contracts';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { HoldEntity, WalletEntity } from '../entities/index.js';
import { lockHold, releaseLocked } from '../holds/release-hold.service.js';
import { applyChange, lockWallet } from '../ledger/ledger.js';
import { actualCostMicro } from '../pricing/pricing.js';
import { LOGGER } from '../tokens.js';

export type SettleOutcome = 'charged' | 'released' | 'already_final' | 'unknown_job';

/**
 * Turns a job's hold into its final money effect, exactly once: success → charge the actual cost
 * (engine pages × price, also above the hold, up to hold + spendable; sandbox 0) and free the hold;
 * any other terminal status → release without charge.
 * Redelivered or duplicate events find the hold no longer `held` and change nothing.
 */
@Injectable()
export class SettleJobService {
  constructor(
    private readonly ds: DataSource,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async settle(ev: Pick<JobFinishedEvent, 'jobId' | 'accountId' | 'status' | 'pages' | 'sandbox' | 'eventId'>): Promise<SettleOutcome> {
    const hasWallet = await this.ds.getRepository(WalletEntity).existsBy({ accountId: ev.accountId });
    if (!hasWallet) return this.unknown(ev);
    return this.ds.transaction(async (em) => {
      const wallet = await lockWallet(em, ev.accountId);
      const hold = await lockHold(em, ev.jobId, ev.accountId);
      if (!hold) return this.unknown(ev);
      if (hold.state === 'released' && hold.outcome === 'unconfirmed' && ev.status !== 'success') {
        // A batch straggler released at confirm-batch-upload: record how the job ended (usage counts it).
        await em.update(HoldEntity, { jobId: hold.jobId }, { outcome: ev.status, finishedAt: new Date() });
        return 'already_final';
      }
      if (hold.state !== 'held') return 'already_final';

      if (ev.status !== 'success') {
        await releaseLocked(em, wallet, hold, ev.status);
        return 'released';
      }

      // The hold's own sandbox flag decides: it was fixed when the job was admitted.
      const capMicro = hold.amountMicro + wallet.balanceMicro - wallet.heldMicro;
      const cost = actualCostMicro({ pages: ev.pages, sandbox: hold.sandbox, capMicro, pricePerPageMicro: hold.pricePerPageMicro });
      const dueMicro = hold.sandbox ? 0 : Math.max(0, Math.floor(ev.pages || 0)) * hold.pricePerPageMicro;
      if (cost < dueMicro) {
        this.log.warn(
          { jobId: hold.jobId, accountId: hold.accountId, dueMicro, costMicro: cost },
          'wallet could not cover the real page count; charged what it held',
        );
      }
      const finishedAt = new Date();
      await em.update(
        HoldEntity,
        { jobId: hold.jobId },
        {
          state: 'settled',
          outcome: 'success',
          chargedMicro: cost,
          pages: Math.max(0, Math.floor(ev.pages || 0)),
          finishedAt,
        },
      );
      await applyChange(em, wallet, {
        kind: 'charge',
        balanceChangeMicro: -cost,
        heldChangeMicro: -hold.amountMicro,
        jobId: hold.jobId,
        reference: ev.eventId ?? null,
      });
      this.log.info({ jobId: hold.jobId, accountId: hold.accountId, costMicro: cost, holdMicro: hold.amountMicro }, 'job settled');
      return 'charged';
    });
  }

  private unknown(ev: Pick<JobFinishedEvent, 'jobId' | 'accountId'>): 'unknown_job' {
    this.log.warn({ jobId: ev.jobId, accountId: ev.accountId }, 'job.finished for a job without a hold; ignored');
    return 'unknown_job';
  }
}
