import { Check, Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { AccountEntity } from './account.entity.js';
import type { Environment } from '../credentials.js';

/** A long-lived public identifier (spec §5.3); its environment is fixed by its prefix. */
@Entity({ schema: 'identity', name: 'api_keys' })
@Index('api_keys_account_id_idx', ['accountId'])
@Check('api_keys_environment_check', `"environment" IN ('sandbox', 'live')`)
export class ApiKeyEntity {
  /** `key_` + lowercase ulid; internal, never shown to clients. */
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'api_keys_pkey' })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 40 })
  @ForeignKey(() => AccountEntity, { name: 'api_keys_account_id_fkey' })
  accountId: string;

  /** `dk_test_…` or `dk_live_…`: the Basic-auth username. */
  @Index('api_keys_api_key_key', { unique: true })
  @Column({ name: 'api_key', type: 'varchar', length: 64 })
  apiKey: string;

  @Column({ type: 'varchar', length: 10 })
  environment: Environment;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
