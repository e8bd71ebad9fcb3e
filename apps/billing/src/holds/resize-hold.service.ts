import { Injectable } from '@nestjs/common';
import { toCredits, type ResizeHoldCommand, type ResizeHoldReply } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { HoldEntity, type WalletEntity } from '../entities/index.js';
import { applyChange, lockWallet } from '../ledger/ledger.js';
import { lockHold } from './release-hold.service.js';

/**
 * Once the worker counted the document's pages, before it reads any (ADR 0005): the job's hold becomes
 * pages × the price recorded on it, so the work never outruns what was held and settlement charges exactly the
 * pages read. One transaction under the wallet → hold locks. What the wallet can give the job is its hold plus the
 * spendable balance (only its hold when frozen); when that is short, `partial` chooses between refusing
 * (`insufficient_funds` / `wallet_frozen`, nothing changes) and holding the whole pages it covers (at least one).
 */
@Injectable()
export class ResizeHoldService {
  constructor(private readonly ds: DataSource) {}

  async resize(cmd: ResizeHoldCommand): Promise<ResizeHoldReply> {
    return this.ds.transaction(async (em) => {
      const wallet = await lockWallet(em, cmd.accountId);
      const hold = await lockHold(em, cmd.jobId, cmd.accountId);
      if (!hold) throw new DocketError('conflict', 'No hold for this job');
      if (hold.state !== 'held') throw new DocketError('conflict', `The hold of this job is already ${hold.state}`);
      if (hold.sandbox) return { jobId: hold.jobId, amount: 0, pages: cmd.pages };
      const pages = coveredPages(wallet, hold, cmd);
      await setHold(em, wallet, hold, pages);
      return { jobId: hold.jobId, amount: toCredits(pages * hold.pricePerPageMicro), pages };
    });
  }
}

/** All `cmd.pages` when the wallet can give them; else, with `partial`, the whole pages it can give (≥ 1); else a 402. */
function coveredPages(wallet: WalletEntity, hold: HoldEntity, cmd: ResizeHoldCommand): number {
  const price = hold.pricePerPageMicro;
  const availableMicro = hold.amountMicro + (wallet.isFrozen ? 0 : Math.max(0, wallet.balanceMicro - wallet.heldMicro));
  const affordable = price > 0 ? Math.floor(availableMicro / price) : cmd.pages;
  if (affordable >= cmd.pages) return cmd.pages;
  if (cmd.partial && affordable >= 1) return affordable;
  if (wallet.isFrozen) throw new DocketError('wallet_frozen', 'Wallet is frozen', { frozen_reason: wallet.frozenReason });
  throw new DocketError('insufficient_funds', `The wallet cannot cover the ${cmd.pages} pages of this document`, {
    required: toCredits(cmd.pages * price),
    available: toCredits(availableMicro),
    pages: cmd.pages,
  });
}

/** The hold becomes `pages` × its price; the difference moves between spendable and held (a `hold` or `release` row). */
async function setHold(em: EntityManager, wallet: WalletEntity, hold: HoldEntity, pages: number): Promise<void> {
  const target = pages * hold.pricePerPageMicro;
  const change = target - hold.amountMicro;
  if (change === 0) return;
  await em.update(HoldEntity, { jobId: hold.jobId }, { amountMicro: target, estimatedPages: pages });
  await applyChange(em, wallet, {
    kind: change > 0 ? 'hold' : 'release',
    balanceChangeMicro: 0,
    heldChangeMicro: change,
    jobId: hold.jobId,
    reference: 'pages',
  });
}
