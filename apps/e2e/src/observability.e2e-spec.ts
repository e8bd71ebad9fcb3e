import { describe, expect, it, jest } from '@jest/globals';
import type { ServiceName } from '@docket/contracts';
import { expectEventually } from '@docket/testing';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

jest.setTimeout(180_000);

/** What each service's /metrics must show after one job (the names the dashboard and alerts read). */
const EXPECTED: Record<ServiceName, string[]> = {
  gateway: ['docket_http_request_duration_seconds'],
  artifact: ['docket_rpc_duration_seconds', 'docket_jobs', 'docket_outbox_backlog'],
  template: ['docket_rpc_duration_seconds'],
  billing: ['docket_rpc_duration_seconds', 'docket_billing_open_holds', 'docket_billing_held_credits', 'docket_jetstream_consumer_lag'],
  'extraction-worker': ['docket_extraction_seconds_per_page', 'docket_ocr_pages_total', 'docket_jetstream_consumer_lag'],
  'webhook-dispatcher': ['docket_webhook_attempts_total', 'docket_jetstream_consumer_lag', 'docket_jetstream_messages_total'],
};

/** Samples of `metric` (lines `name{labels} value`), not only its HELP/TYPE lines. */
function samples(text: string, metric: string): string[] {
  return text.split('\n').filter((l) => l.startsWith(`${metric}{`) || l.startsWith(`${metric}_count{`) || l.startsWith(`${metric} `));
}

describe('metrics on every service after one job', () => {
  const suite = useE2eStack('Metrics');
  const { api, waitTerminal } = apiHelpers(suite);

  it('shows HTTP and RPC latency, jobs by state, consumer lag, per-page time, webhook attempts, holds and the outbox', async () => {
    const { stack, live } = suite;
    const pdf = await invoicePdf(['Invoice Number: MET-0001', 'Total: $12.00']);
    const fields = [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string' }];
    const sub = await api()
      .post('/extract')
      .set('authorization', live)
      .send({
        filename: 'm.pdf',
        artifact_type: 'application/pdf',
        artifact_size: pdf.length,
        extraction_schema: { fields },
        webhook_url: stack.receiverUrl,
      })
      .expect(202);
    await fetch(sub.body.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf });
    await api().post(`/artifacts/${sub.body.artifact_id}/confirm-upload`).set('authorization', live).expect(200);
    expect((await waitTerminal(sub.body.job_id)).status).toBe('success');
    await expectEventually(() => expect(stack.deliveries.length).toBeGreaterThan(0), { timeoutMs: 30_000 });

    const scraped = {} as Record<ServiceName, string>;
    for (const [service, url] of Object.entries(stack.serviceUrls) as [ServiceName, string][]) {
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      scraped[service] = await res.text();
      // Every service: its HTTP latency and the process metrics.
      for (const name of ['docket_http_request_duration_seconds', 'docket_process_cpu_seconds_total', ...EXPECTED[service]])
        expect(`${service}: ${scraped[service]}`).toContain(`# TYPE ${name} `);
    }
    // The job itself left samples behind, not only metric names.
    expect(samples(scraped.gateway, 'docket_http_request_duration_seconds').some((l) => l.includes('route="/api/v1/extract"'))).toBe(true);
    expect(samples(scraped.artifact, 'docket_jobs').some((l) => l.includes('state="success"'))).toBe(true);
    expect(samples(scraped.artifact, 'docket_outbox_backlog')).toHaveLength(1);
    expect(samples(scraped.artifact, 'docket_rpc_duration_seconds').length).toBeGreaterThan(0);
    expect(samples(scraped['extraction-worker'], 'docket_extraction_seconds_per_page').some((l) => l.includes('reader="pdf"'))).toBe(true);
    expect(samples(scraped['webhook-dispatcher'], 'docket_webhook_attempts_total').some((l) => l.includes('outcome="delivered"'))).toBe(
      true,
    );
    expect(samples(scraped['extraction-worker'], 'docket_jetstream_consumer_lag').length).toBeGreaterThan(0);
  });
});
