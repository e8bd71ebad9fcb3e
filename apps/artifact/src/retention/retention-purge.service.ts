import { Inject, Injectable } from '@nestjs/common';
import { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { ArtifactConfig } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { PeriodicSweep } from '../sweep/periodic-sweep.js';
import { CONFIG, LOGGER } from '../tokens.js';
import { retentionCutoffs } from './retention.js';

/**
 * Spec §2.8: the raw upload goes once `uploaded_at` + policy has passed (`never`: never). Only the raw
 * object; the record and results stay. `immediate` is purged by JobProgressService when extraction
 * finishes; this sweep retries the ones whose immediate purge failed, and purges those whose job the
 * processing deadline expired (`expired` with `uploaded_at` set; upload-expired artifacts were never
 * uploaded) or that were cancelled after upload (ADR 0008: every policy purges in every terminal state). Artifacts with a job in flight (`uploaded`, `processing`) wait for the next sweep. Rows are
 * locked with SKIP LOCKED so replicas share the work.
 */
@Injectable()
export class RetentionPurgeService extends PeriodicSweep {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
    @Inject(CONFIG) private readonly cfg: ArtifactConfig,
    @Inject(LOGGER) log: Logger,
  ) {
    super(log, 'retention purge');
  }

  start(): void {
    this.every(this.cfg.RETENTION_SWEEP_MS);
  }

  async sweep(now = new Date()): Promise<number> {
    return this.ds.transaction(async (m) => {
      const params: Record<string, unknown> = {
        inFlight: ['uploaded', 'processing'],
        finished: ['completed', 'failed', 'expired', 'cancelled'],
      };
      const due = ["(a.retention_policy = 'immediate' AND a.status IN (:...finished))"];
      retentionCutoffs(now).forEach((c, i) => {
        due.push(`(a.retention_policy = :p${i} AND a.uploaded_at < :c${i})`);
        params[`p${i}`] = c.policy;
        params[`c${i}`] = c.uploadedBefore;
      });
      const artifacts = await m
        .getRepository(ArtifactEntity)
        .createQueryBuilder('a')
        .setLock('pessimistic_write')
        .setOnLocked('skip_locked')
        .where('a.source_purged_at IS NULL AND a.uploaded_at IS NOT NULL AND a.status NOT IN (:...inFlight)')
        .andWhere(`(${due.join(' OR ')})`)
        .setParameters(params)
        .orderBy('a.uploaded_at', 'ASC')
        .limit(200)
        .getMany();
      let purged = 0;
      for (const a of artifacts) {
        try {
          await this.storage.delete(a.storageKey);
        } catch (err) {
          this.log.warn({ err, artifactId: a.id }, 'retention purge of the raw object failed; next sweep retries');
          continue;
        }
        await m.update(ArtifactEntity, { id: a.id }, { sourcePurgedAt: now });
        purged++;
      }
      if (purged) this.log.info({ purged }, 'retention purge: raw uploads deleted');
      return purged;
    });
  }
}
