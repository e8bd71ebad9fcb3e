import { Inject, Injectable } from '@nestjs/common';
import { rawKey, Subjects, type CreateExtractionCommand, type ExtractResponseDto, type PlaceHoldReply } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';
import type { ArtifactConfig } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import type { PipelineEntity } from '../entities/pipeline.entity.js';
import { PipelineService } from '../pipelines/pipeline.service.js';
import { CONFIG, LOGGER } from '../tokens.js';
import { SubmissionDefaultsService } from './submission-defaults.service.js';

/**
 * Step 1 of the main flow (spec §1, §4.1): resolve schema and webhook (request, else the pipeline's
 * defaults), hold funds, create the artifact (`pending_upload`) and job (`pending`), presign the PUT
 * bound to the Content-Type. `POST /extract` runs under the account's default pipeline,
 * `POST /pipeline_async` under the named one.
 */
@Injectable()
export class CreateExtractionService {
  constructor(
    private readonly ds: DataSource,
    private readonly rpc: RpcClient,
    private readonly storage: S3Storage,
    private readonly defaults: SubmissionDefaultsService,
    private readonly pipelines: PipelineService,
    @Inject(CONFIG) private readonly cfg: ArtifactConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async create(cmd: CreateExtractionCommand, under?: PipelineEntity): Promise<ExtractResponseDto> {
    const req = cmd.request;
    const pipeline = under ?? (await this.pipelines.ensureDefault(cmd.accountId));
    const schema = await this.defaults.schema(cmd.accountId, req, pipeline);
    const { webhookId, signingSecret } = await this.defaults.webhook(cmd.accountId, req, pipeline);

    // Rows before money: if the process dies after the hold, the pending job exists and its expiry
    // releases the hold; a hold with no job could never be released.
    const artifactId = `art_${ulid().toLowerCase()}`;
    const jobId = `job_${ulid().toLowerCase()}`;
    const key = rawKey(cmd.accountId, artifactId, req.filename);
    const ttl = this.cfg.UPLOAD_URL_TTL_SECONDS;
    await this.ds.transaction(async (m) => {
      await m.insert(ArtifactEntity, {
        id: artifactId,
        accountId: cmd.accountId,
        filename: req.filename,
        artifactType: req.artifact_type,
        artifactSize: req.artifact_size,
        status: 'pending_upload',
        retentionPolicy: req.retention_policy ?? '30d',
        description: null,
        tags: [],
        storageKey: key,
        latestJobId: jobId,
      });
      await m.insert(JobEntity, {
        id: jobId,
        artifactId,
        accountId: cmd.accountId,
        apiKeyId: cmd.apiKeyId ?? null,
        status: 'pending',
        sandbox: cmd.sandbox,
        templateId: schema.templateId,
        templateVersion: schema.templateVersion,
        schema: { fields: schema.fields },
        confidenceThreshold: schema.confidenceThreshold,
        ocrEngine: schema.ocrEngine,
        defaultCurrency: schema.defaultCurrency,
        partialPages: schema.partialPages,
        webhookId,
        batchId: null,
        holdAmount: 0,
        uploadExpiresAt: new Date(Date.now() + ttl * 1000),
      });
    });

    let hold: PlaceHoldReply;
    try {
      hold = await this.rpc.request<PlaceHoldReply>(Subjects.billing.placeHold, {
        accountId: cmd.accountId,
        jobId,
        sandbox: cmd.sandbox,
        artifactSize: req.artifact_size,
        mimeType: req.artifact_type,
      });
    } catch (err) {
      // Refused (402) or unreachable: nothing of this submission may remain.
      await this.ds.transaction(async (m) => {
        await m.delete(JobEntity, { id: jobId });
        await m.delete(ArtifactEntity, { id: artifactId });
      });
      if (!(err instanceof DocketError) || err.status >= 500) {
        // The hold may have been placed before the reply was lost: release it (idempotent, no-op if absent).
        await this.rpc
          .request(Subjects.billing.releaseHold, { accountId: cmd.accountId, jobId, reason: 'aborted' })
          .catch((releaseErr) => this.log.error({ err: releaseErr, jobId }, 'could not release the hold of an aborted submission'));
      }
      throw err;
    }
    await this.ds.transaction(async (m) => {
      await m.update(JobEntity, { id: jobId }, { holdAmount: hold.amount });
      await this.pipelines.countExecutions(m, pipeline.id, 1);
    });
    const uploadUrl = await this.storage.presignPut(key, req.artifact_type, req.artifact_size, ttl);
    this.log.info({ jobId, artifactId, accountId: cmd.accountId, sandbox: cmd.sandbox, pipelineId: pipeline.id }, 'extraction created');
    return {
      job_id: jobId,
      artifact_id: artifactId,
      upload_url: uploadUrl,
      fields: {},
      expires_in: ttl,
      webhook_signing_secret: signingSecret,
    };
  }
}
