import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A registered (or one-shot) webhook. Signing secrets are AES-256-GCM ciphertexts, never plain. */
@Entity({ schema: 'webhook', name: 'webhooks' })
@Index('webhooks_account_idx', ['accountId', 'createdAt'])
export class WebhookEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_webhooks' }) id: string;
  @Column({ name: 'account_id', type: 'text' }) accountId: string;
  @Column({ type: 'text' }) url: string;
  @Column({ type: 'text', default: '' }) description: string;
  @Column({ type: 'text', array: true }) events: string[];
  @Column({ name: 'is_active', type: 'boolean', default: true }) isActive: boolean;
  /** Registered from a request's `webhook_url`: hidden from listings and not addressable by id. */
  @Column({ name: 'is_one_shot', type: 'boolean', default: false }) isOneShot: boolean;
  @Column({ name: 'secret_ciphertext', type: 'text' }) secretCiphertext: string;
  @Column({ name: 'previous_secret_ciphertext', type: 'text', nullable: true }) previousSecretCiphertext: string | null;
  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true }) previousSecretExpiresAt: Date | null;
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true }) deletedAt: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
}
