import { Inject, Injectable } from '@nestjs/common';
import {
  Streams,
  Subjects,
  type JobRunMessage,
  type PlaceHoldReply,
  type RerunArtifactCommand,
  type RerunResponseDto,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { enqueueOutbox, RpcClient } from '@docket/messaging';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';
import { isTerminal } from '../artifact.mapper.js';
import { ARTIFACT_SCHEMA } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { LOGGER } from '../tokens.js';
import { findOwned } from './artifact-access.js';
import { lockLatestJob } from './job-cancel.js';

/**
 * `POST /artifacts/{id}/rerun` (spec §3.1): from a terminal state only, source not purged. A new job
 * (fresh id, same schema snapshot, template and webhook as the latest job) with its own billing hold,
 * queued at once through the outbox like confirm-upload. Earlier jobs are kept.
 */
@Injectable()
export class RerunService {
  constructor(
    private readonly ds: DataSource,
    private readonly rpc: RpcClient,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async rerun(cmd: RerunArtifactCommand): Promise<RerunResponseDto> {
    const artifact = await findOwned(this.ds.manager, cmd);
    this.checkRerunnable(
      artifact,
      artifact.latestJobId ? await this.ds.getRepository(JobEntity).findOneBy({ id: artifact.latestJobId }) : null,
    );

    const jobId = `job_${ulid().toLowerCase()}`;
    // Before the transaction, like POST /extract: 402 (frozen, insufficient funds) passes through untouched.
    const hold = await this.rpc.request<PlaceHoldReply>(Subjects.billing.placeHold, {
      accountId: cmd.accountId,
      jobId,
      sandbox: cmd.sandbox,
      artifactSize: Math.max(1, artifact.artifactSize),
      mimeType: artifact.artifactType,
    });
    try {
      await this.ds.transaction(async (m) => {
        const a = await findOwned(m, cmd, true);
        const previous = await lockLatestJob(m, a);
        this.checkRerunnable(a, previous);
        const job = previous!;
        const now = new Date();
        await m.insert(JobEntity, {
          id: jobId,
          artifactId: a.id,
          accountId: a.accountId,
          apiKeyId: cmd.apiKeyId ?? null,
          status: 'queued_for_processing',
          sandbox: cmd.sandbox,
          templateId: job.templateId,
          templateVersion: job.templateVersion,
          schema: job.schema,
          confidenceThreshold: job.confidenceThreshold,
          ocrEngine: job.ocrEngine,
          defaultCurrency: job.defaultCurrency,
          partialPages: job.partialPages,
          webhookId: job.webhookId,
          batchId: null,
          holdAmount: hold.amount,
          uploadExpiresAt: now,
          queuedAt: now,
        });
        await m.update(ArtifactEntity, { id: a.id }, { status: 'uploaded', latestJobId: jobId, processedAt: null, statusMessage: null });
        const run: JobRunMessage = {
          jobId,
          artifactId: a.id,
          accountId: a.accountId,
          sandbox: cmd.sandbox,
          sourceKey: a.storageKey,
          mimeType: a.artifactType,
          filename: a.filename,
          schema: job.schema,
          templateId: job.templateId,
          templateVersion: job.templateVersion,
          confidenceThreshold: job.confidenceThreshold,
          ocrEngine: job.ocrEngine,
          defaultCurrency: job.defaultCurrency,
        };
        await enqueueOutbox(m, ARTIFACT_SCHEMA, Streams.jobs.run, run, `run_${jobId}`);
      });
    } catch (err) {
      await this.rpc
        .request(Subjects.billing.releaseHold, { accountId: cmd.accountId, jobId, reason: 'aborted' })
        .catch((releaseErr) => this.log.error({ err: releaseErr, jobId }, 'could not release hold of an aborted rerun'));
      throw err;
    }
    this.log.info({ jobId, artifactId: artifact.id, accountId: cmd.accountId, sandbox: cmd.sandbox }, 'rerun queued');
    return { job_id: jobId, artifact_id: artifact.id, status: 'queued_for_processing' };
  }

  /** Purged source → 400 `source_purged`; never uploaded or a job still in flight → 409 `conflict`. */
  private checkRerunnable(a: ArtifactEntity, latest: JobEntity | null): asserts latest is JobEntity {
    if (a.sourcePurgedAt) throw new DocketError('source_purged', 'The source file was purged by the retention policy; it cannot be rerun');
    if (!a.uploadedAt) throw new DocketError('conflict', 'The source file was never uploaded; there is nothing to rerun');
    if (!latest) throw new DocketError('conflict', 'The artifact has no job to take the schema from');
    if (!isTerminal(latest.status))
      throw new DocketError('conflict', `A job is still ${latest.status}; rerun once it is terminal or cancel it`, { job_id: latest.id });
  }
}
