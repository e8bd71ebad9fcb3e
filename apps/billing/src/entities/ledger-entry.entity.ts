import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { safeBigint } from './bigint.transformer.js';

export type LedgerKind = 'deposit' | 'hold' | 'release' | 'charge';

/**
 * Append-only. Every change to a wallet's balance or held total is one row; the wallet's running
 * totals always equal the sums of these rows (the integration test checks it).
 */
@Entity({ schema: 'billing', name: 'ledger_entries' })
@Index('ledger_account_created_idx', ['accountId', 'createdAt'])
// A job is charged at most once: a second settlement cannot slip in. Holds and releases may repeat
// (a confirm growing the hold; a batch straggler released at confirm-batch-upload and held again later),
// each guarded by the hold row's state under the wallet → hold locks.
@Index('ledger_job_charge_uq', ['jobId'], { unique: true, where: `"job_id" IS NOT NULL AND "kind" = 'charge'` })
export class LedgerEntryEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  id: string;

  @Column({ type: 'varchar', length: 64, name: 'account_id' })
  accountId: string;

  @Column({ type: 'varchar', length: 16 })
  kind: LedgerKind;

  /** Signed change to the balance (+ deposit, − charge). */
  @Column({ type: 'bigint', name: 'balance_change_micro', transformer: safeBigint })
  balanceChangeMicro: number;

  /** Signed change to the held total (+ hold, − release/settle). */
  @Column({ type: 'bigint', name: 'held_change_micro', transformer: safeBigint })
  heldChangeMicro: number;

  @Column({ type: 'bigint', name: 'balance_after_micro', transformer: safeBigint })
  balanceAfterMicro: number;

  @Column({ type: 'bigint', name: 'held_after_micro', transformer: safeBigint })
  heldAfterMicro: number;

  @Column({ type: 'varchar', length: 64, name: 'job_id', nullable: true })
  jobId: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  reference: string | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;
}
