import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource, In } from 'typeorm';
import type { ArtifactConfig } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { enqueueJobFinished } from '../jobs/job-finished.js';
import { PeriodicSweep } from '../sweep/periodic-sweep.js';
import { CONFIG, LOGGER } from '../tokens.js';

/** `<code>: <message>` (spec §2.2) of a job the deadline sweep expired: running (`queued` false) or never picked up. */
export function processingTimeoutError(deadlineMs: number, queued = false): string {
  const minutes = Math.round((deadlineMs / 60_000) * 10) / 10;
  const span = minutes >= 120 && minutes % 60 === 0 ? `${minutes / 60} hours` : `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return queued
    ? `processing_timeout: no worker picked the job up within ${span}; it was not charged`
    : `processing_timeout: the job did not finish within ${span}; it was not charged`;
}

/**
 * Jobs `running` past `JOB_PROCESSING_DEADLINE_MS`, and jobs still `queued_for_processing` past the much
 * longer `JOB_QUEUE_DEADLINE_MS` (a backlog is not a failure), become `expired` (`processing_timeout: …`). The worker fails a job itself after its last delivery, but if it crashes during
 * that delivery (or the outcome RPC fails) the JetStream message is gone and nobody would ever finish the job
 * nor release its hold. The job-finished event (status `expired`, pages 0) lets billing release the hold and
 * the webhook dispatcher send `extraction.failed`. A worker report arriving afterwards is ignored by
 * JobProgressService (terminal jobs never change). Rows are locked with SKIP LOCKED so replicas share the
 * sweep, and a job whose report is being applied at that moment (row locked) is simply skipped.
 *
 * The clock starts at `started_at` for a running job: the worker's time budget (EXTRACTION_TIMEOUT_MS per
 * delivery × WORKER_MAX_DELIVER) starts at the first pickup, which `started_at` records (JobProgressService
 * keeps the first value across redeliveries), and time spent queued behind other jobs should not eat it. A job
 * still queued has no `started_at`, so its clock starts at `queued_at` (set by confirm-upload, confirm-batch and
 * rerun); `created_at` only as a guard against a row without either. No extra index: the live statuses are a
 * small slice of the table, found through the status prefix of `jobs_status_created_idx`.
 */
@Injectable()
export class ProcessingDeadlineService extends PeriodicSweep {
  constructor(
    private readonly ds: DataSource,
    @Inject(CONFIG) private readonly cfg: ArtifactConfig,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, 'processing deadline');
  }

  start(): void {
    this.every(this.cfg.JOB_DEADLINE_SWEEP_MS);
  }

  async sweep(now = new Date()): Promise<number> {
    const runCutoff = new Date(now.getTime() - this.cfg.JOB_PROCESSING_DEADLINE_MS);
    const queueCutoff = new Date(now.getTime() - this.cfg.JOB_QUEUE_DEADLINE_MS);
    const expired = await this.ds.transaction(async (m) => {
      const jobs: JobEntity[] = await m
        .getRepository(JobEntity)
        .createQueryBuilder('j')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where(
          "(j.status = 'running' AND COALESCE(j.started_at, j.queued_at, j.created_at) < :runCutoff)" +
            " OR (j.status = 'queued_for_processing' AND COALESCE(j.queued_at, j.created_at) < :queueCutoff)",
          { runCutoff, queueCutoff },
        )
        .limit(200)
        .getMany();
      for (const job of jobs) {
        const queued = job.status === 'queued_for_processing';
        const error = processingTimeoutError(queued ? this.cfg.JOB_QUEUE_DEADLINE_MS : this.cfg.JOB_PROCESSING_DEADLINE_MS, queued);
        await m.update(JobEntity, { id: job.id }, { status: 'expired', completedAt: now, error });
        // As a failed outcome does (JobProgressService), with the terminal status of the job.
        await m.update(
          ArtifactEntity,
          { id: job.artifactId, status: In(['uploaded', 'processing']) },
          { status: 'expired', processedAt: now, statusMessage: error, confidence: null, needsReview: false },
        );
        const artifact = await m.findOneByOrFail(ArtifactEntity, { id: job.artifactId });
        await enqueueJobFinished(m, job, artifact, { status: 'expired', error }, now);
      }
      return jobs;
    });
    for (const job of expired)
      this.log.warn({ jobId: job.id, previous: job.status, accountId: job.accountId }, 'job expired: processing deadline passed');
    return expired.length;
  }
}
