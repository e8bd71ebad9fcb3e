import { Controller, Get, Header, type DynamicModule, Module } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * Prometheus metrics (prom-client's default registry, one process = one service). Names are stable: the
 * Grafana dashboard and the alert rules under k8s/monitoring read them.
 */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

let defaultsOn = false;
function ensureDefaultMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ prefix: 'docket_' });
}

export const httpRequestSeconds = new Histogram({
  name: 'docket_http_request_duration_seconds',
  help: 'HTTP request latency by route template and status code',
  labelNames: ['method', 'route', 'code'],
  buckets: LATENCY_BUCKETS,
});

export const rpcSeconds = new Histogram({
  name: 'docket_rpc_duration_seconds',
  help: 'NATS request/reply handling latency by subject and outcome code (ok or the error code)',
  labelNames: ['subject', 'code'],
  buckets: LATENCY_BUCKETS,
});

export const jetstreamMessages = new Counter({
  name: 'docket_jetstream_messages_total',
  help: 'JetStream messages handled by stream, consumer and outcome (ack, retry, term, error)',
  labelNames: ['stream', 'consumer', 'outcome'],
});

export const extractionSecondsPerPage = new Histogram({
  name: 'docket_extraction_seconds_per_page',
  help: 'Extraction time per page by reader (pdf, image, text, csv, html; sandbox for test keys)',
  labelNames: ['reader'],
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32],
});

export const webhookAttempts = new Counter({
  name: 'docket_webhook_attempts_total',
  help: 'Webhook delivery attempts by outcome (delivered, failed: a non-2xx answer, unreachable: no answer)',
  labelNames: ['outcome'],
});

type Sample = { labels?: Record<string, string>; value: number };

/**
 * A gauge read when Prometheus scrapes (jobs by state, consumer lag, holds, outbox backlog): `read` asks
 * the service's own state. A second registration of the same name (a service restarted in one test
 * process) replaces the first.
 */
export function scrapeGauge(name: string, help: string, labelNames: string[], read: () => Promise<Sample[]>): void {
  register.removeSingleMetric(name);
  new Gauge({
    name,
    help,
    labelNames,
    async collect() {
      this.reset();
      try {
        for (const s of await read()) s.labels ? this.set(s.labels, s.value) : this.set(s.value);
      } catch {
        // A dependency down at scrape time leaves the gauge empty; readiness reports the outage.
      }
    },
  });
}

/** GET /metrics in the Prometheus text format (unprefixed, outside the API; the NetworkPolicy limits who reaches it). */
export function metricsModule(): DynamicModule {
  ensureDefaultMetrics();
  @ApiExcludeController()
  @Controller()
  class MetricsController {
    @Get('metrics')
    @Header('content-type', register.contentType)
    metrics(): Promise<string> {
      return register.metrics();
    }
  }
  @Module({ controllers: [MetricsController] })
  class MetricsModule {}
  return { module: MetricsModule };
}
