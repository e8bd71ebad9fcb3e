// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JsonObject = Record<string, any>;
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ArtifactStatus, RetentionPolicy } from '@docket/contracts';

@Entity({ schema: 'artifact', name: 'artifacts' })
@Index('artifacts_account_created_idx', ['accountId', 'createdAt'])
export class ArtifactEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'account_id', type: 'varchar', length: 40 }) accountId: string;
  @Column({ type: 'varchar', length: 255 }) filename: string;
  @Column({ name: 'artifact_type', type: 'varchar', length: 255 }) artifactType: string;
  @Column({ name: 'artifact_size', type: 'bigint', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  artifactSize: number;
  @Column({ type: 'varchar', length: 32 }) status: ArtifactStatus;
  @Column({ name: 'retention_policy', type: 'varchar', length: 16 }) retentionPolicy: RetentionPolicy;
  @Column({ type: 'text', nullable: true }) description: string | null;
  @Column({ type: 'jsonb', default: () => "'[]'" }) tags: string[];
  @Column({ name: 'storage_key', type: 'text' }) storageKey: string;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'uploaded_at', type: 'timestamptz', nullable: true }) uploadedAt: Date | null;
  @Column({ name: 'processed_at', type: 'timestamptz', nullable: true }) processedAt: Date | null;
  @Column({ name: 'status_message', type: 'text', nullable: true }) statusMessage: string | null;
  @Column({ type: 'double precision', nullable: true }) confidence: number | null;
  @Column({ name: 'needs_review', type: 'boolean', default: false }) needsReview: boolean;
  @Column({ name: 'latest_job_id', type: 'varchar', length: 40, nullable: true }) latestJobId: string | null;
  @Column({ name: 'latest_result', type: 'jsonb', nullable: true }) latestResult: JsonObject | null;
  @Column({ name: 'source_purged_at', type: 'timestamptz', nullable: true }) sourcePurgedAt: Date | null;
}
