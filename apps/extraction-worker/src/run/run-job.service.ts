import {
  AUTO_STANDARD_FIELDS,
  AUTO_TEMPLATE_ID,
  DOCUMENT_TYPE_KEY,
  RESULT_CONTENT_TYPES,
  resultKeys,
  Subjects,
  type JobExemplarsReply,
  type JobOutcomeCommand,
  type JobOutcomeReply,
  type JobPagesReply,
  type JobRunMessage,
  type JobStartedReply,
  type JobStorageReply,
} from '@docket/contracts';
import {
  DEFAULT_MAX_INPUT_BYTES,
  ExtractionError,
  extractAuto,
  sniffType,
  syntheticResult,
  type ExtractionEngine,
  type ExtractionOutput,
  type LayoutExemplar,
} from '@docket/extraction';
import { extractionSecondsPerPage, type HandlerOutcome } from '@docket/messaging';
import type { RpcClient } from '@docket/messaging';
import { getPresigned, headPresigned, putPresigned } from '@docket/storage';
import type { Logger } from 'pino';
import type { WorkerConfig } from '../config.js';

/** The `auto` template's schema per document kind. */
const AUTO_SCHEMAS = {
  invoice: { fields: AUTO_STANDARD_FIELDS.invoice },
  receipt: { fields: AUTO_STANDARD_FIELDS.receipt },
  form: { fields: AUTO_STANDARD_FIELDS.form },
  table_document: { fields: AUTO_STANDARD_FIELDS.table_document },
  other: { fields: AUTO_STANDARD_FIELDS.other },
};

/** One job's reading: the engine's output and the document's page count (more than `output.pages` when partial). */
interface Reading {
  output: ExtractionOutput;
  pageCount: number;
}

export interface RunContext {
  deliveryCount: number;
  working: () => void;
}

/** First delay before an infrastructure failure is retried; doubled per delivery up to WORKER_RETRY_MAX_MS. */
const FIRST_RETRY_MS = 1000;
/** Tries of the outcome report (artifact briefly unreachable) before the delivery is naked, with doubling waits from 1 s. */
const REPORT_TRIES = 5;

/** Counters of the worker's fault handling, logged with each event (the worker has no metrics endpoint). */
export interface FaultCounters {
  infraRetries: number;
  attemptsExhausted: number;
  sourceRefused: number;
}

/** One job's storage access from artifact: presigned URLs for its own objects only (the worker holds no credentials). */
type JobStorage = Required<Omit<JobStorageReply, 'proceed'>>;

/**
 * One delivery of `jobs.v1.run` (ADR 0008): ask artifact for the job's presigned storage URLs, check the source's
 * size (HEAD, before any download), report
 * `running` (artifact counts the attempt), count the pages and have artifact re-size the hold to them (ADR 0005; it
 * may fail the job `insufficient_funds` or cover only the first pages), extract, store result JSON and Markdown,
 * report the outcome.
 *
 * - A coded extraction failure (ExtractionError) fails the job at once.
 * - An infrastructure failure before artifact counted the attempt (artifact or storage unreachable) is naked
 *   with exponential backoff and uses no attempt; the JOBS consumer has no `max_deliver`, so an outage of any
 *   length leaves the job queued, never dropped.
 * - Any other failure after the attempt was counted (a crash, storage failing mid-job) is naked too; once
 *   artifact reports more than WORKER_MAX_DELIVER attempts, the job fails with `processing_error` through the
 *   normal outcome path (artifact applies it, billing releases the hold from the job-finished event).
 */
export class RunJobService {
  readonly counters: FaultCounters = { infraRetries: 0, attemptsExhausted: 0, sourceRefused: 0 };
  private readonly maxBytes: number;

  constructor(
    private readonly engine: ExtractionEngine,
    private readonly rpc: RpcClient,
    private readonly cfg: WorkerConfig,
    private readonly log: Logger,
    maxBytes = DEFAULT_MAX_INPUT_BYTES,
  ) {
    this.maxBytes = maxBytes;
  }

