import { ArgumentsHost, Catch, RpcExceptionFilter, ValidationError, ValidationPipe } from '@nestjs/common';
import { INestApplication } from '@nestjs/common';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { queueGroup, type ServiceName } from '@docket/contracts';
import { dependencyUnavailable, DocketError, isDependencyUnavailable, isErrorCode, type ErrorPayload } from '@docket/errors';
import type { Logger } from 'pino';
import { Observable, throwError } from 'rxjs';
import type { NatsAuth } from './nats-auth.js';
import { REQUEST_ID_HEADER } from './request-context.js';

/** Attach the NATS request/reply server to an app, in the service's queue group. */
export function connectNatsMicroservice(app: INestApplication, service: ServiceName, natsUrl: string, auth: NatsAuth = {}): void {
  app.connectMicroservice<MicroserviceOptions>(
    {
      transport: Transport.NATS,
      options: { servers: [natsUrl], ...auth, queue: queueGroup(service), name: service, maxReconnectAttempts: -1 },
    },
    { inheritAppConfig: true },
  );
}

/** Payloads are validated on receipt with the same classes the gateway uses, and classified by the same rule. */
export function rpcValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) => classifyValidationErrors(errors, 'invalid_payload'),
  });
}

/** The rule whose failure means "absent or null" (required fields carry it). */
const MISSING = 'isDefined';

export interface ValidationDetail {
  field: string;
  constraints: Record<string, string>;
}

/**
 * Spec §7 splits validation failures: 400 for a missing field or a constraint that carries its own
 * 400 code (`context: { code }`, e.g. invalid data_type or webhook URL), 422 for everything else
 * (wrong types, bad formats). Rule: 400 when every failure is "missing" or coded; otherwise 422.
 *
 * A field is missing when its `isDefined` rule failed (the value is absent or null). class-validator then
 * also reports the field's type and format rules (they run on the undefined value too), so such a field
 * is reported as missing alone; a present field of the wrong type never fails `isDefined` and stays 422.
 */
export function classifyValidationErrors(errors: ValidationError[], shapeCode: 'invalid_body' | 'invalid_payload'): DocketError {
  const details = flattenValidationErrors(errors).map(missingAlone);
  const coded = collectCodes(errors);
  const isMissing = (d: ValidationDetail) => MISSING in d.constraints;
  const isCoded = (d: ValidationDetail) => Object.keys(d.constraints).every((c) => coded.has(`${d.field}:${c}`));
  if (details.every((d) => isMissing(d) || isCoded(d))) {
    const codes = new Set(
      details.map((d) => (isMissing(d) ? 'validation_failed' : coded.get(`${d.field}:${Object.keys(d.constraints)[0]}`))),
    );
    const code = codes.size === 1 ? [...codes][0] : 'validation_failed';
    return new DocketError(isErrorCode(code) ? code : 'validation_failed', summarize(details), details);
  }
  return new DocketError(shapeCode, summarize(details), details);
}

/** A missing field is reported by its `isDefined` message only (its other rules failed only because it is absent). */
function missingAlone(d: ValidationDetail): ValidationDetail {
  return MISSING in d.constraints ? { field: d.field, constraints: { [MISSING]: d.constraints[MISSING]! } } : d;
}

function collectCodes(errors: ValidationError[], parent = '', out = new Map<string, string>()): Map<string, string> {
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    for (const [constraint, ctx] of Object.entries(e.contexts ?? {})) {
      const code = (ctx as { code?: string }).code;
      if (code) out.set(`${field}:${constraint}`, code);
    }
    if (e.children?.length) collectCodes(e.children, field, out);
  }
  return out;
}

function summarize(details: ValidationDetail[]): string {
  const first = details[0];
  if (!first) return 'Request failed validation';
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return `${Object.values(first.constraints)[0] ?? `${first.field} is invalid`}${more}`;
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): ValidationDetail[] {
  const out: ValidationDetail[] = [];
  for (const e of errors) {
    const field = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) out.push({ field, constraints: e.constraints });
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, field));
  }
  return out;
}

/** One filter per service for NATS handlers: coded errors pass through, anything else is logged and hidden. */
@Catch()
export class RpcErrorFilter implements RpcExceptionFilter<unknown> {
  constructor(private readonly log: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): Observable<ErrorPayload> {
    if (exception instanceof DocketError) return throwError(() => exception.toPayload());
    const ctx = host.switchToRpc().getContext() as
      { getHeaders?: () => { get?: (k: string) => string } | undefined; getSubject?: () => string } | undefined;
    const requestId = ctx?.getHeaders?.()?.get?.(REQUEST_ID_HEADER) || undefined;
    if (isDependencyUnavailable(exception)) {
      this.log.warn({ err: exception, request_id: requestId, subject: ctx?.getSubject?.() }, 'dependency unavailable in message handler');
      return throwError(() => dependencyUnavailable().toPayload());
    }
    this.log.error({ err: exception, request_id: requestId, subject: ctx?.getSubject?.() }, 'unhandled error in message handler');
    return throwError(() => new DocketError('internal_error', 'Internal error').toPayload());
  }
}
