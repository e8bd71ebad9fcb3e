import type { FastifyInstance } from 'fastify';
import { requestContext } from '@docket/config';
import type { Span } from '@opentelemetry/api';
import { httpRequestSeconds } from './metrics.js';
import { extractTraceContext, SpanKind, SpanStatusCode, startSpan, traceContext } from './tracing.js';

const SPAN = Symbol('docket.span');
type Traced = { [SPAN]?: Span };

/**
 * Every HTTP request of a service: it runs in its request context (the id on every log line and NATS
 * request), in a server span continuing the caller's `traceparent`, and its latency is observed by route
 * template and status code.
 */
export function instrumentHttp(fastify: FastifyInstance, service: string): void {
  fastify.addHook('onRequest', (req, _reply, done) => {
    const header = (k: string) => {
      const v = req.headers[k];
      return Array.isArray(v) ? v[0] : v;
    };
    const route = req.routeOptions?.url ?? 'unmatched';
    const { span, ctx } = startSpan(
      service,
      `${req.method} ${route}`,
      SpanKind.SERVER,
      { 'http.request.method': req.method, 'http.route': route },
      extractTraceContext(header),
    );
    (req as Traced)[SPAN] = span;
    traceContext.with(ctx, () => requestContext.run({ requestId: String(req.id) }, done));
  });
  fastify.addHook('onResponse', async (req, reply) => {
    // By route template (never the raw URL: ids would make one series per job).
    const route = req.routeOptions?.url ?? 'unmatched';
    httpRequestSeconds.observe({ method: req.method, route, code: String(reply.statusCode) }, reply.elapsedTime / 1000);
    const span = (req as Traced)[SPAN];
    if (span) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    }
  });
}
