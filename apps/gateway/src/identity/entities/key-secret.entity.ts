import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity.js';

/**
 * One secret of an API key. Several may be active at once: rotation issues a new one and the old
 * stays valid until revoked (spec §5.5). Only a SHA-256 digest is stored (ADR 0002).
 */
@Entity({ schema: 'identity', name: 'key_secrets' })
@Index('key_secrets_api_key_id_idx', ['apiKeyId'])
export class KeySecretEntity {
  /** `sec_` + lowercase ulid; named by the admin when revoking. */
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'key_secrets_pkey' })
  id: string;

  @Column({ name: 'api_key_id', type: 'varchar', length: 40 })
  @ForeignKey(() => ApiKeyEntity, { name: 'key_secrets_api_key_id_fkey' })
  apiKeyId: string;

  /** Hex SHA-256 of the full secret string. */
  @Column({ name: 'secret_hash', type: 'char', length: 64 })
  secretHash: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt: Date;

  /** Last successful authentication with this secret, to LAST_USED_RESOLUTION_SECONDS (written at most once per interval). */
  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
