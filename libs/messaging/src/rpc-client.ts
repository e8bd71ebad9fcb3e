import { ClientProxy, ClientProxyFactory, NatsRecordBuilder, Transport } from '@nestjs/microservices';
import { headers } from '@nats-io/transport-node';
import { DocketError } from '@docket/errors';
import { firstValueFrom, timeout as rxTimeout, TimeoutError } from 'rxjs';
import { type NatsAuth } from './nats-auth.js';
import { REQUEST_ID_HEADER, requestContext } from './request-context.js';
import { inSpan, injectTraceContext, SpanKind } from './tracing.js';

export interface RpcClientOptions {
  natsUrl: string;
  /** This process's NATS user (see `natsAuth`); omitted where the server has no authorization. */
  auth?: NatsAuth;
  name: string;
  /** Default reply deadline per request. */
  timeoutMs?: number;
}

/**
 * Request/reply over core NATS through Nest's NATS transport. Every failure comes back as a
 * DocketError rebuilt from its `{ code, message, details }` payload; nothing relies on `instanceof`
 * of an error that crossed the wire.
 */
export class RpcClient {
  private readonly client: ClientProxy;
  private readonly timeoutMs: number;
  /** The service making the requests (its spans), from the client name (`artifact-client` → `artifact`). */
  private readonly service: string;

  constructor(opts: RpcClientOptions) {
    this.service = opts.name.replace(/-client$/, '');
    this.client = ClientProxyFactory.create({
      transport: Transport.NATS,
      options: { servers: [opts.natsUrl], ...opts.auth, name: opts.name, maxReconnectAttempts: -1 },
    });
    this.timeoutMs = opts.timeoutMs ?? 15_000;
  }

  async connect(): Promise<void> {
    await this.client.connect();
  }

  /** The request carries the request id and the trace context (`traceparent`) as NATS headers. */
  async request<TReply>(subject: string, payload: object, timeoutMs = this.timeoutMs): Promise<TReply> {
    return inSpan(
      this.service,
      `NATS ${subject}`,
      SpanKind.CLIENT,
      { 'messaging.system': 'nats', 'messaging.destination.name': subject },
      async () => {
        try {
          const requestId = requestContext.getStore()?.requestId;
          const h = headers();
          if (requestId) h.set(REQUEST_ID_HEADER, requestId);
          injectTraceContext((k, v) => h.set(k, v));
          const message = h.keys().length ? new NatsRecordBuilder(payload).setHeaders(h).build() : payload;
          return await firstValueFrom(this.client.send<TReply>(subject, message).pipe(rxTimeout(timeoutMs)));
        } catch (err) {
          throw toDocketError(err, subject);
        }
      },
    );
  }

  /** A round trip to the NATS server (readiness probes): throws when the connection is down. */
  async ping(): Promise<void> {
    await this.client.unwrap<{ flush(): Promise<void> }>().flush();
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}

/** What Nest's NATS client reports for a request made while the connection is lost or closed. */
const NATS_CONNECTION_DOWN = /connection (lost|closed)|trying to reconnect|disconnect/i;

export function toDocketError(err: unknown, subject: string): DocketError {
  const coded = DocketError.fromPayload(err);
  if (coded) return coded;
  if (err instanceof TimeoutError) return new DocketError('upstream_timeout', `No reply on ${subject} in time`);
  const text = err instanceof Error ? err.message : typeof err === 'object' && err ? JSON.stringify(err) : String(err);
  if (/no responders|no subscribers|503/i.test(text)) return new DocketError('service_unavailable', `No service answers ${subject}`);
  // Nest's NATS client while the connection is down (server restart, network): a dependency is down, not a bug.
  if (NATS_CONNECTION_DOWN.test(text))
    return new DocketError('service_unavailable', `The message bus is unreachable (${subject}); retry shortly`);
  return new DocketError('internal_error', `Request ${subject} failed`);
}
