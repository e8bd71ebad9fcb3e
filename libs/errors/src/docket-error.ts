import { ErrorCode, isErrorCode, statusForCode } from './error-codes.js';

/** The shape every failure takes on the wire (NATS replies) and inside HTTP error envelopes. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** A coded, expected failure. Anything that is not a DocketError is an internal error. */
export class DocketError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'DocketError';
  }

  get status(): number {
    return statusForCode(this.code);
  }

  toPayload(): ErrorPayload {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }

  /** Rebuild from something that crossed a transport; never relies on `instanceof` of a remote error. */
  static fromPayload(value: unknown): DocketError | undefined {
    if (typeof value !== 'object' || value === null) return undefined;
    const v = value as Record<string, unknown>;
    if (!isErrorCode(v.code) || typeof v.message !== 'string') return undefined;
    return new DocketError(v.code, v.message, v.details);
  }
}

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function reasonPhrase(status: number): string {
  return REASON[status] ?? 'Error';
}

/** The HTTP error envelope (ARCHITECTURE §6). */
export interface ErrorEnvelope {
  statusCode: number;
  error: string;
  code: string;
  message: string;
  details?: unknown;
  request_id: string;
}

export function toEnvelope(err: DocketError, requestId: string): ErrorEnvelope {
  const statusCode = err.status;
  const env: ErrorEnvelope = { statusCode, error: reasonPhrase(statusCode), code: err.code, message: err.message, request_id: requestId };
  if (err.details !== undefined) env.details = err.details;
  return env;
}
