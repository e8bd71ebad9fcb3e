import { Injectable } from '@nestjs/common';
import {
  toMicro,
  type AccountScoped,
  type DepositCommand,
  type FreezeCommand,
  type OpenWalletCommand,
  type WalletStatusResponseDto,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { DataSource } from 'typeorm';
import { WalletEntity } from '../entities/index.js';
import { applyChange, lockWallet } from '../ledger/ledger.js';
import { walletStatus } from './wallet.view.js';

@Injectable()
export class WalletService {
  constructor(private readonly ds: DataSource) {}

  /**
   * Idempotent: opening an existing wallet returns it unchanged (initial credits apply only on
   * creation), so a retried account creation never double-credits nor fails half way.
   */
  async open(cmd: OpenWalletCommand): Promise<WalletStatusResponseDto> {
    return this.ds.transaction(async (em) => {
      const inserted = await em
        .createQueryBuilder()
        .insert()
        .into(WalletEntity)
        .values({ accountId: cmd.accountId })
        .orIgnore()
        .returning(['accountId'])
        .execute();
      const wallet = await lockWallet(em, cmd.accountId);
      const initial = toMicro(cmd.initialCredits);
      if (inserted.raw.length > 0 && initial > 0) {
        await applyChange(em, wallet, { kind: 'deposit', balanceChangeMicro: initial, heldChangeMicro: 0, reference: 'initial_credits' });
      }
      return walletStatus(wallet);
    });
  }

  async get(q: AccountScoped): Promise<WalletStatusResponseDto> {
    const wallet = await this.ds.getRepository(WalletEntity).findOneBy({ accountId: q.accountId });
    if (!wallet) throw new DocketError('wallet_not_found', 'No wallet for this account');
    return walletStatus(wallet);
  }

  /** Deposits are accepted while frozen: freezing stops new jobs, not top-ups. */
  async deposit(cmd: DepositCommand): Promise<WalletStatusResponseDto> {
    const amount = toMicro(cmd.credits);
    if (amount <= 0) throw new DocketError('validation_failed', 'Deposit must be at least one micro-credit');
    return this.ds.transaction(async (em) => {
      const wallet = await lockWallet(em, cmd.accountId);
      await applyChange(em, wallet, { kind: 'deposit', balanceChangeMicro: amount, heldChangeMicro: 0, reference: cmd.reference ?? null });
      return walletStatus(wallet);
    });
  }

  async freeze(cmd: FreezeCommand): Promise<WalletStatusResponseDto> {
    return this.setFrozen(cmd.accountId, true, cmd.reason);
  }

  async unfreeze(cmd: AccountScoped): Promise<WalletStatusResponseDto> {
    return this.setFrozen(cmd.accountId, false, null);
  }

  private async setFrozen(accountId: string, isFrozen: boolean, reason: string | null): Promise<WalletStatusResponseDto> {
    return this.ds.transaction(async (em) => {
      const wallet = await lockWallet(em, accountId);
      wallet.isFrozen = isFrozen;
      wallet.frozenReason = reason;
      await em.update(WalletEntity, { accountId }, { isFrozen, frozenReason: reason });
      return walletStatus(wallet);
    });
  }
}
