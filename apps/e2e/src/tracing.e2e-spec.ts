/* eslint-disable @nx/enforce-module-boundaries -- deliberate: the six services run in this process so one in-memory exporter sees every span */
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { traceIdsInLogs, type ServiceHandle } from '@docket/messaging';
import {
  createTestDatabase,
  expectEventually,
  freePort,
  startTestNats,
  startTestS3,
  type TestDatabase,
  type TestNats,
  type TestS3,
} from '@docket/testing';
import { createServer, type Server } from 'node:http';
import { bootstrap as artifact } from '../../artifact/src/bootstrap.js';
import { bootstrap as billing } from '../../billing/src/bootstrap.js';
import { bootstrap as worker } from '../../extraction-worker/src/bootstrap.js';
import { bootstrap as gateway } from '../../gateway/src/bootstrap.js';
import { runAdmin } from '../../gateway/src/cli/admin.runner.js';
import { bootstrap as template } from '../../template/src/bootstrap.js';
import { bootstrap as webhooks } from '../../webhook-dispatcher/src/bootstrap.js';
import { invoicePdf } from './invoice.test-helper.js';
/* eslint-enable @nx/enforce-module-boundaries */

jest.setTimeout(180_000);

const SERVICES = ['gateway', 'artifact', 'template', 'billing', 'extraction-worker', 'webhook-dispatcher'];

/** One job, seen by an in-memory exporter: every service's spans carry the trace id of the client's `traceparent`. */
describe('traces across the six services', () => {
  const exporter = new InMemorySpanExporter();
  let db: TestDatabase;
  let nats: TestNats;
  let s3: TestS3;
  let receiver: Server;
  const handles: ServiceHandle[] = [];
  let api = '';
  let receiverUrl = '';

  beforeAll(async () => {
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    traceIdsInLogs();
    [db, nats, s3] = await Promise.all([createTestDatabase('docket_trace'), startTestNats(), startTestS3('docket-trace')]);
    receiver = createServer((_req, res) => res.writeHead(200).end('ok'));
    const receiverPort = await freePort();
    await new Promise<void>((r) => receiver.listen(receiverPort, '127.0.0.1', r));
    const env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      ...s3.env,
      WEBHOOK_ALLOWLIST: `127.0.0.1:${receiverPort}`,
      PRICE_PER_PAGE_CREDITS: '1',
    };
    for (const boot of [template, billing, webhooks, artifact, worker])
      handles.push(await boot({ ...env, PORT: String(await freePort()) }));
    // (No Swagger UI and no dashboard: their static-file servers load ESM-only packages that Jest's module registry
    // cannot require inside one test process; the HTTP path under test is the API's.)
    handles.push(await gateway({ ...env, PORT: String(await freePort()), API_DOCS: 'false', DASHBOARD_DIR: '/nonexistent-dashboard' }));
    api = `${handles[handles.length - 1].url}/api/v1`;
    receiverUrl = `http://127.0.0.1:${receiverPort}/hooks`;
  });

  afterAll(async () => {
    for (const h of handles.reverse()) await h.close();
    await new Promise((r) => receiver?.close(r));
    await Promise.all([s3?.close(), nats?.close()]);
    await db?.drop();
  });

  it('continues the client trace through gateway, artifact, template, billing, the worker and the webhook dispatcher', async () => {
    const created = await runAdmin(['create-account', '--name', 'Tracing customer', '--credits', '50'], {
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
    });
    const acct = JSON.parse(created.stdout) as { live: { api_key: string; secret: string } };
    const auth = `Basic ${Buffer.from(`${acct.live.api_key}:${acct.live.secret}`).toString('base64')}`;
    const call = (path: string, init: RequestInit = {}, headers: Record<string, string> = {}) =>
      fetch(`${api}${path}`, { ...init, headers: { authorization: auth, 'content-type': 'application/json', ...headers } });

    const tpl = (await (
      await call('/templates', {
        method: 'POST',
        body: JSON.stringify({ name: 'Traced', fields: [{ key: 'total', label: 'Total', data_type: 'currency' }] }),
      })
    ).json()) as { id: string };
    const pdf = await invoicePdf(['Invoice Number: TRC-7', 'Total: $7.00']);

    // The client's own span: its traceparent goes on both requests of the job.
    const root = trace.getTracer('test-client').startSpan('submit one job');
    const traceparent: Record<string, string> = {};
    propagation.inject(trace.setSpan(context.active(), root), traceparent);
    const body = {
      filename: 't.pdf',
      artifact_type: 'application/pdf',
      artifact_size: pdf.length,
      template_id: tpl.id,
      webhook_url: receiverUrl,
    };
    const sub = (await (await call('/extract', { method: 'POST', body: JSON.stringify(body) }, traceparent)).json()) as {
      job_id: string;
      artifact_id: string;
      upload_url: string;
    };
    expect((await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf })).status).toBe(200);
    expect((await call(`/artifacts/${sub.artifact_id}/confirm-upload`, { method: 'POST', body: '{}' }, traceparent)).status).toBe(200);
    root.end();
    await expectEventually(
      async () => expect(((await (await call(`/job/${sub.job_id}`)).json()) as { status: string }).status).toBe('success'),
      { timeoutMs: 60_000 },
    );

    const traceId = root.spanContext().traceId;
    const services = await expectEventually(
      () => {
        const seen = new Set(
          exporter
            .getFinishedSpans()
            .filter((s) => s.spanContext().traceId === traceId)
            .map((s) => String(s.attributes['docket.service'])),
        );
        expect([...seen].sort()).toEqual(expect.arrayContaining(SERVICES));
        return seen;
      },
      { timeoutMs: 30_000 },
    );
    expect([...services].filter((s) => s !== 'undefined').sort()).toEqual([...SERVICES].sort());
    // The work queued through the outbox and JetStream is in the same trace (the worker's consumer span).
    const jobRun = exporter.getFinishedSpans().find((s) => s.name.startsWith('JetStream jobs.') && s.spanContext().traceId === traceId);
    expect(jobRun?.attributes['docket.service']).toBe('extraction-worker');
  });
});
