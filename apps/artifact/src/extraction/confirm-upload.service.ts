import { Injectable } from '@nestjs/common';
import { Streams, Subjects, type ArtifactRecordDto, type ArtifactRef, type JobRunMessage } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { enqueueOutbox, RpcClient } from '@docket/messaging';
import { S3Storage } from '@docket/storage';
import { DataSource } from 'typeorm';
import { toArtifactRecord } from '../artifact.mapper.js';
import { ARTIFACT_SCHEMA } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';

/** Artifact states where a repeated confirm is a no-op answered 200 (the first confirm took effect). */
const ALREADY_CONFIRMED = new Set(['uploaded', 'processing']);

/**
 * Step 3 (spec §4.2): verify the object, make the job's hold cover its real size (ADR 0005), then in ONE
 * transaction set the artifact `uploaded`, the job `queued_for_processing`, and write the `jobs.v1.run`
 * outbox row. The relay publishes it.
 */
@Injectable()
export class ConfirmUploadService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
    private readonly rpc: RpcClient,
  ) {}

  async confirm(ref: ArtifactRef): Promise<ArtifactRecordDto> {
    const artifact = await this.ds.getRepository(ArtifactEntity).findOneBy({ id: ref.artifactId, accountId: ref.accountId });
    if (!artifact) throw new DocketError('artifact_not_found', 'Artifact not found');
    if (artifact.status !== 'pending_upload') {
      if (ALREADY_CONFIRMED.has(artifact.status)) return this.record(artifact);
      throw new DocketError('artifact_past_uploaded', `Artifact is ${artifact.status}; it can no longer be confirmed`);
    }
    const head = await this.storage.head(artifact.storageKey);
    if (!head) throw new DocketError('upload_missing', 'No uploaded object found for this artifact; PUT the file to upload_url first');

    await this.queueUploaded(artifact, head.size);
    const fresh = await this.ds.getRepository(ArtifactEntity).findOneByOrFail({ id: artifact.id });
    return this.record(fresh);
  }

  /**
   * The uploaded object exists: billing grows the job's hold to the estimate for the object's real size
   * (or holds a batch straggler again); `insufficient_funds` / `wallet_frozen` (402) leave the artifact
   * `pending_upload` and the job `pending`, so the client may top up and confirm again. Then, in ONE transaction move the artifact `pending_upload` → `uploaded`, its job
   * `pending` → `queued_for_processing`, and write the `jobs.v1.run` outbox row. False when a concurrent
   * confirm already did it (guarded by the status), so nothing is queued twice. Used by confirm-batch too.
   */
  async queueUploaded(artifact: ArtifactEntity, size: number): Promise<boolean> {
    await this.rpc.request(Subjects.billing.coverHold, {
      accountId: artifact.accountId,
      jobId: artifact.latestJobId,
      artifactSize: Math.max(1, size),
    });
    return this.ds.transaction(async (m) => {
      const moved = await m
        .createQueryBuilder()
        .update(ArtifactEntity)
        .set({ status: 'uploaded', uploadedAt: () => 'now()', artifactSize: size })
        .where('id = :id AND status = :from', { id: artifact.id, from: 'pending_upload' })
        .execute();
      if (!moved.affected) return false; // a concurrent confirm won; nothing to queue twice
      const job = await m.findOneByOrFail(JobEntity, { id: artifact.latestJobId!, status: 'pending' });
      await m.update(JobEntity, { id: job.id }, { status: 'queued_for_processing', queuedAt: () => 'now()' });
      const run: JobRunMessage = {
        jobId: job.id,
        artifactId: artifact.id,
        accountId: artifact.accountId,
        sandbox: job.sandbox,
        sourceKey: artifact.storageKey,
        mimeType: artifact.artifactType,
        filename: artifact.filename,
        schema: job.schema,
        templateId: job.templateId,
        templateVersion: job.templateVersion,
        confidenceThreshold: job.confidenceThreshold,
        ocrEngine: job.ocrEngine,
        defaultCurrency: job.defaultCurrency,
      };
      await enqueueOutbox(m, ARTIFACT_SCHEMA, Streams.jobs.run, run, `run_${job.id}`);
      return true;
    });
  }

  private async record(a: ArtifactEntity): Promise<ArtifactRecordDto> {
    const jobs = await this.ds.getRepository(JobEntity).find({ where: { artifactId: a.id }, order: { createdAt: 'ASC' } });
    return toArtifactRecord(a, jobs);
  }
}
