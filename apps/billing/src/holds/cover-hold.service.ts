import { Inject, Injectable } from '@nestjs/common';
import { toCredits, type CoverHoldCommand, type PlaceHoldReply } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { HoldEntity, type WalletEntity } from '../entities/index.js';
import { applyChange, lockWallet } from '../ledger/ledger.js';
import { estimatePages, holdAmountMicro, type Pricing } from '../pricing/pricing.js';
import { PRICING } from '../tokens.js';
import { lockHold } from './release-hold.service.js';

/**
 * At confirm (ADR 0005): the job's hold becomes at least the estimate for the stored object's real size,
 * and a batch straggler's hold (released `unconfirmed`) is held again. One transaction under the wallet
 * lock; `wallet_frozen` / `insufficient_funds` (402) when the wallet cannot cover the difference, and then
 * nothing changes. Idempotent: a hold that already covers the size is returned as it is.
 */
@Injectable()
export class CoverHoldService {
  constructor(
    private readonly ds: DataSource,
    @Inject(PRICING) private readonly pricing: Pricing,
  ) {}

  async cover(cmd: CoverHoldCommand): Promise<PlaceHoldReply> {
    return this.ds.transaction(async (em) => {
      const wallet = await lockWallet(em, cmd.accountId);
      const hold = await lockHold(em, cmd.jobId, cmd.accountId);
      if (!hold) throw new DocketError('conflict', 'No hold for this job');
      const target = holdAmountMicro({ artifactSize: cmd.artifactSize, sandbox: hold.sandbox }, this.pricing);
      if (hold.state === 'held') return this.grow(em, wallet, hold, target, cmd.artifactSize);
      if (hold.state === 'released' && hold.outcome === 'unconfirmed') return this.holdAgain(em, wallet, hold, target, cmd.artifactSize);
      throw new DocketError('conflict', `The hold of this job is already ${hold.state}`);
    });
  }

  private async grow(em: EntityManager, wallet: WalletEntity, hold: HoldEntity, target: number, size: number): Promise<PlaceHoldReply> {
    const extra = target - hold.amountMicro;
    if (extra <= 0) return { jobId: hold.jobId, amount: toCredits(hold.amountMicro) };
    ensureCovered(wallet, extra, target);
    await em.update(
      HoldEntity,
      { jobId: hold.jobId },
      { amountMicro: target, artifactSize: size, estimatedPages: estimatePages(size, this.pricing) },
    );
    await applyChange(em, wallet, { kind: 'hold', balanceChangeMicro: 0, heldChangeMicro: extra, jobId: hold.jobId, reference: 'confirm' });
    return { jobId: hold.jobId, amount: toCredits(target) };
  }

  private async holdAgain(
    em: EntityManager,
    wallet: WalletEntity,
    hold: HoldEntity,
    target: number,
    size: number,
  ): Promise<PlaceHoldReply> {
    const amount = Math.max(target, hold.amountMicro);
    ensureCovered(wallet, amount, amount);
    await em.update(
      HoldEntity,
      { jobId: hold.jobId },
      {
        state: 'held',
        outcome: null,
        finishedAt: null,
        amountMicro: amount,
        artifactSize: size,
        estimatedPages: estimatePages(size, this.pricing),
      },
    );
    await applyChange(em, wallet, {
      kind: 'hold',
      balanceChangeMicro: 0,
      heldChangeMicro: amount,
      jobId: hold.jobId,
      reference: 'confirm',
    });
    return { jobId: hold.jobId, amount: toCredits(amount) };
  }
}

function ensureCovered(wallet: WalletEntity, extraMicro: number, requiredMicro: number): void {
  if (extraMicro <= 0) return;
  if (wallet.isFrozen) throw new DocketError('wallet_frozen', 'Wallet is frozen', { frozen_reason: wallet.frozenReason });
  const spendable = wallet.balanceMicro - wallet.heldMicro;
  if (extraMicro > spendable) {
    throw new DocketError('insufficient_funds', 'Spendable balance does not cover the cost estimated from the uploaded file', {
      required: toCredits(requiredMicro),
      spendable: toCredits(spendable),
    });
  }
}
