import { extractBatch, type BatchInput, type BatchOptions, type BatchOutcome } from './batch.js';
import { call, createDocketApi, DEFAULT_BASE_URL, type DocketApi, type DocketClientOptions } from './client.js';
import { DocketError } from './errors.js';
import { extractFile, type ExtractOptions, type ExtractOutcome } from './extract.js';
import type { FileInput } from './files.js';
import { getJob, waitForJob, type PollOptions } from './poll.js';
import type { ArtifactPage, CreateTemplate, Job, paths, Template, Wallet } from './types.js';

export type TemplateQuery = NonNullable<paths['/templates']['get']['parameters']['query']>;

/** Where credentials come from when not passed in code: `DOCKET_API`, `DOCKET_API_KEY`, `DOCKET_SECRET`. */
export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): DocketClientOptions {
  const apiKey = env.DOCKET_API_KEY;
  const secret = env.DOCKET_SECRET;
  if (!apiKey || !secret) throw new DocketError('set DOCKET_API_KEY and DOCKET_SECRET (npm start prints a key and its secret)');
  return { baseUrl: env.DOCKET_API ?? DEFAULT_BASE_URL, apiKey, secret };
}

/**
 * The SDK in one object: the generated client as `api` plus the flow helpers.
 *   const docket = new Docket({ apiKey, secret });          // or Docket.fromEnv()
 *   const { job } = await docket.extractFile('invoice.pdf'); // job.status === 'success', job.result
 */
export class Docket {
  readonly api: DocketApi;

  constructor(readonly options: DocketClientOptions) {
    this.api = createDocketApi(options);
  }

  static fromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<DocketClientOptions> = {}): Docket {
    return new Docket({ ...optionsFromEnv(env), ...overrides });
  }

  extractFile<T extends Record<string, unknown> = Record<string, unknown>>(
    file: FileInput,
    options?: ExtractOptions,
  ): Promise<ExtractOutcome<T>> {
    return extractFile<T>(this.api, file, options);
  }

  extractBatch<T extends Record<string, unknown> = Record<string, unknown>>(
    files: readonly BatchInput[],
    options?: BatchOptions,
  ): Promise<BatchOutcome<T>> {
    return extractBatch<T>(this.api, files, options);
  }

  getJob<T extends Record<string, unknown> = Record<string, unknown>>(jobId: string): Promise<Job<T>> {
    return getJob<T>(this.api, jobId);
  }

  waitForJob<T extends Record<string, unknown> = Record<string, unknown>>(jobId: string, options?: PollOptions): Promise<Job<T>> {
    return waitForJob<T>(this.api, jobId, options);
  }

  listArtifacts(page = 1, size = 20): Promise<ArtifactPage> {
    return call(this.api.GET('/artifacts', { params: { query: { page, size } } }));
  }

  listTemplates(query: TemplateQuery = {}): Promise<Template[]> {
    return call(this.api.GET('/templates', { params: { query } }));
  }

  createTemplate(body: CreateTemplate): Promise<Template> {
    return call(this.api.POST('/templates', { body }));
  }

  getWallet(): Promise<Wallet> {
    return call(this.api.GET('/wallet'));
  }

  /** The finished job's result as Markdown (`md`) or JSON (`json`) text, or the source file's URL content (`raw`). */
  async download(artifactId: string, fileType: 'json' | 'md' | 'raw' = 'md'): Promise<string> {
    const link = await call(
      this.api.GET('/artifacts/{artifact_id}/download', { params: { path: { artifact_id: artifactId }, query: { file_type: fileType } } }),
    );
    const res = await fetch(link.download_url);
    if (!res.ok) throw new DocketError(`download of ${artifactId} (${fileType}) failed: HTTP ${res.status}`);
    return res.text();
  }
}
