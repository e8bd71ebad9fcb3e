import {
  DocketApiError,
  DocketAuthError,
  DocketError,
  DocketServerError,
  DocketTimeoutError,
  DocketUploadError,
  WebhookVerificationError,
} from '../errors.js';

/** What `docket` exits with; scripts can rely on these (documented in the README). */
export const ExitCode = {
  /** Done; with --wait: every job ended `success`; `webhooks verify`: the signature is valid. */
  ok: 0,
  /** A job ended `failed`, `cancelled` or `expired` (the job is still printed). */
  jobFailed: 1,
  /** Wrong command line, unreadable file, or no credentials. */
  usage: 2,
  /** 401/403: credentials missing, wrong or revoked. */
  auth: 3,
  /** The API refused the request (400, 402, 404, 409, 413, 422, 429) or storage refused the upload. */
  refused: 4,
  /** The API is down or failing (5xx, no answer). */
  unavailable: 5,
  /** --wait gave up before the job was terminal (it may still finish: `docket jobs <job_id>`). */
  timeout: 6,
  /** `webhooks verify`: the signature, timestamp or headers do not verify. */
  invalidSignature: 7,
} as const;

export class UsageError extends DocketError {
  override name = 'UsageError';
}

export function exitCodeFor(err: unknown): number {
  if (err instanceof UsageError) return ExitCode.usage;
  if (err instanceof DocketAuthError) return ExitCode.auth;
  if (err instanceof DocketServerError) return ExitCode.unavailable;
  if (err instanceof DocketApiError || err instanceof DocketUploadError) return ExitCode.refused;
  if (err instanceof DocketTimeoutError) return ExitCode.timeout;
  if (err instanceof WebhookVerificationError) return ExitCode.invalidSignature;
  if ((err as NodeJS.ErrnoException)?.code === 'ENOENT' || (err as NodeJS.ErrnoException)?.code === 'EISDIR') return ExitCode.usage;
  if (err instanceof DocketError) return ExitCode.usage;
  return ExitCode.unavailable;
}

/** One line for stderr: the envelope's code and request id when the API answered. */
export function describeError(err: unknown): string {
  if (err instanceof DocketApiError) {
    return `docket: ${err.code} (HTTP ${err.status}): ${err.message}${err.requestId ? ` [request ${err.requestId}]` : ''}`;
  }
  return `docket: ${(err as Error)?.message ?? String(err)}`;
}
