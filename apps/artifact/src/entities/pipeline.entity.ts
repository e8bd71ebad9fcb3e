import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Pipeline (legacy, spec §2.5): a named bundle of defaults (template, webhook). Every account has a
 * default one, created on first use with a deterministic id (`pipe_` + the account id's ulid), so
 * concurrent first uses create it once.
 */
@Entity({ schema: 'artifact', name: 'pipelines' })
@Index('pipelines_account_idx', ['accountId'])
export class PipelineEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'account_id', type: 'varchar', length: 40 }) accountId: string;
  @Column({ type: 'varchar', length: 255 }) name: string;
  @Column({ name: 'is_active', type: 'boolean', default: true }) isActive: boolean;
  @Column({ name: 'is_default', type: 'boolean', default: false }) isDefault: boolean;
  @Column({ name: 'template_id', type: 'varchar', length: 64, nullable: true }) templateId: string | null;
  @Column({ name: 'webhook_id', type: 'varchar', length: 64, nullable: true }) webhookId: string | null;
  @Column({ name: 'execution_count', type: 'integer', default: 0 }) executionCount: number;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}
