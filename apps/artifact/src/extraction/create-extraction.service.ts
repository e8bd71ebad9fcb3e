import { Inject, Injectable } from '@nestjs/common';
import {
  findDuplicateKeys, rawKey, Subjects, type CreateExtractionCommand, type ExtractResponseDto, type FieldDefDto,
  type PlaceHoldReply, type RegisterOneShotReply, type TemplateSnapshot,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';
import type { ArtifactConfig } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { CONFIG, LOGGER } from '../tokens.js';

const DEFAULT_CONFIDENCE_THRESHOLD = 0.7;

interface ResolvedSchema {
  fields: FieldDefDto[];
  templateId: string | null;
  templateVersion: number | null;
  confidenceThreshold: number;
}

/**
 * Step 1 of the main flow (spec §1, §4.1): resolve schema and webhook, hold funds, create the
 * artifact (`pending_upload`) and job (`pending`), presign the PUT bound to the Content-Type.
 */
@Injectable()
export class CreateExtractionService {
  constructor(
    private readonly ds: DataSource,
    private readonly rpc: RpcClient,
    private readonly storage: S3Storage,
    @Inject(CONFIG) private readonly cfg: ArtifactConfig,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async create(cmd: CreateExtractionCommand): Promise<ExtractResponseDto> {
    const req = cmd.request;
    const schema = await this.resolveSchema(cmd);
    if (req.webhook_id) await this.rpc.request(Subjects.webhook.verify, { accountId: cmd.accountId, webhookId: req.webhook_id });

    let webhookId = req.webhook_id ?? null;
    let signingSecret: string | null = null;
    if (!webhookId && req.webhook_url) {
      // Registered first: an orphaned one-shot webhook (if anything below fails) is never used.
      const reg = await this.rpc.request<RegisterOneShotReply>(Subjects.webhook.registerOneShot, { accountId: cmd.accountId, url: req.webhook_url });
      webhookId = reg.webhookId;
      signingSecret = reg.secret;
    }

    // Rows before money: if the process dies after the hold, the pending job exists and its expiry
    // releases the hold; a hold with no job could never be released.
    const artifactId = `art_${ulid().toLowerCase()}`;
    const jobId = `job_${ulid().toLowerCase()}`;
    const key = rawKey(cmd.accountId, artifactId, req.filename);
    const ttl = this.cfg.UPLOAD_URL_TTL_SECONDS;
    await this.ds.transaction(async (m) => {
      await m.insert(ArtifactEntity, {
        id: artifactId, accountId: cmd.accountId, filename: req.filename, artifactType: req.artifact_type,
        artifactSize: req.artifact_size, status: 'pending_upload', retentionPolicy: req.retention_policy ?? '30d',
        description: null, tags: [], storageKey: key, latestJobId: jobId,
      });
      await m.insert(JobEntity, {
        id: jobId, artifactId, accountId: cmd.accountId, apiKeyId: cmd.apiKeyId ?? null, status: 'pending', sandbox: cmd.sandbox,
        templateId: schema.templateId, templateVersion: schema.templateVersion, schema: { fields: schema.fields },
        confidenceThreshold: schema.confidenceThreshold, webhookId, batchId: null, holdAmount: 0,
        uploadExpiresAt: new Date(Date.now() + ttl * 1000),
      });
    });

    let hold: PlaceHoldReply;
    try {
      hold = await this.rpc.request<PlaceHoldReply>(Subjects.billing.placeHold, {
        accountId: cmd.accountId, jobId, sandbox: cmd.sandbox, artifactSize: req.artifact_size, mimeType: req.artifact_type,
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
    await this.ds.getRepository(JobEntity).update({ id: jobId }, { holdAmount: hold.amount });
    const uploadUrl = await this.storage.presignPut(key, req.artifact_type, ttl);
    this.log.info({ jobId, artifactId, accountId: cmd.accountId, sandbox: cmd.sandbox }, 'extraction created');
    return { job_id: jobId, artifact_id: artifactId, upload_url: uploadUrl, fields: {}, expires_in: ttl, webhook_signing_secret: signingSecret };
  }

  private async resolveSchema(cmd: CreateExtractionCommand): Promise<ResolvedSchema> {
    const { template_id: templateId, extraction_schema: inline } = cmd.request;
    if (templateId && inline) {
      throw new DocketError('template_and_schema_both_set', 'Send exactly one of template_id or extraction_schema, not both');
    }
    if (inline) {
      const dup = findDuplicateKeys(inline.fields);
      if (dup.length) throw new DocketError('duplicate_field_key', `Duplicate field keys: ${dup.join(', ')}`, { keys: dup });
      return { fields: inline.fields, templateId: null, templateVersion: null, confidenceThreshold: DEFAULT_CONFIDENCE_THRESHOLD };
    }
    if (templateId) {
      const snap = await this.rpc.request<TemplateSnapshot>(Subjects.template.snapshot, { accountId: cmd.accountId, templateId });
      return {
        fields: snap.fields, templateId: snap.template_id, templateVersion: snap.version,
        confidenceThreshold: snap.settings?.confidence_threshold ?? DEFAULT_CONFIDENCE_THRESHOLD,
      };
    }
    throw new DocketError('validation_failed', 'template_id or extraction_schema is required: no default template is configured for this API key', {
      fields: ['template_id', 'extraction_schema'],
    });
  }
}
