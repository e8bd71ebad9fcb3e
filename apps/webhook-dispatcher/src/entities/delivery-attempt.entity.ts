import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One HTTP delivery attempt. Unique per (job, event type, result version, attempt, webhook): a redelivered event
 * never logs or sends the same attempt twice.
 */
@Entity({ schema: 'webhook', name: 'delivery_attempts' })
@Index('delivery_attempts_attempt_uq', ['jobId', 'eventType', 'resultVersion', 'attemptNumber', 'webhookId'], { unique: true })
@Index('delivery_attempts_account_job_idx', ['accountId', 'jobId'])
@Index('delivery_attempts_webhook_time_idx', ['webhookId', 'attemptedAt'])
export class DeliveryAttemptEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'PK_delivery_attempts' }) id: string;
  @Column({ name: 'account_id', type: 'text' }) accountId: string;
  @Column({ name: 'webhook_id', type: 'text' }) webhookId: string;
  @Column({ name: 'job_id', type: 'text' }) jobId: string;
  @Column({ name: 'event_type', type: 'text' }) eventType: string;
  /** The result version a `job.corrected` delivery announces; 0 for job-finished events (one per job). */
  @Column({ name: 'result_version', type: 'integer', default: 0 }) resultVersion: number;
  @Column({ name: 'attempt_number', type: 'integer' }) attemptNumber: number;
  @Column({ type: 'text' }) url: string;
  @Column({ name: 'request_headers', type: 'jsonb' }) requestHeaders: Record<string, string>;
  @Column({ name: 'response_status_code', type: 'integer' }) responseStatusCode: number;
  @Column({ name: 'response_body', type: 'text' }) responseBody: string;
  @Column({ name: 'is_success', type: 'boolean' }) isSuccess: boolean;
  @Column({ name: 'duration_ms', type: 'integer' }) durationMs: number;
  @Column({ name: 'attempted_at', type: 'timestamptz' }) attemptedAt: Date;
  /** Null while the attempt is in flight (claimed, not yet answered); see `visibleAttempts`. */
  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true }) finishedAt: Date | null;
}
