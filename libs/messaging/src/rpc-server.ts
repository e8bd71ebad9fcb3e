import { ArgumentsHost, Catch, RpcExceptionFilter, ValidationError, ValidationPipe } from '@nestjs/common';
import { INestApplication } from '@nestjs/common';
import { Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { queueGroup, type ServiceName } from '@docket/contracts';
import { DocketError, type ErrorPayload } from '@docket/errors';
import type { Logger } from 'pino';
import { Observable, throwError } from 'rxjs';

/** Attach the NATS request/reply server to an app, in the service's queue group. */
export function connectNatsMicroservice(app: INestApplication, service: ServiceName, natsUrl: string): void {
  app.connectMicroservice<MicroserviceOptions>(
    { transport: Transport.NATS, options: { servers: [natsUrl], queue: queueGroup(service), name: service, maxReconnectAttempts: -1 } },
    { inheritAppConfig: true },
  );
}

/** Payloads are validated on receipt with the same classes the gateway uses. */
export function rpcValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    exceptionFactory: (errors: ValidationError[]) =>
      new DocketError('invalid_payload', 'Message payload failed validation', flattenValidationErrors(errors)),
  });
}

export function flattenValidationErrors(errors: ValidationError[], parent = ''): { field: string; constraints: Record<string, string> }[] {
  const out: { field: string; constraints: Record<string, string> }[] = [];
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

  catch(exception: unknown, _host: ArgumentsHost): Observable<ErrorPayload> {
    if (exception instanceof DocketError) return throwError(() => exception.toPayload());
    this.log.error({ err: exception }, 'unhandled error in message handler');
    return throwError(() => new DocketError('internal_error', 'Internal error').toPayload());
  }
}
