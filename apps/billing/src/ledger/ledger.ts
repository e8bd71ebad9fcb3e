import { DocketError } from '@docket/errors';
import { ulid } from 'ulid';
import type { EntityManager } from 'typeorm';
import { LedgerEntryEntity, WalletEntity } from '../entities/index.js';
import type { LedgerKind } from '../entities/ledger-entry.entity.js';

/**
 * Locks the account's wallet row for the rest of the transaction. Every money change goes through
 * this lock first (then, if needed, the hold row), so concurrent changes of one account serialise
 * and lock order is always wallet → hold.
 */
export async function lockWallet(em: EntityManager, accountId: string): Promise<WalletEntity> {
  const wallet = await em.findOne(WalletEntity, { where: { accountId }, lock: { mode: 'pessimistic_write' } });
  if (!wallet) throw new DocketError('wallet_not_found', 'No wallet for this account');
  return wallet;
}

export interface MoneyChange {
  kind: LedgerKind;
  balanceChangeMicro: number;
  heldChangeMicro: number;
  jobId?: string | null;
  reference?: string | null;
}

/**
 * The only writer of wallet totals: appends the ledger row and moves the locked wallet's running
 * totals by the same amounts, in the caller's transaction. No-op changes (sandbox) write nothing.
 */
export async function applyChange(em: EntityManager, wallet: WalletEntity, c: MoneyChange): Promise<WalletEntity> {
  if (c.balanceChangeMicro === 0 && c.heldChangeMicro === 0) return wallet;
  wallet.balanceMicro += c.balanceChangeMicro;
  wallet.heldMicro += c.heldChangeMicro;
  await em.update(WalletEntity, { accountId: wallet.accountId }, { balanceMicro: wallet.balanceMicro, heldMicro: wallet.heldMicro });
  await em.insert(LedgerEntryEntity, {
    id: `led_${ulid().toLowerCase()}`,
    accountId: wallet.accountId,
    kind: c.kind,
    balanceChangeMicro: c.balanceChangeMicro,
    heldChangeMicro: c.heldChangeMicro,
    balanceAfterMicro: wallet.balanceMicro,
    heldAfterMicro: wallet.heldMicro,
    jobId: c.jobId ?? null,
    reference: c.reference ?? null,
  });
  return wallet;
}
