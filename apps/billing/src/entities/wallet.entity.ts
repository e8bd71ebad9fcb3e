import { Check, Column, CreateDateColumn, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { safeBigint } from './bigint.transformer.js';

/**
 * One wallet per account. `balance_micro` and `held_micro` are running totals of the ledger
 * (sum of `balance_change_micro` / `held_change_micro`), kept on the row so a single
 * `SELECT … FOR UPDATE` serialises every money change of an account.
 */
@Entity({ schema: 'billing', name: 'wallets' })
@Check('wallets_balance_covers_holds', '"balance_micro" >= "held_micro"')
@Check('wallets_held_non_negative', '"held_micro" >= 0')
export class WalletEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'account_id' })
  accountId: string;

  /** Deposits minus settled charges. */
  @Column({ type: 'bigint', name: 'balance_micro', default: 0, transformer: safeBigint })
  balanceMicro: number;

  /** Sum of active holds. */
  @Column({ type: 'bigint', name: 'held_micro', default: 0, transformer: safeBigint })
  heldMicro: number;

  @Column({ type: 'boolean', name: 'is_frozen', default: false })
  isFrozen: boolean;

  @Column({ type: 'varchar', length: 64, name: 'frozen_reason', nullable: true })
  frozenReason: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz', name: 'updated_at' })
  updatedAt: Date;
}