  async handle(msg: JobRunMessage, ctx: RunContext): Promise<HandlerOutcome> {
    const log = this.log.child({ jobId: msg.jobId, delivery: ctx.deliveryCount });
    let attempt: number;
    let storage: JobStorage;
    try {
      const access = await this.rpc.request<JobStorageReply>(Subjects.artifact.jobStorage, { jobId: msg.jobId });
      if (!access.proceed) {
        log.info('job already terminal; skipping');
        return { ack: true };
      }
      storage = access as JobStorage;
      const refused = msg.sandbox ? undefined : await this.refuseSource(storage);
      if (refused) {
        this.counters.sourceRefused++;
        await this.report({ jobId: msg.jobId, status: 'failed', pages: 0, error: `${refused.code}: ${refused.message}` });
        log.info({ code: refused.code, sourceRefused: this.counters.sourceRefused }, 'job failed: source refused before download');
        return { ack: true };
      }
      const started = await this.rpc.request<JobStartedReply>(Subjects.artifact.jobStarted, {
        jobId: msg.jobId,
        attempt: ctx.deliveryCount,
      });
      if (!started.proceed) {
        log.info('job already terminal; skipping');
        return { ack: true };
      }
      attempt = started.attempt ?? ctx.deliveryCount;
    } catch (err) {
      return this.retryLater(log, err, ctx, 'infrastructure unavailable before the attempt; retrying without using an attempt');
    }
    if (attempt > this.cfg.WORKER_MAX_DELIVER) return this.failExhausted(msg, attempt, log);

    const heartbeat = setInterval(ctx.working, Math.max(1000, Math.floor(this.cfg.WORKER_ACK_WAIT_MS / 3)));
    try {
      const reading = await this.extract(msg, storage);
      if (!reading) {
        log.info({ attempt }, 'job stopped before reading: artifact failed it (the wallet cannot cover its pages) or it is terminal');
        return { ack: true };
      }
      await this.storeAndReport(msg, storage, reading);
      log.info(
        { pages: reading.output.pages, pageCount: reading.pageCount, confidence: reading.output.confidence, attempt },
        'job succeeded',
      );
      return { ack: true };
    } catch (err) {
      if (err instanceof ExtractionError) {
        await this.reportPatiently({ jobId: msg.jobId, status: 'failed', pages: 0, error: `${err.code}: ${err.message}` });
        log.info({ code: err.code, attempt }, 'job failed');
        return { ack: true };
      }
      return this.retryLater(log.child({ attempt }), err, ctx, 'job attempt interrupted; will be retried');
    } finally {
      clearInterval(heartbeat);
    }
  }

  /** Result JSON and Markdown to storage, then the success report; a partial reading says so in both. */
  private async storeAndReport(msg: JobRunMessage, storage: JobStorage, { output, pageCount }: Reading): Promise<void> {
    const keys = resultKeys(msg.accountId, msg.artifactId, msg.jobId);
    const document = {
      job_id: msg.jobId,
      artifact_id: msg.artifactId,
      template_id: msg.templateId,
      template_version: msg.templateVersion,
      result: output.result,
      fields: output.fields,
      confidence: output.confidence,
      needs_review: output.needsReview,
      pages: output.pages,
      page_count: pageCount,
      ...(output.memory ? { memory: output.memory } : {}),
    };
    const partial =
      output.pages < pageCount
        ? `\n\n_Partial reading: pages 1–${output.pages} of ${pageCount} were read (the wallet covered ${output.pages})._\n`
        : '';
    await putPresigned(storage.resultPutUrl, JSON.stringify(document), RESULT_CONTENT_TYPES.json);
    await putPresigned(storage.markdownPutUrl, output.markdown + partial, RESULT_CONTENT_TYPES.markdown);
    await this.reportPatiently({
      jobId: msg.jobId,
      status: 'success',
      result: output.result,
      fields: output.fields,
      resultKey: keys.json,
      markdownKey: keys.markdown,
      confidence: output.confidence,
      needsReview: output.needsReview,
      pages: output.pages,
      ...(output.memory ? { memory: output.memory } : {}),
    });
  }

  /** The source's size from a HEAD, before anything is downloaded: a missing or oversized object is a coded failure. */
  private async refuseSource(storage: JobStorage): Promise<ExtractionError | undefined> {
    const head = await headPresigned(storage.sourceHeadUrl);
    if (!head) return new ExtractionError('extraction_failed', 'the uploaded file is no longer in storage');
    if (head.size > this.maxBytes)
      return new ExtractionError('file_too_large', `the file is ${head.size} bytes, more than the ${this.maxBytes}-byte limit`);
    return undefined;
  }

  private async failExhausted(msg: JobRunMessage, attempt: number, log: Logger): Promise<HandlerOutcome> {
    this.counters.attemptsExhausted++;
    const tried = attempt - 1;
    log.error({ attempt, attemptsExhausted: this.counters.attemptsExhausted }, 'job failed: processing attempts exhausted');
    await this.reportPatiently({
      jobId: msg.jobId,
      status: 'failed',
      pages: 0,
      error: `processing_error: processing was interrupted ${tried} time${tried === 1 ? '' : 's'} (crash or infrastructure failure); see the worker logs`,
    });
    return { ack: true };
  }

