import { Streams, type JobFinishedEvent } from '@docket/contracts';
import { enqueueOutbox } from '@docket/messaging';
import type { EntityManager } from 'typeorm';
import { ARTIFACT_SCHEMA } from '../config.js';
import type { ArtifactEntity } from '../entities/artifact.entity.js';
import type { JobEntity } from '../entities/job.entity.js';

/** What a terminal state adds to the job-finished event; a job that never ran has no pages, result or confidence. */
export interface FinishedOutcome {
  status: JobFinishedEvent['status'];
  error: string | null;
  pages?: number;
  confidence?: number | null;
  needsReview?: boolean;
}

/**
 * Enqueues the job-finished event (id `fin_<job>`, one per job) through the outbox in the caller's transaction:
 * billing settles or releases the hold and the webhook dispatcher notifies from it. Every way a job ends
 * (worker outcome, cancel, upload expiry, processing deadline) goes through here.
 */
export async function enqueueJobFinished(
  m: EntityManager,
  job: JobEntity,
  artifact: ArtifactEntity,
  outcome: FinishedOutcome,
  now: Date,
): Promise<void> {
  const eventId = `fin_${job.id}`;
  const event: JobFinishedEvent = {
    eventId,
    jobId: job.id,
    artifactId: job.artifactId,
    accountId: job.accountId,
    sandbox: job.sandbox,
    status: outcome.status,
    pages: outcome.pages ?? 0,
    webhookId: job.webhookId,
    batchId: job.batchId,
    filename: artifact.filename,
    result: null,
    confidence: outcome.confidence ?? null,
    needsReview: outcome.needsReview ?? false,
    error: outcome.error,
    createdAt: job.createdAt.toISOString(),
    finishedAt: now.toISOString(),
  };
  await enqueueOutbox(m, ARTIFACT_SCHEMA, Streams.events.jobFinished, event, eventId);
}
