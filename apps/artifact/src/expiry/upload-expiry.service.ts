import { Inject, Injectable } from '@nestjs/common';
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
 */
@Injectable()
export class UploadExpiryService extends PeriodicSweep {
  constructor(private readonly ds: DataSource, @Inject(CONFIG) private readonly cfg: ArtifactConfig, @Inject(LOGGER) log: Logger) {
    super(log, 'upload expiry');
  }

  start(): void {
    this.every(this.cfg.UPLOAD_EXPIRY_SWEEP_MS);
  }

  async sweep(now = new Date()): Promise<number> {
    return this.ds.transaction(async (m) => {
      const jobs: JobEntity[] = await m
        .getRepository(JobEntity)
        .createQueryBuilder('j')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where('j.status = :s AND j.upload_expires_at < :now', { s: 'pending', now })
        .limit(200)
        .getMany();
      for (const job of jobs) {
        const error = 'upload_expired: the upload URL expired before confirm-upload was called';
        await m.update(JobEntity, { id: job.id }, { status: 'expired', completedAt: now, error });
        await m.update(ArtifactEntity, { id: job.artifactId, status: 'pending_upload' }, { status: 'expired', statusMessage: error });
        const artifact = await m.findOneByOrFail(ArtifactEntity, { id: job.artifactId });
        await enqueueJobFinished(m, job, artifact, { status: 'expired', error }, now);
      }
      return jobs.length;
    });
  }

}
