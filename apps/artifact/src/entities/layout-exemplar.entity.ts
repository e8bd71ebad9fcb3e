// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JsonObject = Record<string, any>;
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ExemplarSource } from '@docket/contracts';

/**
 * A layout exemplar (ADR 0014): what a corrected or approved job taught about its document's layout — the fingerprint
 * (digests of issuer identifiers and header words, page size) and per field where its value stood. One account's only:
 * every query names the account. Deleted with the artifact it was learned from.
 */
@Entity({ schema: 'artifact', name: 'layout_exemplars' })
@Index('layout_exemplars_account_idx', ['accountId', 'createdAt'])
@Index('layout_exemplars_job_uq', ['jobId'], { unique: true })
@Index('layout_exemplars_artifact_idx', ['artifactId'])
export class LayoutExemplarEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'account_id', type: 'varchar', length: 40 }) accountId: string;
  @Column({ name: 'job_id', type: 'varchar', length: 40 }) jobId: string;
  @Column({ name: 'artifact_id', type: 'varchar', length: 40 }) artifactId: string;
  @Column({ name: 'template_id', type: 'varchar', length: 40, nullable: true }) templateId: string | null;
  @Column({ type: 'varchar', length: 16 }) source: ExemplarSource;
  @Column({ name: 'result_version', type: 'integer' }) resultVersion: number;
  @Column({ type: 'jsonb' }) fingerprint: JsonObject;
  @Column({ type: 'jsonb' }) anchors: JsonObject[];
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
}
