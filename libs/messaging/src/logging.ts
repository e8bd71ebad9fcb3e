import {
  Injectable,
  RequestMethod,
  type CallHandler,
  type DynamicModule,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { REQUEST_ID_HEADER, requestContext } from '@docket/config';
import { DocketError } from '@docket/errors';
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LoggerModule } from 'nestjs-pino';
import type { Logger } from 'pino';
import { Observable, tap, type Subscriber } from 'rxjs';
import { rpcSeconds } from './metrics.js';
import { extractTraceContext, SpanKind, SpanStatusCode, startSpan, traceContext } from './tracing.js';
import { ulid } from 'ulid';

const ACCEPTABLE_REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;
/** Random bytes fetched per refill for request ids (ulid's default source makes one crypto call per character). */
export const REQUEST_ID_ENTROPY_BYTES = 4096;
let entropy = Buffer.alloc(0);
let entropyAt = 0;

/** ulid's PRNG contract (a number in [0, 1)) served from a block of crypto-random bytes, refilled when spent. */
export function pooledRandom(): number {
  if (entropyAt >= entropy.length) {
    entropy = randomBytes(REQUEST_ID_ENTROPY_BYTES);
    entropyAt = 0;
  }
  return entropy[entropyAt++] / 256;
}

/** Reuse a caller's X-Request-Id when it is sane, otherwise mint one. It appears in every log line and error body. */
export function requestIdFrom(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && ACCEPTABLE_REQUEST_ID.test(value) ? value : `req_${ulid(undefined, pooledRandom).toLowerCase()}`;
}

/** Platform paths polled every few seconds: not worth a log line each. */
const QUIET_PATHS = new Set(['/livez', '/readyz', '/metrics']);

type Req = IncomingMessage & { id?: unknown };

/**
 * `nestjs-pino` on the service's own pino logger: Nest's framework lines and one line per HTTP request
 * (method, URL, status, ms, request_id). Lines written while a request is served carry its id through
 * `createLogger`'s mixin; the request line carries it explicitly (it is written after the response).
 */
export function httpLoggingModule(log: Logger): DynamicModule {
  const withId = (req: Req, _res: ServerResponse, value: object) => ({ ...value, request_id: String(req.id) });
  return LoggerModule.forRoot({
    // nestjs-pino's default route ('{/*splat}') matches nothing on Nest 12's Fastify adapter; every path is meant.
    forRoutes: [{ path: '{*splat}', method: RequestMethod.ALL }],
    pinoHttp: {
      logger: log,
      customAttributeKeys: { responseTime: 'ms' },
      serializers: {
        req: (req: Req) => ({ method: req.method, url: req.url }),
        res: (res: ServerResponse) => ({ status: res.statusCode }),
      },
      customSuccessMessage: () => 'request',
      customErrorMessage: () => 'request failed',
      customSuccessObject: withId,
      customErrorObject: (req: Req, res: ServerResponse, _err: Error, value: object) => withId(req, res, value),
      // originalUrl: Nest's Fastify middleware strips the matched path from req.url while it runs.
      autoLogging: {
        ignore: (req: Req) => QUIET_PATHS.has(((req as Req & { originalUrl?: string }).originalUrl ?? req.url ?? '').split('?')[0]),
      },
    },
  });
}

/**
 * Each NATS request's handler runs in the request context of its `x-request-id` header (log lines, onward
 * calls), and its latency lands in `docket_rpc_duration_seconds` by subject and outcome code.
 */
@Injectable()
export class RpcRequestContextInterceptor implements NestInterceptor {
  constructor(private readonly service: string) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const ctx = context.switchToRpc().getContext() as
      { getHeaders?: () => { get?: (k: string) => string } | undefined; getSubject?: () => string } | undefined;
    const header = (k: string) => ctx?.getHeaders?.()?.get?.(k) || undefined;
    const requestId = header(REQUEST_ID_HEADER);
    const subject = ctx?.getSubject?.() ?? 'unknown';
    const end = rpcSeconds.startTimer({ subject });
    const { span, ctx: traced } = startSpan(
      this.service,
      `NATS ${subject}`,
      SpanKind.SERVER,
      { 'messaging.destination.name': subject },
      extractTraceContext(header),
    );
    const finish = (code: string) => {
      end({ code });
      if (code !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: code });
      span.end();
    };
    const measured = () =>
      next.handle().pipe(
        tap({
          complete: () => finish('ok'),
          error: (err: unknown) => finish(err instanceof DocketError ? err.code : 'internal_error'),
        }),
      );
    const run = (subscriber: Subscriber<unknown>) => traceContext.with(traced, () => measured().subscribe(subscriber));
    if (!requestId) return new Observable(run);
    return new Observable((subscriber) => requestContext.run({ requestId }, () => run(subscriber)));
  }
}
