import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import { safeBigint } from './bigint.transformer.js';

export const HOLD_STATES = ['held', 'settled', 'released'] as const;
export type HoldState = (typeof HOLD_STATES)[number];

/** How the job ended, as far as billing knows (usage counts these). */
export type HoldOutcome = 'success' | 'failed' | 'cancelled' | 'expired' | 'aborted' | 'unconfirmed';

/** One hold per job (the job id is the key, which makes placing a hold idempotent). */
@Entity({ schema: 'billing', name: 'holds' })
@Index('holds_account_created_idx', ['accountId', 'createdAt'])
@Check('holds_state_valid', `"state" IN ('held', 'settled', 'released')`)
// The charge may exceed the hold: the engine's page count settles (ADR 0005); the wallet CHECKs bound it.
@Check('holds_charge_non_negative', '"charged_micro" >= 0')
export class HoldEntity {
  @PrimaryColumn({ type: 'varchar', length: 64, name: 'job_id' })
  jobId: string;

  @Column({ type: 'varchar', length: 64, name: 'account_id' })
  accountId: string;

  @Column({ type: 'boolean' })
  sandbox: boolean;

  /** Estimate held while the job is in flight. */
  @Column({ type: 'bigint', name: 'amount_micro', transformer: safeBigint })
  amountMicro: number;

  /** Price in force when the hold was placed; settlement uses it, not today's price. */
  @Column({ type: 'bigint', name: 'price_per_page_micro', transformer: safeBigint })
  pricePerPageMicro: number;

  @Column({ type: 'integer', name: 'estimated_pages' })
  estimatedPages: number;

  @Column({ type: 'bigint', name: 'artifact_size', transformer: safeBigint })
  artifactSize: number;

  @Column({ type: 'varchar', length: 255, name: 'mime_type' })
  mimeType: string;

  @Column({ type: 'varchar', length: 16, default: 'held' })
  state: HoldState;

  @Column({ type: 'bigint', name: 'charged_micro', default: 0, transformer: safeBigint })
  chargedMicro: number;

  @Column({ type: 'varchar', length: 16, nullable: true })
  outcome: HoldOutcome | null;

  @Column({ type: 'integer', nullable: true })
  pages: number | null;

  @CreateDateColumn({ type: 'timestamptz', name: 'created_at' })
  createdAt: Date;

  @Column({ type: 'timestamptz', name: 'finished_at', nullable: true })
  finishedAt: Date | null;
}