  private retryLater(log: Logger, err: unknown, ctx: RunContext, what: string): HandlerOutcome {
    this.counters.infraRetries++;
    const retryInMs = Math.min(this.cfg.WORKER_RETRY_MAX_MS, FIRST_RETRY_MS * 2 ** Math.max(0, ctx.deliveryCount - 1));
    log.warn({ err, retryInMs, infraRetries: this.counters.infraRetries }, what);
    return { retryInMs };
  }

  /**
   * Counts the pages, has artifact re-size the hold to them (it owns the job; the worker has no billing rights), then
   * reads the pages covered. Undefined when artifact says stop (it failed the job `insufficient_funds`, or it is terminal).
   */
  private async extract(msg: JobRunMessage, storage: JobStorage): Promise<Reading | undefined> {
    if (msg.sandbox) {
      extractionSecondsPerPage.observe({ reader: 'sandbox' }, 0);
      return { output: sandboxOutput(msg), pageCount: 1 };
    }
    const signal = AbortSignal.timeout(this.cfg.EXTRACTION_TIMEOUT_MS);
    const bytes = await getPresigned(storage.sourceGetUrl);
    const input = { bytes, mimeType: msg.mimeType, filename: msg.filename };
    const pageCount = await this.engine.countPages(input);
    const covered = await this.rpc.request<JobPagesReply>(Subjects.artifact.jobPages, { jobId: msg.jobId, pages: pageCount });
    if (!covered.proceed) return undefined;
    // The account's layout exemplars (ADR 0014; none when its memory is off): a matching layout's anchors outrank the engine.
    const { exemplars } = await this.rpc.request<JobExemplarsReply>(Subjects.artifact.jobExemplars, { jobId: msg.jobId });
    const opts = {
      memory: exemplars as LayoutExemplar[],
      confidenceThreshold: msg.confidenceThreshold,
      ocrEngine: msg.ocrEngine,
      defaultCurrency: msg.defaultCurrency ?? undefined,
      patternOwner: msg.accountId,
      maxPages: covered.pages ?? pageCount,
      signal,
    };
    // The built-in `auto` template (ADR 0005): the engine classifies the document and extracts that kind's standard fields.
    const started = performance.now();
    const output =
      msg.templateId === AUTO_TEMPLATE_ID
        ? await extractAuto(this.engine, input, AUTO_SCHEMAS, opts, DOCUMENT_TYPE_KEY)
        : await this.engine.extract(input, msg.schema, opts);
    const seconds = (performance.now() - started) / 1000;
    extractionSecondsPerPage.observe({ reader: sniffType(msg.mimeType, bytes, msg.filename) }, seconds / Math.max(1, output.pages));
    return { output, pageCount };
  }

  /** The outcome report, retried a few times in hand (artifact briefly unreachable) so the work done is not redone. */
  private async reportPatiently(cmd: JobOutcomeCommand): Promise<JobOutcomeReply> {
    for (let i = 1; ; i++) {
      try {
        return await this.report(cmd);
      } catch (err) {
        if (i >= REPORT_TRIES) throw err;
        this.log.warn({ err, jobId: cmd.jobId, try: i }, 'outcome report failed; trying again');
        await new Promise((r) => setTimeout(r, FIRST_RETRY_MS * 2 ** (i - 1)));
      }
    }
  }

  private report(cmd: JobOutcomeCommand): Promise<JobOutcomeReply> {
    return this.rpc.request<JobOutcomeReply>(Subjects.artifact.jobOutcome, cmd);
  }
}

/** Sandbox keys get deterministic synthetic results and never touch the engine (spec §5); `auto` answers as an invoice. */
function sandboxOutput(msg: JobRunMessage): ExtractionOutput {
  const result =
    msg.templateId === AUTO_TEMPLATE_ID
      ? { [DOCUMENT_TYPE_KEY]: 'invoice', ...syntheticResult({ fields: AUTO_STANDARD_FIELDS.invoice }) }
      : syntheticResult(msg.schema);
  const fields = Object.fromEntries(Object.keys(result).map((k) => [k, { confidence: 1, errors: [] }]));
  return {
    result,
    fields,
    confidence: 1,
    needsReview: false,
    pages: 1,
    markdown: `# ${msg.filename}\n\n_Sandbox result: synthetic data._\n`,
  };
}
