import { Streams, type JobFinishedEvent } from '@docket/contracts';
import { enqueueOutbox } from '@docket/messaging';
import type { EntityManager } from 'typeorm';
import { ARTIFACT_SCHEMA } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';

/** The artifact's latest job, row-locked (caller holds the transaction). */
export async function lockLatestJob(m: EntityManager, artifact: ArtifactEntity): Promise<JobEntity | null> {
  if (!artifact.latestJobId) return null;
  return m.getRepository(JobEntity).createQueryBuilder('j').setLock('pessimistic_write').where('j.id = :id', { id: artifact.latestJobId }).getOne();
}

/**
 * In-flight job → `cancelled`, artifact → `cancelled`, and the job-finished event (status `cancelled`)
 * through the outbox in the same transaction, so billing releases the hold. The caller has checked
 * that the job is not terminal; a worker report arriving later is ignored because terminal jobs never change.
 */
export async function cancelLockedJob(m: EntityManager, job: JobEntity, artifact: ArtifactEntity, now = new Date()): Promise<JobEntity> {
  const message = 'cancelled: cancelled at the caller\'s request';
  await m.update(JobEntity, { id: job.id }, { status: 'cancelled', completedAt: now, error: null });
  await m.update(ArtifactEntity, { id: artifact.id }, { status: 'cancelled', statusMessage: message });
  const eventId = `fin_${job.id}`;
  const event: JobFinishedEvent = {
    eventId, jobId: job.id, artifactId: artifact.id, accountId: job.accountId, sandbox: job.sandbox, status: 'cancelled',
    pages: 0, webhookId: job.webhookId, batchId: job.batchId, filename: artifact.filename, result: null, confidence: null,
    needsReview: false, error: null, createdAt: job.createdAt.toISOString(), finishedAt: now.toISOString(),
  };
  await enqueueOutbox(m, ARTIFACT_SCHEMA, Streams.events.jobFinished, event, eventId);
  return { ...job, status: 'cancelled', completedAt: now, error: null };
}
