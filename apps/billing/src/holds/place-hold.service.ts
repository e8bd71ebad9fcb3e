import { Inject, Injectable } from '@nestjs/common';
import {
  toCredits,
  type PlaceBatchHoldCommand,
  type PlaceBatchHoldReply,
  type PlaceHoldCommand,
  type PlaceHoldReply,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { DataSource, In } from 'typeorm';
import { HoldEntity } from '../entities/index.js';
import { applyChange, lockWallet } from '../ledger/ledger.js';
import { estimatePages, holdAmountMicro, type Pricing } from '../pricing/pricing.js';
import { PRICING } from '../tokens.js';

/**
 * Reserves the estimated cost of one job. Runs in one transaction under the wallet row lock, so
 * concurrent holds of one account are checked against each other and spendable never goes negative
 * (the wallets CHECK constraint backs this up). Idempotent per job id: a retry returns the same hold.
 */
@Injectable()
export class PlaceHoldService {
  constructor(
    private readonly ds: DataSource,
    @Inject(PRICING) private readonly pricing: Pricing,
  ) {}

  async place(cmd: PlaceHoldCommand): Promise<PlaceHoldReply> {
    return this.ds.transaction(async (em) => {
      const wallet = await lockWallet(em, cmd.accountId);

      // Checked after the lock: a concurrent call for the same job has committed or not started.
      const existing = await em.findOneBy(HoldEntity, { jobId: cmd.jobId });
      if (existing) {
        if (existing.accountId !== cmd.accountId) throw new DocketError('conflict', 'Job id already used by another account');
        return { jobId: existing.jobId, amount: toCredits(existing.amountMicro) };
      }

      // Freezing is account-level: it stops sandbox jobs too.
      if (wallet.isFrozen) {
        throw new DocketError('wallet_frozen', 'Wallet is frozen', { frozen_reason: wallet.frozenReason });
      }

      const amount = holdAmountMicro(cmd, this.pricing);
      const spendable = wallet.balanceMicro - wallet.heldMicro;
      if (amount > spendable) {
        throw new DocketError('insufficient_funds', 'Spendable balance does not cover the estimated cost of this job', {
          required: toCredits(amount),
          spendable: toCredits(spendable),
        });
      }

      await em.insert(HoldEntity, {
        jobId: cmd.jobId,
        accountId: cmd.accountId,
        sandbox: cmd.sandbox,
        amountMicro: amount,
        pricePerPageMicro: this.pricing.pricePerPageMicro,
        estimatedPages: estimatePages(cmd.artifactSize, this.pricing),
        artifactSize: cmd.artifactSize,
        mimeType: cmd.mimeType.slice(0, 255),
      });
      await applyChange(em, wallet, { kind: 'hold', balanceChangeMicro: 0, heldChangeMicro: amount, jobId: cmd.jobId });
      return { jobId: cmd.jobId, amount: toCredits(amount) };
    });
  }

  /**
   * Every job of a batch, all or nothing (spec §4.3: "no partial batch is queued"): one transaction,
   * one wallet lock, the sum of the new holds checked against spendable at once. Jobs that already
   * hold (a retried request) are returned as they are and not counted again.
   */
  async placeBatch(cmd: PlaceBatchHoldCommand): Promise<PlaceBatchHoldReply> {
    const ids = cmd.items.map((i) => i.jobId);
    if (new Set(ids).size !== ids.length) throw new DocketError('validation_failed', 'Job ids of a batch hold must be unique');
    return this.ds.transaction(async (em) => {
      const wallet = await lockWallet(em, cmd.accountId);
      const existing = new Map((await em.findBy(HoldEntity, { jobId: In(ids) })).map((h) => [h.jobId, h]));
      for (const h of existing.values()) {
        if (h.accountId !== cmd.accountId) throw new DocketError('conflict', 'Job id already used by another account');
      }
      const fresh = cmd.items.filter((i) => !existing.has(i.jobId));
      if (fresh.length && wallet.isFrozen) {
        throw new DocketError('wallet_frozen', 'Wallet is frozen', { frozen_reason: wallet.frozenReason });
      }
      const amounts = new Map(
        fresh.map((i) => [i.jobId, holdAmountMicro({ artifactSize: i.artifactSize, sandbox: cmd.sandbox }, this.pricing)]),
      );
      const required = [...amounts.values()].reduce((a, b) => a + b, 0);
      const spendable = wallet.balanceMicro - wallet.heldMicro;
      if (required > spendable) {
        throw new DocketError('insufficient_funds', 'Spendable balance does not cover the estimated cost of this batch', {
          required: toCredits(required),
          spendable: toCredits(spendable),
          files: fresh.length,
        });
      }
      for (const item of fresh) {
        const amount = amounts.get(item.jobId)!;
        await em.insert(HoldEntity, {
          jobId: item.jobId,
          accountId: cmd.accountId,
          sandbox: cmd.sandbox,
          amountMicro: amount,
          pricePerPageMicro: this.pricing.pricePerPageMicro,
          estimatedPages: estimatePages(item.artifactSize, this.pricing),
          artifactSize: item.artifactSize,
          mimeType: item.mimeType.slice(0, 255),
        });
        await applyChange(em, wallet, { kind: 'hold', balanceChangeMicro: 0, heldChangeMicro: amount, jobId: item.jobId });
      }
      const holds = cmd.items.map((i) => ({
        jobId: i.jobId,
        amount: toCredits(existing.get(i.jobId)?.amountMicro ?? amounts.get(i.jobId)!),
      }));
      const totalMicro = cmd.items.reduce((sum, i) => sum + (existing.get(i.jobId)?.amountMicro ?? amounts.get(i.jobId)!), 0);
      return { holds, total: toCredits(totalMicro) };
    });
  }
}
