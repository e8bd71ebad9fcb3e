import {
  AUTO_STANDARD_FIELDS, AUTO_TEMPLATE_ID, DOCUMENT_TYPE_KEY, resultKeys, Subjects, type JobOutcomeCommand, type JobOutcomeReply, type JobRunMessage,
  type JobStartedReply,
} from '@docket/contracts';
import { ExtractionError, extractAuto, syntheticResult, type ExtractionEngine, type ExtractionOutput } from '@docket/extraction';
import type { HandlerOutcome } from '@docket/messaging';
import type { RpcClient } from '@docket/messaging';
import type { S3Storage } from '@docket/storage';
import type { Logger } from 'pino';
import type { WorkerConfig } from '../config.js';

/** The `auto` template's schema per document kind. */
const AUTO_SCHEMAS = {
  invoice: { fields: AUTO_STANDARD_FIELDS.invoice }, receipt: { fields: AUTO_STANDARD_FIELDS.receipt }, form: { fields: AUTO_STANDARD_FIELDS.form },
  table_document: { fields: AUTO_STANDARD_FIELDS.table_document }, other: { fields: AUTO_STANDARD_FIELDS.other },
};

export interface RunContext {
  deliveryCount: number;
  working: () => void;
}

/**
 * One delivery of `jobs.v1.run`: report `running`, read the source, extract, store result JSON and
 * Markdown, report the outcome. Coded extraction failures fail the job; infrastructure failures are
 * retried by redelivery until `max_deliver`, then fail the job so nothing stays `running` forever.
 */
export class RunJobService {
  constructor(
    private readonly engine: ExtractionEngine,
    private readonly storage: S3Storage,
    private readonly rpc: RpcClient,
    private readonly cfg: WorkerConfig,
    private readonly log: Logger,
  ) {}

  async handle(msg: JobRunMessage, ctx: RunContext): Promise<HandlerOutcome> {
    const log = this.log.child({ jobId: msg.jobId, delivery: ctx.deliveryCount });
    const started = await this.rpc.request<JobStartedReply>(Subjects.artifact.jobStarted, { jobId: msg.jobId, attempt: ctx.deliveryCount });
    if (!started.proceed) {
      log.info('job already terminal; skipping');
      return { ack: true };
    }
    const heartbeat = setInterval(ctx.working, Math.max(1000, Math.floor(this.cfg.WORKER_ACK_WAIT_MS / 3)));
    try {
      const output = await this.extract(msg);
      const keys = resultKeys(msg.accountId, msg.artifactId, msg.jobId);
      const document = {
        job_id: msg.jobId, artifact_id: msg.artifactId, template_id: msg.templateId, template_version: msg.templateVersion,
        result: output.result, fields: output.fields, confidence: output.confidence, needs_review: output.needsReview, pages: output.pages,
      };
      await this.storage.put(keys.json, JSON.stringify(document), 'application/json');
      await this.storage.put(keys.markdown, output.markdown, 'text/markdown; charset=utf-8');
      await this.report({
        jobId: msg.jobId, status: 'success', result: output.result, fields: output.fields, resultKey: keys.json, markdownKey: keys.markdown,
        confidence: output.confidence, needsReview: output.needsReview, pages: output.pages,
      });
      log.info({ pages: output.pages, confidence: output.confidence }, 'job succeeded');
      return { ack: true };
    } catch (err) {
      if (err instanceof ExtractionError) {
        await this.report({ jobId: msg.jobId, status: 'failed', pages: 0, error: `${err.code}: ${err.message}` });
        log.info({ code: err.code }, 'job failed');
        return { ack: true };
      }
      if (ctx.deliveryCount >= this.cfg.WORKER_MAX_DELIVER) {
        log.error({ err }, 'job failed after the last delivery');
        await this.report({ jobId: msg.jobId, status: 'failed', pages: 0, error: 'extraction_failed: processing failed repeatedly; see request logs' });
        return { ack: true };
      }
      log.warn({ err }, 'job attempt failed; will be redelivered');
      return { retryInMs: Math.min(30_000, 1000 * 2 ** ctx.deliveryCount) };
    } finally {
      clearInterval(heartbeat);
    }
  }

  private async extract(msg: JobRunMessage): Promise<ExtractionOutput> {
    const auto = msg.templateId === AUTO_TEMPLATE_ID;
    if (msg.sandbox) {
      // Sandbox keys get deterministic synthetic results and never touch the engine (spec §5); `auto` answers as an invoice.
      const result = auto ? { [DOCUMENT_TYPE_KEY]: 'invoice', ...syntheticResult({ fields: AUTO_STANDARD_FIELDS.invoice }) } : syntheticResult(msg.schema);
      const fields = Object.fromEntries(Object.keys(result).map((k) => [k, { confidence: 1, errors: [] }]));
      return { result, fields, confidence: 1, needsReview: false, pages: 1, markdown: `# ${msg.filename}\n\n_Sandbox result: synthetic data._\n` };
    }
    const bytes = await this.storage.getBytes(msg.sourceKey);
    const signal = AbortSignal.timeout(this.cfg.EXTRACTION_TIMEOUT_MS);
    const input = { bytes, mimeType: msg.mimeType, filename: msg.filename };
    const opts = { confidenceThreshold: msg.confidenceThreshold, ocrEngine: msg.ocrEngine, signal };
    // The built-in `auto` template (ADR 0005): the engine classifies the document and extracts that kind's standard fields.
    if (auto) return extractAuto(this.engine, input, AUTO_SCHEMAS, opts, DOCUMENT_TYPE_KEY);
    return this.engine.extract(input, msg.schema, opts);
  }

  private report(cmd: JobOutcomeCommand): Promise<JobOutcomeReply> {
    return this.rpc.request<JobOutcomeReply>(Subjects.artifact.jobOutcome, cmd);
  }
}
