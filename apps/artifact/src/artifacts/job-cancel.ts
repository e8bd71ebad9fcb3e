import type { EntityManager } from 'typeorm';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { enqueueJobFinished } from '../jobs/job-finished.js';

/** The artifact's latest job, row-locked (caller holds the transaction). */
export async function lockLatestJob(m: EntityManager, artifact: ArtifactEntity): Promise<JobEntity | null> {
  if (!artifact.latestJobId) return null;
  return m
    .getRepository(JobEntity)
    .createQueryBuilder('j')
    .setLock('pessimistic_write')
    .where('j.id = :id', { id: artifact.latestJobId })
    .getOne();
}

/**
 * In-flight job → `cancelled`, artifact → `cancelled`, and the job-finished event (status `cancelled`)
 * through the outbox in the same transaction, so billing releases the hold. The caller has checked
 * that the job is not terminal; a worker report arriving later is ignored because terminal jobs never change.
 */
export async function cancelLockedJob(m: EntityManager, job: JobEntity, artifact: ArtifactEntity, now = new Date()): Promise<JobEntity> {
  const message = "cancelled: cancelled at the caller's request";
  await m.update(JobEntity, { id: job.id }, { status: 'cancelled', completedAt: now, error: null });
  await m.update(ArtifactEntity, { id: artifact.id }, { status: 'cancelled', statusMessage: message });
  await enqueueJobFinished(m, job, artifact, { status: 'cancelled', error: null }, now);
  return { ...job, status: 'cancelled', completedAt: now, error: null };
}
