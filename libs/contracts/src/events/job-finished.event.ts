import type { JobStatus } from '../common/constants.js';

/**
 * `events.v1.job.finished` on stream EVENTS, published by `artifact` through its outbox when a job
 * reaches a terminal state. Consumers (billing, webhook-dispatcher) are idempotent on `jobId`.
 */
export interface JobFinishedEvent {
  /** Outbox id; also the JetStream Nats-Msg-Id. */
  eventId: string;
  jobId: string;
  artifactId: string;
  accountId: string;
  sandbox: boolean;
  status: Extract<JobStatus, 'success' | 'failed' | 'cancelled' | 'expired'>;
  /** Pages processed (billing). */
  pages: number;
  webhookId: string | null;
  batchId: string | null;
  filename: string;
  /**
   * Always null since ADR 0008: events carry references, not results (the EVENTS stream keeps messages 7 days,
   * past any DELETE). The webhook dispatcher fetches the result from artifact by `jobId`. Kept for consumers of
   * events published before.
   */
  result: Record<string, unknown> | null;
  confidence: number | null;
  needsReview: boolean;
  error: string | null;
  createdAt: string;
  finishedAt: string;
}
