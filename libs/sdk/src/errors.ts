import type { ErrorCode, ErrorEnvelope, Job } from './types.js';

/** Base class of every error the SDK throws. */
export class DocketError extends Error {
  override name = 'DocketError';
}

/**
 * The API answered 4xx/5xx. `code` is the error envelope's stable code (`insufficient_funds`,
 * `template_not_found`, …); `status`, `details` and `requestId` (quote it in support requests) come with it.
 */
export class DocketApiError extends DocketError {
  override name = 'DocketApiError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode | (string & {}),
    message: string,
    readonly details: unknown,
    readonly requestId: string | undefined,
    /** Seconds from `Retry-After`, when the server sent one (429). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  /** The typed error for one failed response (`body` is its parsed JSON, when there was any). */
  static from(response: Response, body: unknown): DocketApiError {
    const env = (isEnvelope(body) ? body : {}) as Partial<ErrorEnvelope>;
    const status = response.status;
    const code = env.code ?? (status >= 500 ? 'service_unavailable' : 'unknown_error');
    const message = env.message ?? `HTTP ${status} ${response.statusText}`.trim();
    const requestId = env.request_id ?? response.headers.get('x-request-id') ?? undefined;
    const retryAfter = parseRetryAfterSeconds(response.headers.get('retry-after'));
    const Cls = errorClassFor(status);
    return new Cls(status, code, message, env.details, requestId, retryAfter);
  }
}

/** 401 / 403: credentials missing, wrong or revoked, or a resource of another account. */
export class DocketAuthError extends DocketApiError {
  override name = 'DocketAuthError';
}
/** 402: the wallet is frozen or cannot cover the hold (`wallet_frozen`, `insufficient_funds`). */
export class DocketPaymentError extends DocketApiError {
  override name = 'DocketPaymentError';
}
/** 404: the artifact, job, template, webhook or batch does not exist (for this account). */
export class DocketNotFoundError extends DocketApiError {
  override name = 'DocketNotFoundError';
}
/** 409: the resource's state forbids it (`job_terminal`, `upload_missing`, `template_in_use`, …). */
export class DocketConflictError extends DocketApiError {
  override name = 'DocketConflictError';
}
/** 400 / 413 / 422: the request itself is wrong; `details` names the fields. */
export class DocketValidationError extends DocketApiError {
  override name = 'DocketValidationError';
}
/** 429 after the SDK's own retries: wait `retryAfterSeconds`. */
export class DocketRateLimitError extends DocketApiError {
  override name = 'DocketRateLimitError';
}
/** 5xx, or no answer at all (`status` 0): the service is down or failing. */
export class DocketServerError extends DocketApiError {
  override name = 'DocketServerError';
}

function errorClassFor(status: number): typeof DocketApiError {
  if (status === 401 || status === 403) return DocketAuthError;
  if (status === 402) return DocketPaymentError;
  if (status === 404) return DocketNotFoundError;
  if (status === 409) return DocketConflictError;
  if (status === 429) return DocketRateLimitError;
  if (status >= 500 || status === 0) return DocketServerError;
  return DocketValidationError;
}

/** Object storage refused the presigned PUT (403: the Content-Type or size differs from what was submitted). */
export class DocketUploadError extends DocketError {
  override name = 'DocketUploadError';
  constructor(
    readonly status: number,
    readonly body: string,
  ) {
    super(`upload refused by storage: HTTP ${status}${body ? `: ${body.slice(0, 300)}` : ''}`);
  }
}

/** The job did not reach a terminal state before the deadline (it may still finish: poll it again later). */
export class DocketTimeoutError extends DocketError {
  override name = 'DocketTimeoutError';
  constructor(
    readonly jobId: string,
    readonly lastStatus: string | undefined,
    timeoutMs: number,
  ) {
    super(`job ${jobId} not terminal after ${Math.round(timeoutMs / 1000)} s (last status: ${lastStatus ?? 'unknown'})`);
  }
}

/** The job ended `failed`, `cancelled` or `expired` (only with `throwOnFailure`); `code` is the part of `job.error` before `:`. */
export class DocketJobError extends DocketError {
  override name = 'DocketJobError';
  readonly code: string;
  constructor(readonly job: Job) {
    const code = job.error?.split(':')[0]?.trim() || job.status;
    super(`job ${job.job_id} ${job.status}${job.error ? `: ${job.error}` : ''}`);
    this.code = code;
  }
}

/** A webhook delivery whose signature, timestamp or headers do not verify. */
export class WebhookVerificationError extends DocketError {
  override name = 'WebhookVerificationError';
}

function isEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && typeof (body as { code?: unknown }).code === 'string';
}

/** `Retry-After` as seconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfterSeconds(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}
