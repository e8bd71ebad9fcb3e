import { Inject, Injectable } from '@nestjs/common';
import { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { ArtifactConfig } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { enqueueJobFinished } from '../jobs/job-finished.js';
import { PeriodicSweep } from '../sweep/periodic-sweep.js';
import { CONFIG, LOGGER } from '../tokens.js';

/**
 * Pending jobs whose upload URL expired become `expired` (`upload_expired: …`); the job-finished
 * event lets billing release the hold. Rows are locked with SKIP LOCKED so replicas share the sweep.
 * After the commit, an object PUT but never confirmed is deleted from storage (best effort: a failed
 * delete is logged, not retried).
 */
@Injectable()
export class UploadExpiryService extends PeriodicSweep {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
    @Inject(CONFIG) private readonly cfg: ArtifactConfig,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, 'upload expiry');
  }

  start(): void {
    this.every(this.cfg.UPLOAD_EXPIRY_SWEEP_MS);
  }

  async sweep(now = new Date()): Promise<number> {
    const { expired, keys } = await this.expire(now);
    for (const key of keys) {
      await this.storage.delete(key).catch((err) => this.log.warn({ err, key }, 'could not delete an unconfirmed upload'));
    }
    return expired;
  }

  /** Expires the overdue pending jobs in one transaction; returns how many, and the storage keys of their never-uploaded artifacts. */
  private async expire(now: Date): Promise<{ expired: number; keys: string[] }> {
    return this.ds.transaction(async (m) => {
      const jobs: JobEntity[] = await m
        .getRepository(JobEntity)
        .createQueryBuilder('j')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where('j.status = :s AND j.upload_expires_at < :now', { s: 'pending', now })
        .limit(200)
        .getMany();
      const keys: string[] = [];
      for (const job of jobs) {
        const error = 'upload_expired: the upload URL expired before confirm-upload was called';
        await m.update(JobEntity, { id: job.id }, { status: 'expired', completedAt: now, error });
        await m.update(ArtifactEntity, { id: job.artifactId, status: 'pending_upload' }, { status: 'expired', statusMessage: error });
        const artifact = await m.findOneByOrFail(ArtifactEntity, { id: job.artifactId });
        await enqueueJobFinished(m, job, artifact, { status: 'expired', error }, now);
        if (artifact.status === 'expired' && !artifact.uploadedAt) keys.push(artifact.storageKey);
      }
      return { expired: jobs.length, keys };
    });
  }
}
