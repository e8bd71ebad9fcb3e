import { Injectable } from '@nestjs/common';
import {
  changedFieldKeys,
  correctionProblems,
  Streams,
  type ApproveJobCommand,
  type CorrectJobCommand,
  type JobCorrectedEvent,
  type JobRef,
  type JobStatusResponseDto,
  type ResultVersionsDto,
  type ReviewListQuery,
  type ReviewPageDto,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { enqueueOutbox } from '@docket/messaging';
import { DataSource, type EntityManager } from 'typeorm';
import { ulid } from 'ulid';
import { toJobStatus } from '../artifact.mapper.js';
import { ARTIFACT_SCHEMA } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobResultEntity } from '../entities/job-result.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { queueLearning } from '../memory/memory-learning.js';
import { engineVersion, toResultVersion, toReviewItem } from './review.mapper.js';

/**
 * The review workflow (spec extension): the queue of results that need a person, corrections stored as new result
 * versions (the engine's reading stays version 1), and approval. Every query is scoped to the caller's account;
 * nothing here touches holds or charges — a correction changes no money.
 */
@Injectable()
export class ReviewService {
  constructor(private readonly ds: DataSource) {}

  /** Successful jobs whose result needs review, newest first. */
  async list(q: ReviewListQuery): Promise<ReviewPageDto> {
    const qb = this.ds
      .getRepository(JobEntity)
      .createQueryBuilder('j')
      .innerJoin(ArtifactEntity, 'a', 'a.id = j.artifact_id AND a.account_id = j.account_id')
      .addSelect('a.filename', 'a_filename')
      .where('j.account_id = :accountId AND j.needs_review AND j.status = :status', { accountId: q.accountId, status: 'success' });
    if (q.templateId) qb.andWhere('j.template_id = :templateId', { templateId: q.templateId });
    const total = await qb.getCount();
    const { entities, raw } = await qb
      .orderBy('j.created_at', 'DESC')
      .addOrderBy('j.id', 'DESC')
      .offset((q.page - 1) * q.size)
      .limit(q.size)
      .getRawAndEntities<{ a_filename: string }>();
    const items = entities.map((j, i) => toReviewItem(j, raw[i].a_filename));
    return { items, total, page: q.page, size: q.size, pages: Math.ceil(total / q.size) };
  }

  /** Validates the values against the job's schema, then stores the corrected result as the next version. */
  async correct(cmd: CorrectJobCommand): Promise<JobStatusResponseDto> {
    const keys = Object.keys(cmd.fields);
    if (keys.length === 0) throw new DocketError('invalid_correction', 'fields must name at least one field to correct');
    return this.ds.transaction(async (m) => {
      const job = await this.lockReviewable(m, cmd);
      const problems = correctionProblems(job.schema, cmd.fields, job.accountId);
      if (problems.length) throw new DocketError('invalid_correction', `${problems.length} corrected value(s) refused`, problems);
      const before = job.result ?? {};
      const after = { ...before, ...cmd.fields };
      for (const k of keys) if (cmd.fields[k] === null) delete after[k];
      const changed = changedFieldKeys(before, after);
      const now = new Date();
      if (job.resultVersion === 1) await this.keepEngineVersion(m, job);
      const version = job.resultVersion + 1;
      await m.insert(JobResultEntity, {
        id: `res_${ulid().toLowerCase()}`,
        jobId: job.id,
        artifactId: job.artifactId,
        accountId: job.accountId,
        version,
        source: 'correction',
        apiKeyId: cmd.apiKeyId ?? null,
        result: after,
        changedFields: changed,
        createdAt: now,
      });
      const review = { needsReview: false, reviewedAt: now, reviewedBy: cmd.apiKeyId ?? null };
      await m.update(JobEntity, { id: job.id }, { result: after, resultVersion: version, ...review });
      await this.updateArtifact(m, job, { needsReview: false, latestResult: after });
      const event: JobCorrectedEvent = {
        eventId: `evt_${ulid().toLowerCase()}`,
        jobId: job.id,
        artifactId: job.artifactId,
        accountId: job.accountId,
        version,
        apiKeyId: cmd.apiKeyId ?? null,
        changedFields: changed,
        correctedAt: now.toISOString(),
      };
      await enqueueOutbox(m, ARTIFACT_SCHEMA, Streams.events.jobCorrected, event, event.eventId);
      // A person said what the values are: the layout is learned from them (ADR 0014).
      await queueLearning(m, job, after, 'correction', version);
      return toJobStatus({ ...job, result: after, resultVersion: version, ...review });
    });
  }

