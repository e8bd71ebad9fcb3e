import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request being served, carried implicitly through async calls: an HTTP request in the gateway, a NATS
 * request (its `x-request-id` header) or a JetStream message in the other services. Every log line written
 * while it runs carries its id (`createLogger`'s mixin), and every NATS message sent carries it on.
 */
export const requestContext = new AsyncLocalStorage<{ requestId: string }>();
export const REQUEST_ID_HEADER = 'x-request-id';

/** The active trace id, when tracing is on (set by the tracing setup; nothing when it is off). */
let traceIdSource: (() => string | undefined) | undefined;

export function setTraceIdSource(source: (() => string | undefined) | undefined): void {
  traceIdSource = source;
}

/** Fields added to every log line: the request id and, with tracing on, the trace id. */
export function logContextFields(): { request_id?: string; trace_id?: string } {
  const requestId = requestContext.getStore()?.requestId;
  const traceId = traceIdSource?.();
  if (!requestId && !traceId) return {};
  return { ...(requestId ? { request_id: requestId } : {}), ...(traceId ? { trace_id: traceId } : {}) };
}
