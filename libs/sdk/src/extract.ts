import { call, type DocketApi } from './client.js';
import { DocketJobError, DocketUploadError } from './errors.js';
import { prepareFile, type FileInput, type FileOptions, type PreparedFile } from './files.js';
import { getJob, waitForJob, type PollOptions } from './poll.js';
import { retryingFetch, type RetryOptions } from './retry.js';
import type { ExtractionSchema, ExtractResponse, Job, RetentionPolicy } from './types.js';
import type { WebhookWaiter } from './webhooks.js';

export interface SubmitOptions {
  /** A saved template (`tpl_…`); exclusive with `extractionSchema`. Neither: the account's default (`auto`). */
  templateId?: string;
  /** An inline schema `{ fields: [...] }`; exclusive with `templateId`. */
  extractionSchema?: ExtractionSchema;
  /** A registered webhook (`wh_…`) to notify. */
  webhookId?: string;
  /** A one-shot HTTPS URL to notify; the submit answer carries its signing secret once. */
  webhookUrl?: string;
  retentionPolicy?: RetentionPolicy;
}

export interface ExtractOptions extends SubmitOptions, FileOptions {
  /** Wait for a terminal job (default true). false: return right after confirm-upload. */
  wait?: boolean;
  poll?: PollOptions;
  /** Resolve from the webhook delivery (polling continues every 30 s as a fallback). */
  webhookWaiter?: WebhookWaiter;
  /** Throw DocketJobError when the job ends `failed`, `cancelled` or `expired` (default false: return it). */
  throwOnFailure?: boolean;
  signal?: AbortSignal;
  /** Retries of the presigned PUT (network failures, 5xx). */
  uploadRetry?: RetryOptions;
}

export interface ExtractOutcome<T extends Record<string, unknown> = Record<string, unknown>> {
  job_id: string;
  artifact_id: string;
  /** The one-shot webhook's signing secret (only with `webhookUrl`); it is not shown again. */
  webhook_signing_secret: string | null;
  /** The terminal job (or the queued one with `wait: false`); `job.result` is typed `T`. */
  job: Job<T>;
}

/** PUTs the bytes to a presigned URL: no Authorization header, Content-Type exactly the submitted `artifact_type`. */
export async function uploadTo(url: string, file: PreparedFile, retry?: RetryOptions, signal?: AbortSignal): Promise<void> {
  const put = retryingFetch((req) => fetch(req), retry);
  const res = await put(new Request(url, { method: 'PUT', headers: { 'content-type': file.contentType }, body: file.bytes, signal }));
  if (!res.ok) throw new DocketUploadError(res.status, await res.text().catch(() => ''));
  await res.body?.cancel().catch(() => undefined);
}

function submitBody(file: PreparedFile, o: SubmitOptions) {
  return {
    filename: file.filename,
    artifact_type: file.contentType,
    artifact_size: file.bytes.length,
    ...(o.templateId !== undefined && { template_id: o.templateId }),
    ...(o.extractionSchema !== undefined && { extraction_schema: o.extractionSchema }),
    ...(o.webhookId !== undefined && { webhook_id: o.webhookId }),
    ...(o.webhookUrl !== undefined && { webhook_url: o.webhookUrl }),
    ...(o.retentionPolicy !== undefined && { retention_policy: o.retentionPolicy }),
  };
}

/** Steps 1–3 of the flow: submit, PUT, confirm. The job is queued when this resolves. */
export async function submitFile(api: DocketApi, input: FileInput, options: ExtractOptions = {}): Promise<ExtractResponse> {
  const file = await prepareFile(input, options);
  const submitted = await call(api.POST('/extract', { body: submitBody(file, options), signal: options.signal }));
  await uploadTo(submitted.upload_url, file, options.uploadRetry, options.signal);
  await call(
    api.POST('/artifacts/{artifact_id}/confirm-upload', {
      params: { path: { artifact_id: submitted.artifact_id } },
      signal: options.signal,
    }),
  );
  return submitted;
}

/** Waits by polling, or by the webhook delivery with slow polling as a fallback; returns the terminal job. */
export async function awaitJob<T extends Record<string, unknown>>(
  api: DocketApi,
  jobId: string,
  options: Pick<ExtractOptions, 'poll' | 'webhookWaiter' | 'signal'>,
): Promise<Job<T>> {
  const poll = { ...options.poll, signal: options.signal ?? options.poll?.signal };
  const waiter = options.webhookWaiter;
  if (!waiter) return waitForJob<T>(api, jobId, poll);
  const stop = new AbortController();
  const signal = poll.signal ? AbortSignal.any([poll.signal, stop.signal]) : stop.signal;
  try {
    return await Promise.race([
      waiter.wait(jobId, signal).then(() => getJob<T>(api, jobId, options.signal)),
      waitForJob<T>(api, jobId, { ...poll, intervalMs: 30_000, maxIntervalMs: 30_000, signal }),
    ]);
  } finally {
    stop.abort();
  }
}

/**
 * The whole flow for one file — submit → PUT → confirm → wait — returning the terminal job with its typed
 * result. `T` types `job.result` (keyed by field key) when you know the template's fields.
 */
export async function extractFile<T extends Record<string, unknown> = Record<string, unknown>>(
  api: DocketApi,
  input: FileInput,
  options: ExtractOptions = {},
): Promise<ExtractOutcome<T>> {
  const submitted = await submitFile(api, input, options);
  if (submitted.webhook_signing_secret) options.webhookWaiter?.addSecret(submitted.webhook_signing_secret);
  const job =
    options.wait === false ? await getJob<T>(api, submitted.job_id, options.signal) : await awaitJob<T>(api, submitted.job_id, options);
  if (options.throwOnFailure && job.status !== 'success' && options.wait !== false) throw new DocketJobError(job);
  return { job_id: submitted.job_id, artifact_id: submitted.artifact_id, webhook_signing_secret: submitted.webhook_signing_secret, job };
}