  /** Clears `needs_review` without changing the result (idempotent). */
  async approve(cmd: ApproveJobCommand): Promise<JobStatusResponseDto> {
    return this.ds.transaction(async (m) => {
      const job = await this.lockReviewable(m, cmd);
      const review = { needsReview: false, reviewedAt: new Date(), reviewedBy: cmd.apiKeyId ?? null };
      await m.update(JobEntity, { id: job.id }, review);
      await this.updateArtifact(m, job, { needsReview: false });
      await queueLearning(m, job, job.result ?? {}, 'approval', job.resultVersion);
      return toJobStatus({ ...job, ...review });
    });
  }

  /** Every version of the job's result, oldest first, with the engine's per-field provenance. */
  async results(ref: JobRef): Promise<ResultVersionsDto> {
    const job = await this.owned(this.ds.manager, ref);
    if (job.status !== 'success') throw new DocketError('job_not_reviewable', `Job is ${job.status}: only a successful job has results`);
    const rows = await this.ds.getRepository(JobResultEntity).find({
      where: { jobId: job.id, accountId: job.accountId },
      order: { version: 'ASC' },
    });
    const versions = rows.length ? rows.map(toResultVersion) : [engineVersion(job)];
    return {
      job_id: job.id,
      needs_review: job.needsReview,
      reviewed_at: job.reviewedAt ? job.reviewedAt.toISOString() : null,
      reviewed_by: job.reviewedBy,
      fields: (job.fieldsMeta ?? {}) as ResultVersionsDto['fields'],
      versions,
    };
  }

  /** Version 1, the engine's reading, stored once before the first correction replaces `jobs.result`. */
  private async keepEngineVersion(m: EntityManager, job: JobEntity): Promise<void> {
    await m.insert(JobResultEntity, {
      id: `res_${ulid().toLowerCase()}`,
      jobId: job.id,
      artifactId: job.artifactId,
      accountId: job.accountId,
      version: 1,
      source: 'engine',
      apiKeyId: null,
      result: job.result ?? {},
      changedFields: [],
      createdAt: job.completedAt ?? job.createdAt,
    });
  }

  /** The artifact shows the job's review state (and its latest result) when this job is the artifact's latest success. */
  private async updateArtifact(m: EntityManager, job: JobEntity, update: Partial<ArtifactEntity>): Promise<void> {
    const latest = await m.findOne(JobEntity, {
      where: { artifactId: job.artifactId, accountId: job.accountId, status: 'success' },
      order: { completedAt: 'DESC', id: 'DESC' },
      select: { id: true },
    });
    if (latest?.id === job.id) await m.update(ArtifactEntity, { id: job.artifactId, accountId: job.accountId }, update);
  }

  private async lockReviewable(m: EntityManager, ref: JobRef): Promise<JobEntity> {
    const job = await this.owned(m, ref, true);
    if (job.status !== 'success')
      throw new DocketError('job_not_reviewable', `Job is ${job.status}: only a successful job can be reviewed`);
    return job;
  }

  /** Spec §4.4 semantics: 404 unknown job, 403 a job of another account. */
  private async owned(m: EntityManager, ref: JobRef, lock = false): Promise<JobEntity> {
    const qb = m.getRepository(JobEntity).createQueryBuilder('j').where('j.id = :id', { id: ref.jobId });
    if (lock) qb.setLock('pessimistic_write');
    const job = await qb.getOne();
    if (!job) throw new DocketError('job_not_found', 'Job not found');
    if (job.accountId !== ref.accountId) throw new DocketError('forbidden', 'This job belongs to another account');
    return job;
  }
}
