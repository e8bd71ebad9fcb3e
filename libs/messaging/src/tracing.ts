import { context, propagation, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { setTraceIdSource } from '@docket/config';
import type { Logger } from 'pino';

/**
 * OpenTelemetry traces. One trace follows a request through every service: W3C `traceparent` travels in
 * HTTP headers, NATS request/reply headers, JetStream message headers and the outbox rows that become
 * JetStream messages. Spans are made at those boundaries (HTTP server, NATS client and server, JetStream
 * publish and consume). With no tracer provider registered every call below is the API's no-op: tracing
 * off costs nothing. `startTracing` registers one that exports over OTLP when `OTEL_EXPORTER_OTLP_ENDPOINT`
 * is set; tests register their own (an in-memory exporter) and call `traceIdsInLogs()`.
 */
export async function startTracing(
  service: string,
  log: Logger,
  env: NodeJS.ProcessEnv = process.env,
): Promise<(() => Promise<void>) | undefined> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT) return undefined;
  // Loaded only when tracing is on. The exporter reads OTEL_EXPORTER_OTLP_* itself (endpoint, headers, timeout).
  const [{ NodeTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
  ]);
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': env.OTEL_SERVICE_NAME ?? `docket-${service}` }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  // Registers the W3C trace-context propagator and the AsyncLocalStorage context manager globally.
  provider.register();
  traceIdsInLogs();
  log.info({ endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT }, 'tracing: exporting spans over OTLP/HTTP');
  return () => provider.shutdown();
}

/** Log lines written inside a span carry its `trace_id`. */
export function traceIdsInLogs(): void {
  setTraceIdSource(() => trace.getActiveSpan()?.spanContext().traceId);
}

/** Writes the active trace context into outgoing headers (NATS, JetStream, the outbox). */
export function injectTraceContext(set: (key: string, value: string) => void, ctx: Context = context.active()): void {
  propagation.inject(ctx, undefined, { set: (_carrier, key, value) => set(key, value) });
}

/** The trace context of incoming headers (a no-op context when there is none or tracing is off). */
export function extractTraceContext(get: (key: string) => string | undefined): Context {
  return propagation.extract(context.active(), undefined, {
    get: (_carrier, key) => get(key) || undefined,
    keys: () => ['traceparent', 'tracestate'],
  });
}

/** The trace headers of the active context as a plain object (stored with an outbox row). */
export function traceHeaders(): Record<string, string> {
  const out: Record<string, string> = {};
  injectTraceContext((k, v) => (out[k] = v));
  return out;
}

/** Runs `fn` in a new span (child of `parent`, else of the active span) and ends it with fn's outcome. */
export async function inSpan<T>(
  service: string,
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  fn: (span: Span) => Promise<T>,
  parent: Context = context.active(),
): Promise<T> {
  const span = trace
    .getTracer(`docket-${service}`)
    .startSpan(name, { kind, attributes: { ...attributes, 'docket.service': service } }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.recordException(err as Error);
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw err;
  } finally {
    span.end();
  }
}

/** Starts a span without making it active (HTTP: begun in one hook, ended in another); `ctx` carries it. */
export function startSpan(
  service: string,
  name: string,
  kind: SpanKind,
  attributes: Attributes,
  parent: Context,
): { span: Span; ctx: Context } {
  const span = trace
    .getTracer(`docket-${service}`)
    .startSpan(name, { kind, attributes: { ...attributes, 'docket.service': service } }, parent);
  return { span, ctx: trace.setSpan(parent, span) };
}

export { context as traceContext, SpanStatusCode };
export { SpanKind };
