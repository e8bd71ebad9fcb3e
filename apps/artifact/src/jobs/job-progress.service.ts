import { Inject, Injectable } from '@nestjs/common';
import {
  isResultKeyOfJob,
  resultKeys,
  type JobOutcomeCommand,
  type JobOutcomeReply,
  type JobStartedCommand,
  type JobStartedReply,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import { DataSource, type EntityManager } from 'typeorm';
import { isTerminal } from '../artifact.mapper.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { LOGGER } from '../tokens.js';
import { enqueueJobFinished } from './job-finished.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const asJson = (v: object) => v as Record<string, any>;

/**
 * The job's result keys, derived here from account, artifact and job (ARCHITECTURE §4): the worker may only
 * confirm them. A report naming any other object (another account's results) is refused and changes nothing.
 */
function ownResultKeys(job: JobEntity, cmd: JobOutcomeCommand): { json: string; markdown: string } {
  const keys = resultKeys(job.accountId, job.artifactId, job.id);
  if (
    (cmd.resultKey !== undefined && cmd.resultKey !== keys.json) ||
    (cmd.markdownKey !== undefined && cmd.markdownKey !== keys.markdown)
  ) {
    throw new DocketError('forbidden', 'resultKey / markdownKey must be the result keys of this job');
  }
  return keys;
}

/**
 * Applies what the worker reports. The job state machine (spec §3.2) is decided here only:
 * queued → running → terminal; a terminal job never changes, so redelivered reports are no-ops, and so
 * are reports on a cancelled job. A job that no longer exists (artifact deleted) is also a no-op.
 */
@Injectable()
export class JobProgressService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async started(cmd: JobStartedCommand): Promise<JobStartedReply> {
    return this.ds.transaction(async (m) => {
      const job = await this.lockJob(m, cmd.jobId);
      if (!job || isTerminal(job.status)) return { proceed: false };
      if (job.status === 'pending') throw new DocketError('conflict', 'Job was never queued');
      // Attempts are counted here, not from JetStream's delivery count: a delivery that never reached artifact
      // (an outage, naked by the worker) uses none (ADR 0008).
      const attempt = job.attempts + 1;
      await m.update(JobEntity, { id: job.id }, { status: 'running', startedAt: job.startedAt ?? new Date(), attempts: attempt });
      await m.update(ArtifactEntity, { id: job.artifactId }, { status: 'processing' });
      return { proceed: true, attempt };
    });
  }

  async outcome(cmd: JobOutcomeCommand): Promise<JobOutcomeReply> {
    const applied = await this.ds.transaction(async (m) => {
      const job = await this.lockJob(m, cmd.jobId);
      if (!job) return 'gone' as const;
      if (isTerminal(job.status)) return null;
      const keys = ownResultKeys(job, cmd);
      const now = new Date();
      const success = cmd.status === 'success';
      await m.update(
        JobEntity,
        { id: job.id },
        {
          status: cmd.status,
          completedAt: now,
          pages: cmd.pages,
          result: success ? asJson(cmd.result ?? {}) : null,
          fieldsMeta: cmd.fields ? asJson(cmd.fields) : null,
          memory: success && cmd.memory ? asJson(cmd.memory) : null,
          resultKey: success && cmd.resultKey ? keys.json : null,
          markdownKey: success && cmd.markdownKey ? keys.markdown : null,
          confidence: cmd.confidence ?? null,
          needsReview: cmd.needsReview ?? false,
          error: success ? null : (cmd.error ?? 'extraction_failed: unknown error'),
        },
      );
      const artifact = await m.findOneByOrFail(ArtifactEntity, { id: job.artifactId });
      const artifactUpdate: Partial<ArtifactEntity> = {
        status: success ? 'completed' : 'failed',
        processedAt: now,
        statusMessage: success ? null : (cmd.error ?? null),
        confidence: cmd.confidence ?? null,
        needsReview: cmd.needsReview ?? false,
      };
      if (success) artifactUpdate.latestResult = asJson(cmd.result ?? {});
      await m.update(ArtifactEntity, { id: artifact.id }, artifactUpdate);
      await enqueueJobFinished(
        m,
        job,
        artifact,
        {
          status: cmd.status,
          pages: cmd.pages,
          confidence: cmd.confidence ?? null,
          needsReview: cmd.needsReview ?? false,
          error: success ? null : (cmd.error ?? null),
        },
        now,
      );
      return { artifact };
    });
    if (applied === 'gone') {
      await this.dropOrphanResults(cmd);
      return { applied: false };
    }
    if (!applied) return { applied: false };
    if (applied.artifact.retentionPolicy === 'immediate') await this.purgeSource(applied.artifact);
    return { applied: true };
  }

  /** Retention `immediate`: the raw upload goes as soon as extraction completes; record and result stay. */
  private async purgeSource(a: ArtifactEntity): Promise<void> {
    try {
      await this.storage.delete(a.storageKey);
      await this.ds.getRepository(ArtifactEntity).update({ id: a.id }, { sourcePurgedAt: new Date() });
    } catch (err) {
      this.log.warn({ err, artifactId: a.id }, 'immediate purge failed; the retention sweep will retry');
    }
  }

  /**
   * The artifact (and its jobs) was deleted while the worker ran: the worker wrote its result objects
   * before reporting, after the delete had removed the artifact's objects, so remove them here: only keys that
   * name this job (its id is unique, so no other job's objects can), never whatever else the message names.
   */
  private async dropOrphanResults(cmd: JobOutcomeCommand): Promise<void> {
    for (const key of [cmd.resultKey, cmd.markdownKey]) {
      if (!key) continue;
      if (!isResultKeyOfJob(key, cmd.jobId)) {
        this.log.warn({ jobId: cmd.jobId, key }, 'outcome for a deleted job names an object of another job; not deleted');
        continue;
      }
      await this.storage
        .delete(key)
        .catch((err) => this.log.warn({ err, jobId: cmd.jobId, key }, 'could not delete results of a deleted job'));
    }
    this.log.info({ jobId: cmd.jobId }, 'outcome for a deleted job ignored');
  }

  /** Null when the job no longer exists (its artifact was deleted): the worker stops, nothing to apply. */
  private async lockJob(m: EntityManager, jobId: string): Promise<JobEntity | null> {
    return m.getRepository(JobEntity).createQueryBuilder('j').setLock('pessimistic_write').where('j.id = :jobId', { jobId }).getOne();
  }
}
