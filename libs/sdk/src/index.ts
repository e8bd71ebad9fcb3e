// @docket/sdk: the typed client generated from the gateway's OpenAPI document, and the flow helpers.
export { call, createDocketApi, DEFAULT_BASE_URL, SDK_VERSION, type DocketApi, type DocketClientOptions } from './client.js';
export { Docket, optionsFromEnv, type TemplateQuery } from './docket.js';
export * from './errors.js';
export { awaitJob, extractFile, submitFile, uploadTo, type ExtractOptions, type ExtractOutcome, type SubmitOptions } from './extract.js';
export {
  extractBatch,
  MAX_BATCH_FILES,
  type BatchFileOutcome,
  type BatchInput,
  type BatchOptions,
  type BatchOutcome,
  type BatchProgress,
} from './batch.js';
export {
  MAX_FILE_BYTES,
  prepareFile,
  sniffType,
  typeFromFilename,
  type ArtifactType,
  type FileInput,
  type FileOptions,
  type PreparedFile,
} from './files.js';
export { getJob, waitForJob, type PollOptions } from './poll.js';
export { backoffMs, retryingFetch, safeToRepeat, type RetryOptions } from './retry.js';
export * from './types.js';
export { verifyWebhook, WebhookWaiter, type HeaderSource, type WebhookEvent, type WebhookEventType } from './webhooks.js';
