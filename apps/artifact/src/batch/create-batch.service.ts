import { Inject, Injectable } from '@nestjs/common';
import {
  BATCH_MAX_FILES,
  rawKey,
  Subjects,
  type BatchSubmitResponseDto,
  type CreateBatchCommand,
  type PlaceBatchHoldReply,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';
import type { ArtifactConfig } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { BatchEntity } from '../entities/batch.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { SubmissionDefaultsService } from '../extraction/submission-defaults.service.js';
import { PipelineService } from '../pipelines/pipeline.service.js';
import { CONFIG, LOGGER } from '../tokens.js';

/** Filenames that appear more than once (exact match). */
export function duplicateFilenames(names: string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return [...dup];
}

/**
 * `POST /batch` and `POST /artifacts/request-batch-upload` (spec §4.3): one batch row, one artifact
 * (`pending_upload`) and one job (`pending`, `batch_id`) per file, then ONE all-or-nothing hold for the
 * whole batch (`billing.v1.hold.place-batch`). Refused (402) → every row of the batch is removed, so no
 * partial batch exists. Rows before money, as for `/extract`: a crash after the hold leaves pending jobs
 * whose upload expiry releases their holds.
 */
@Injectable()
export class CreateBatchService {
  constructor(
    private readonly ds: DataSource,
    private readonly rpc: RpcClient,
    private readonly storage: S3Storage,
    private readonly defaults: SubmissionDefaultsService,
    private readonly pipelines: PipelineService,
    @Inject(CONFIG) private readonly cfg: ArtifactConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async create(cmd: CreateBatchCommand): Promise<BatchSubmitResponseDto> {
    const req = cmd.request;
    if (req.files.length < 1 || req.files.length > BATCH_MAX_FILES) {
      throw new DocketError('validation_failed', `A batch has 1 to ${BATCH_MAX_FILES} files`, { files: req.files.length });
    }
    const dup = duplicateFilenames(req.files.map((f) => f.filename));
    if (dup.length)
      throw new DocketError('duplicate_filename', `Filenames must be unique within the batch: ${dup.join(', ')}`, {
        duplicate_filenames: dup,
      });
    const pipeline = await this.pipelines.ensureDefault(cmd.accountId);
    const schema = await this.defaults.schema(cmd.accountId, req, pipeline);
    const { webhookId, signingSecret } = await this.defaults.webhook(cmd.accountId, req, pipeline);

    const ttl = this.cfg.UPLOAD_URL_TTL_SECONDS;
    const expiresAt = new Date(Date.now() + ttl * 1000);
    const batchId = `bat_${ulid().toLowerCase()}`;
    const files = req.files.map((f) => {
      const artifactId = `art_${ulid().toLowerCase()}`;
      return { f, artifactId, jobId: `job_${ulid().toLowerCase()}`, key: rawKey(cmd.accountId, artifactId, f.filename) };
    });
    await this.ds.transaction(async (m) => {
      await m.insert(BatchEntity, { id: batchId, accountId: cmd.accountId, total: files.length, uploadExpiresAt: expiresAt });
      await m.insert(
        ArtifactEntity,
        files.map(({ f, artifactId, jobId, key }) => ({
          id: artifactId,
          accountId: cmd.accountId,
          filename: f.filename,
          artifactType: f.artifact_type,
          artifactSize: f.artifact_size,
          status: 'pending_upload' as const,
          retentionPolicy: f.retention_policy ?? '30d',
          description: null,
          tags: [],
          storageKey: key,
          latestJobId: jobId,
        })),
      );
      await m.insert(
        JobEntity,
        files.map(({ artifactId, jobId }) => ({
          id: jobId,
          artifactId,
          accountId: cmd.accountId,
          apiKeyId: cmd.apiKeyId ?? null,
          status: 'pending' as const,
          sandbox: cmd.sandbox,
          templateId: schema.templateId,
          templateVersion: schema.templateVersion,
          schema: { fields: schema.fields },
          confidenceThreshold: schema.confidenceThreshold,
          ocrEngine: schema.ocrEngine,
          defaultCurrency: schema.defaultCurrency,
          partialPages: schema.partialPages,
          webhookId,
          batchId,
          holdAmount: 0,
          uploadExpiresAt: expiresAt,
        })),
      );
    });

    let hold: PlaceBatchHoldReply;
    try {
      hold = await this.rpc.request<PlaceBatchHoldReply>(Subjects.billing.placeBatchHold, {
        accountId: cmd.accountId,
        sandbox: cmd.sandbox,
        items: files.map(({ f, jobId }) => ({ jobId, artifactSize: f.artifact_size, mimeType: f.artifact_type })),
      });
    } catch (err) {
      await this.remove(batchId, files);
      if (!(err instanceof DocketError) || err.status >= 500)
        await this.releaseAll(
          cmd.accountId,
          files.map((x) => x.jobId),
        );
      throw err;
    }
    const amounts = new Map(hold.holds.map((h) => [h.jobId, h.amount]));
    await this.ds.transaction(async (m) => {
      for (const { jobId } of files) await m.update(JobEntity, { id: jobId }, { holdAmount: amounts.get(jobId) ?? 0 });
      await this.pipelines.countExecutions(m, pipeline.id, files.length);
    });
    const out = await Promise.all(
      files.map(async ({ f, artifactId, jobId, key }) => ({
        filename: f.filename,
        job_id: jobId,
        artifact_id: artifactId,
        upload_url: await this.storage.presignPut(key, f.artifact_type, f.artifact_size, ttl),
        fields: {},
      })),
    );
    this.log.info({ batchId, accountId: cmd.accountId, files: files.length, held: hold.total, sandbox: cmd.sandbox }, 'batch created');
    return { batch_id: batchId, total: files.length, files: out, webhook_signing_secret: signingSecret };
  }

  private async remove(batchId: string, files: { artifactId: string; jobId: string }[]): Promise<void> {
    await this.ds.transaction(async (m) => {
      await m.delete(JobEntity, { batchId });
      for (const { artifactId } of files) await m.delete(ArtifactEntity, { id: artifactId });
      await m.delete(BatchEntity, { id: batchId });
    });
  }

  /** The batch hold may have been placed before its reply was lost: release each job's hold (idempotent). */
  private async releaseAll(accountId: string, jobIds: string[]): Promise<void> {
    for (const jobId of jobIds) {
      await this.rpc
        .request(Subjects.billing.releaseHold, { accountId, jobId, reason: 'aborted' })
        .catch((err) => this.log.error({ err, jobId }, 'could not release the hold of an aborted batch'));
    }
  }
}
