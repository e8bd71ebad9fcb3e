// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JsonObject = Record<string, any>;
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ResultVersionSource } from '@docket/contracts';

/**
 * One version of a job's result (review workflow). Version 1 is the engine's reading, written when the first
 * correction arrives and never changed; every correction adds the next version. `jobs.result` holds the latest.
 */
@Entity({ schema: 'artifact', name: 'job_results' })
@Index('job_results_job_version_uq', ['jobId', 'version'], { unique: true })
@Index('job_results_account_idx', ['accountId', 'jobId'])
export class JobResultEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'job_id', type: 'varchar', length: 40 }) jobId: string;
  @Column({ name: 'artifact_id', type: 'varchar', length: 40 }) artifactId: string;
  @Column({ name: 'account_id', type: 'varchar', length: 40 }) accountId: string;
  @Column({ type: 'integer' }) version: number;
  @Column({ type: 'varchar', length: 16 }) source: ResultVersionSource;
  @Column({ name: 'api_key_id', type: 'varchar', length: 64, nullable: true }) apiKeyId: string | null;
  @Column({ type: 'jsonb' }) result: JsonObject;
  @Column({ name: 'changed_fields', type: 'jsonb' }) changedFields: string[];
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}
