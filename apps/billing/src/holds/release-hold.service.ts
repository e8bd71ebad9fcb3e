import { Injectable } from '@nestjs/common';
import { toCredits, type ReleaseHoldCommand, type ReleaseHoldReply } from '@docket/contracts';
import { DataSource, type EntityManager } from 'typeorm';
import { HoldEntity, WalletEntity } from '../entities/index.js';
import type { HoldOutcome } from '../entities/hold.entity.js';
import { applyChange, lockWallet } from '../ledger/ledger.js';

/**
 * Gives a held amount back without charging (cancelled, expired, or a job whose creation was aborted
 * after the hold). Idempotent; an unknown job is a no-op.
 */
@Injectable()
export class ReleaseHoldService {
  constructor(private readonly ds: DataSource) {}

  async release(cmd: ReleaseHoldCommand): Promise<ReleaseHoldReply> {
    const exists = await this.ds.getRepository(WalletEntity).existsBy({ accountId: cmd.accountId });
    if (!exists) return { jobId: cmd.jobId, status: 'unknown', amount: 0 };
    return this.ds.transaction(async (em) => {
      const wallet = await lockWallet(em, cmd.accountId);
      const hold = await lockHold(em, cmd.jobId, cmd.accountId);
      if (!hold) return { jobId: cmd.jobId, status: 'unknown', amount: 0 };
      if (hold.state === 'held') await releaseLocked(em, wallet, hold, cmd.reason ?? 'cancelled');
      return { jobId: hold.jobId, status: hold.state === 'settled' ? 'settled' : 'released', amount: toCredits(hold.amountMicro) };
    });
  }
}

/** The hold of a job within an account, locked. Call after `lockWallet` (lock order wallet → hold). */
export async function lockHold(em: EntityManager, jobId: string, accountId: string): Promise<HoldEntity | null> {
  return em.findOne(HoldEntity, { where: { jobId, accountId }, lock: { mode: 'pessimistic_write' } });
}

/** Marks a `held` hold released and returns its amount to spendable. */
export async function releaseLocked(em: EntityManager, wallet: WalletEntity, hold: HoldEntity, outcome: HoldOutcome): Promise<void> {
  hold.state = 'released';
  hold.outcome = outcome;
  hold.finishedAt = new Date();
  await em.update(HoldEntity, { jobId: hold.jobId }, { state: hold.state, outcome, finishedAt: hold.finishedAt });
  await applyChange(em, wallet, { kind: 'release', balanceChangeMicro: 0, heldChangeMicro: -hold.amountMicro, jobId: hold.jobId });
}
