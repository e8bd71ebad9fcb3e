// eslint-disable-next-line @typescript-eslint/no-explicit-any
type JsonObject = Record<string, any>;
import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { FieldDefDto, JobStatus } from '@docket/contracts';

@Entity({ schema: 'artifact', name: 'jobs' })
@Index('jobs_artifact_idx', ['artifactId'])
@Index('jobs_status_created_idx', ['status', 'createdAt'])
@Index('jobs_batch_idx', ['batchId'])
@Index('jobs_review_idx', ['accountId', 'createdAt'], { where: 'needs_review' })
export class JobEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 }) id: string;
  @Column({ name: 'artifact_id', type: 'varchar', length: 40 }) artifactId: string;
  @Column({ name: 'account_id', type: 'varchar', length: 40 }) accountId: string;
  @Column({ name: 'api_key_id', type: 'varchar', length: 64, nullable: true }) apiKeyId: string | null;
  @Column({ type: 'varchar', length: 32 }) status: JobStatus;
  @Column({ type: 'boolean' }) sandbox: boolean;
  @Column({ name: 'template_id', type: 'varchar', length: 40, nullable: true }) templateId: string | null;
  @Column({ name: 'template_version', type: 'integer', nullable: true }) templateVersion: number | null;
  @Column({ name: 'schema', type: 'jsonb' }) schema: { fields: FieldDefDto[] };
  @Column({ name: 'confidence_threshold', type: 'double precision', default: () => '0.7' }) confidenceThreshold: number;
  /** Template setting `ocr_engine` at submission (travels with the job like the threshold). */
  @Column({ name: 'ocr_engine', type: 'varchar', length: 32, default: 'default' }) ocrEngine: string;
  /** Template setting `default_currency` at submission (ISO 4217), null when unset. */
  @Column({ name: 'default_currency', type: 'varchar', length: 3, nullable: true }) defaultCurrency: string | null;
  /** Template setting `partial_pages` at submission: read only the pages the wallet covers instead of failing (ADR 0005). */
  @Column({ name: 'partial_pages', type: 'boolean', default: false }) partialPages: boolean;
  @Column({ name: 'webhook_id', type: 'varchar', length: 40, nullable: true }) webhookId: string | null;
  @Column({ name: 'batch_id', type: 'varchar', length: 40, nullable: true }) batchId: string | null;
  @Column({ name: 'hold_amount', type: 'double precision', default: 0 }) holdAmount: number;
  @Column({ type: 'integer', default: 0 }) attempts: number;
  @Column({ type: 'integer', nullable: true }) pages: number | null;
  /** The document's page count as the worker counted it before reading (the hold was re-sized to it). */
  @Column({ name: 'page_count', type: 'integer', nullable: true }) pageCount: number | null;
  @Column({ type: 'jsonb', nullable: true }) result: JsonObject | null;
  @Column({ name: 'fields_meta', type: 'jsonb', nullable: true }) fieldsMeta: JsonObject | null;
  /** The layout exemplar that gave some fields (ADR 0014): `{ exemplar_id, similarity, fields }`; null when none helped. */
  @Column({ type: 'jsonb', nullable: true }) memory: JsonObject | null;
  @Column({ name: 'result_key', type: 'text', nullable: true }) resultKey: string | null;
  @Column({ name: 'markdown_key', type: 'text', nullable: true }) markdownKey: string | null;
  @Column({ type: 'double precision', nullable: true }) confidence: number | null;
  @Column({ name: 'needs_review', type: 'boolean', default: false }) needsReview: boolean;
  /** The latest result version (1 = the engine's reading; each correction adds one; see `job_results`). */
  @Column({ name: 'result_version', type: 'integer', default: 1 }) resultVersion: number;
  /** When a person approved or corrected the result, and with which API key. */
  @Column({ name: 'reviewed_at', type: 'timestamptz', nullable: true }) reviewedAt: Date | null;
  @Column({ name: 'reviewed_by', type: 'varchar', length: 64, nullable: true }) reviewedBy: string | null;
  @Column({ type: 'text', nullable: true }) error: string | null;
  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' }) createdAt: Date;
  @Column({ name: 'upload_expires_at', type: 'timestamptz' }) uploadExpiresAt: Date;
  @Column({ name: 'queued_at', type: 'timestamptz', nullable: true }) queuedAt: Date | null;
  @Column({ name: 'started_at', type: 'timestamptz', nullable: true }) startedAt: Date | null;
  @Column({ name: 'completed_at', type: 'timestamptz', nullable: true }) completedAt: Date | null;
}
