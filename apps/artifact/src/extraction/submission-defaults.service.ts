import { Injectable } from '@nestjs/common';
import {
  AUTO_TEMPLATE_ID,
  AUTO_TEMPLATE_SCHEMA,
  AUTO_TEMPLATE_VERSION,
  findDuplicateKeys,
  Subjects,
  type ExtractionSchemaDto,
  type FieldDefDto,
  type RegisterOneShotReply,
  type TemplateSnapshot,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import type { PipelineEntity } from '../entities/pipeline.entity.js';

const DEFAULT_CONFIDENCE_THRESHOLD = 0.7;
const DEFAULT_OCR_ENGINE = 'default';

export interface ResolvedSchema {
  fields: FieldDefDto[];
  templateId: string | null;
  templateVersion: number | null;
  confidenceThreshold: number;
  /** Template setting `ocr_engine`; `default` for inline schemas. */
  ocrEngine: string;
  /** Template setting `default_currency`; null for inline schemas and templates without it. */
  defaultCurrency: string | null;
  /** Template setting `partial_pages`; false for inline schemas and `auto`. */
  partialPages: boolean;
}

export interface ResolvedWebhook {
  webhookId: string | null;
  /** Set only for a one-shot `webhook_url` (returned once). */
  signingSecret: string | null;
}

interface SubmissionOptions {
  template_id?: string;
  extraction_schema?: ExtractionSchemaDto;
  webhook_id?: string;
  webhook_url?: string;
}

/**
 * Spec §4.1 rules 1–3 for every kind of submission (extract, batch, pipeline_async, direct upload):
 * schema = request template | inline schema | the pipeline's default template; webhook = request
 * webhook_id → request webhook_url → the pipeline's default webhook. The account's default pipeline starts with the
 * built-in `auto` template (ADR 0005); its defaults are set with `PATCH /pipelines/{id}` or the admin CLI's `set-defaults`.
 */
@Injectable()
export class SubmissionDefaultsService {
  constructor(private readonly rpc: RpcClient) {}

  async schema(accountId: string, req: SubmissionOptions, pipeline: PipelineEntity): Promise<ResolvedSchema> {
    const { template_id: templateId, extraction_schema: inline } = req;
    if (templateId && inline) {
      throw new DocketError('template_and_schema_both_set', 'Send exactly one of template_id or extraction_schema, not both');
    }
    if (inline) {
      const dup = findDuplicateKeys(inline.fields);
      if (dup.length) throw new DocketError('duplicate_field_key', `Duplicate field keys: ${dup.join(', ')}`, { keys: dup });
      return {
        fields: inline.fields,
        templateId: null,
        templateVersion: null,
        confidenceThreshold: DEFAULT_CONFIDENCE_THRESHOLD,
        ocrEngine: DEFAULT_OCR_ENGINE,
        defaultCurrency: null,
        partialPages: false,
      };
    }
    const effective = templateId ?? pipeline.templateId;
    if (effective === AUTO_TEMPLATE_ID) {
      // Built in (ADR 0005): not stored in the template service; the worker classifies and picks the kind's fields.
      return {
        fields: AUTO_TEMPLATE_SCHEMA.fields,
        templateId: AUTO_TEMPLATE_ID,
        templateVersion: AUTO_TEMPLATE_VERSION,
        confidenceThreshold: DEFAULT_CONFIDENCE_THRESHOLD,
        ocrEngine: DEFAULT_OCR_ENGINE,
        defaultCurrency: null,
        partialPages: false,
      };
    }
    if (effective) {
      const snap = await this.rpc.request<TemplateSnapshot>(Subjects.template.snapshot, { accountId, templateId: effective });
      return {
        fields: snap.fields,
        templateId: snap.template_id,
        templateVersion: snap.version,
        confidenceThreshold: snap.settings?.confidence_threshold ?? DEFAULT_CONFIDENCE_THRESHOLD,
        ocrEngine: snap.settings?.ocr_engine ?? DEFAULT_OCR_ENGINE,
        partialPages: snap.settings?.partial_pages === true,
        defaultCurrency: snap.settings?.default_currency ?? null,
      };
    }
    throw new DocketError(
      'no_default_template',
      'template_id or extraction_schema is required: no default template is configured on the pipeline',
      {
        fields: ['template_id', 'extraction_schema'],
        reason: 'no_default_template',
        pipeline_id: pipeline.id,
      },
    );
  }

  async webhook(accountId: string, req: SubmissionOptions, pipeline: PipelineEntity): Promise<ResolvedWebhook> {
    if (req.webhook_id) {
      await this.rpc.request(Subjects.webhook.verify, { accountId, webhookId: req.webhook_id });
      return { webhookId: req.webhook_id, signingSecret: null };
    }
    if (req.webhook_url) {
      // Registered first: an orphaned one-shot webhook (if anything later fails) is never used.
      const reg = await this.rpc.request<RegisterOneShotReply>(Subjects.webhook.registerOneShot, { accountId, url: req.webhook_url });
      return { webhookId: reg.webhookId, signingSecret: reg.secret };
    }
    return { webhookId: pipeline.webhookId, signingSecret: null };
  }
}
