import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { dependencyUnavailable, DocketError, isDependencyUnavailable, toEnvelope, type ErrorCode } from '@docket/errors';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';

const STATUS_TO_CODE: Record<number, ErrorCode> = {
  400: 'invalid_body',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'not_found',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'invalid_body',
  422: 'invalid_body',
  429: 'rate_limited',
};

const PATH_ERRORS = new Set(['FST_ERR_MAX_PARAM_LENGTH', 'FST_ERR_BAD_URL']);

/**
 * One envelope for every HTTP error (ARCHITECTURE §6). Coded errors keep their code; framework
 * errors get a stable code by status; anything else is a 500 whose request id is in the logs.
 */
export function toDocketError(exception: unknown): DocketError | undefined {
  if (exception instanceof DocketError) return exception;
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    const code = STATUS_TO_CODE[status];
    if (code) return new DocketError(code, status === 404 ? 'Route not found' : exception.message);
    return undefined;
  }
  // Errors raised by Fastify before routing (bad JSON, wrong content type, body too large).
  const fe = exception as { statusCode?: number; code?: string; message?: string };
  if (
    typeof fe?.statusCode === 'number' &&
    fe.statusCode >= 400 &&
    fe.statusCode < 500 &&
    typeof fe.code === 'string' &&
    fe.code.startsWith('FST_')
  ) {
    // A path the router cannot take apart (over-long parameter, bad percent-encoding) is a path parameter that
    // failed validation (spec §7: 422); a body over the limit is 413; anything else is a malformed request.
    if (PATH_ERRORS.has(fe.code)) return new DocketError('invalid_query', fe.message ?? 'Malformed path');
    const mapped: ErrorCode = fe.statusCode === 400 ? 'invalid_body' : (STATUS_TO_CODE[fe.statusCode] ?? 'invalid_body');
    return new DocketError(mapped, fe.message ?? 'Malformed request');
  }
  return undefined;
}

export function sendError(reply: FastifyReply, request: FastifyRequest, exception: unknown, log: Logger): void {
  const requestId = String(request.id);
  // Postgres restarting or a connection lost is a 503 (retry), not a 500 (chaos run, docs/reliability.md).
  const err =
    toDocketError(exception) ??
    (isDependencyUnavailable(exception) ? dependencyUnavailable() : new DocketError('internal_error', 'Internal server error'));
  if (err.status >= 500) log.error({ err: exception, request_id: requestId, url: request.url, method: request.method }, 'request failed');
  const body = toEnvelope(err, requestId);
  // A script that says so (`X-Requested-With`, as the dashboard does) gets no challenge: browsers would answer it with
  // their own credentials dialog instead of handing the 401 to the page.
  if (err.status === 401 && !request.headers['x-requested-with'])
    void reply.header('WWW-Authenticate', 'Basic realm="docket", charset="UTF-8"');
  if (err.status === 429) void reply.header('Retry-After', String(retryAfterSeconds(err.details)));
  void reply.status(err.status).header('content-type', 'application/json; charset=utf-8').send(body);
}

/** Seconds for `Retry-After` (spec §5.7): from the limiter's details, else a conservative minute. */
function retryAfterSeconds(details: unknown): number {
  const value = (details as { retry_after_seconds?: unknown } | undefined)?.retry_after_seconds;
  return typeof value === 'number' && Number.isFinite(value) && value >= 1 ? Math.ceil(value) : 60;
}

@Catch()
export class HttpExceptionFilter implements ExceptionFilter {
  constructor(private readonly log: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const ctx = host.switchToHttp();
    sendError(ctx.getResponse<FastifyReply>(), ctx.getRequest<FastifyRequest>(), exception, this.log);
  }
}
