import { call, type DocketApi } from './client.js';
import { DocketError } from './errors.js';
import { awaitJob, uploadTo, type ExtractOptions, type SubmitOptions } from './extract.js';
import { prepareFile, type FileInput, type FileOptions, type PreparedFile } from './files.js';
import type { Job } from './types.js';

/** Files per `POST /batch` (the API's limit); longer lists are sent as several batches. */
export const MAX_BATCH_FILES = 50;

export type BatchInput = FileInput | ({ file: FileInput } & FileOptions);

export interface BatchProgress {
  /** `uploaded` while bytes go to storage, `finished` as jobs end. */
  phase: 'uploaded' | 'finished';
  done: number;
  total: number;
  filename: string;
  job?: Job;
}

export interface BatchOptions
  extends Omit<SubmitOptions, 'retentionPolicy'>, Pick<ExtractOptions, 'poll' | 'webhookWaiter' | 'signal' | 'uploadRetry'> {
  /** Wait for every job to be terminal (default true). */
  wait?: boolean;
  /** Parallel uploads and polls (default 4). */
  concurrency?: number;
  onProgress?: (p: BatchProgress) => void;
}

export interface BatchFileOutcome<T extends Record<string, unknown>> {
  filename: string;
  batch_id: string;
  job_id: string;
  artifact_id: string;
  job?: Job<T>;
}

export interface BatchOutcome<T extends Record<string, unknown> = Record<string, unknown>> {
  batch_ids: string[];
  /** One-shot webhook secrets, one per batch sent (only with `webhookUrl`). */
  webhook_signing_secrets: string[];
  /** In the order of the input files. */
  files: BatchFileOutcome<T>[];
}

/** Runs `fn` over `items` with at most `limit` in flight; results in input order. */
export async function mapLimit<I, O>(items: readonly I[], limit: number, fn: (item: I, index: number) => Promise<O>): Promise<O[]> {
  const out = new Array<O>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return out;
}

function unpack(input: BatchInput): [FileInput, FileOptions] {
  if (typeof input === 'object' && input !== null && 'file' in input) return [input.file, input];
  return [input as FileInput, {}];
}

async function submitChunk(api: DocketApi, files: PreparedFile[], o: BatchOptions) {
  const body = {
    files: files.map((f) => ({ filename: f.filename, artifact_type: f.contentType, artifact_size: f.bytes.length })),
    ...(o.templateId !== undefined && { template_id: o.templateId }),
    ...(o.extractionSchema !== undefined && { extraction_schema: o.extractionSchema }),
    ...(o.webhookId !== undefined && { webhook_id: o.webhookId }),
    ...(o.webhookUrl !== undefined && { webhook_url: o.webhookUrl }),
  };
  return call(api.POST('/batch', { body, signal: o.signal }));
}

/**
 * Many files: `POST /batch` (50 per batch) → parallel PUTs → `confirm-batch-upload` → wait for every job.
 * Filenames must be unique within the input. Progress is reported per upload and per finished job.
 */
export async function extractBatch<T extends Record<string, unknown> = Record<string, unknown>>(
  api: DocketApi,
  inputs: readonly BatchInput[],
  options: BatchOptions = {},
): Promise<BatchOutcome<T>> {
  if (inputs.length === 0) throw new DocketError('extractBatch needs at least one file');
  const limit = options.concurrency ?? 4;
  const prepared = await mapLimit(inputs, limit, (i) => prepareFile(...unpack(i)));
  const outcome: BatchOutcome<T> = { batch_ids: [], webhook_signing_secrets: [], files: [] };
  let uploaded = 0;
  for (let start = 0; start < prepared.length; start += MAX_BATCH_FILES) {
    const chunk = prepared.slice(start, start + MAX_BATCH_FILES);
    const batch = await submitChunk(api, chunk, options);
    outcome.batch_ids.push(batch.batch_id);
    if (batch.webhook_signing_secret) {
      outcome.webhook_signing_secrets.push(batch.webhook_signing_secret);
      options.webhookWaiter?.addSecret(batch.webhook_signing_secret);
    }
    const answer = new Map(batch.files.map((f) => [f.filename, f]));
    const files = chunk.map((p) => answer.get(p.filename)!);
    await mapLimit(files, limit, async (f, i) => {
      await uploadTo(f.upload_url, chunk[i], options.uploadRetry, options.signal);
      options.onProgress?.({ phase: 'uploaded', done: ++uploaded, total: prepared.length, filename: f.filename });
    });
    await call(
      api.POST('/artifacts/confirm-batch-upload/{batch_id}', { params: { path: { batch_id: batch.batch_id } }, signal: options.signal }),
    );
    for (const f of files)
      outcome.files.push({ filename: f.filename, batch_id: batch.batch_id, job_id: f.job_id, artifact_id: f.artifact_id });
  }
  if (options.wait === false) return outcome;
  let finished = 0;
  await mapLimit(outcome.files, limit, async (f) => {
    f.job = await awaitJob<T>(api, f.job_id, options);
    options.onProgress?.({ phase: 'finished', done: ++finished, total: outcome.files.length, filename: f.filename, job: f.job });
  });
  return outcome;
}
