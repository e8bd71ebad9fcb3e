import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import {
  Streams,
  Subjects,
  type DeliveryLogEntryDto,
  type JobFinishedEvent,
  type RegisterOneShotReply,
  type RotateSecretResponseDto,
  type WebhookCreateResponseDto,
  type WebhookDeliveryDto,
  type WebhookResponseDto,
  type WebhookStatsDto,
} from '@docket/contracts';
import { schemaStatus } from '@docket/database';
import type { DocketError } from '@docket/errors';
import { JetStreamBus, RpcClient } from '@docket/messaging';
import {
  createTestDatabase,
  expectEventually,
  freePort,
  rejectionOf,
  startTestNats,
  testLogger,
  type TestDatabase,
  type TestNats,
} from '@docket/testing';
import { bootstrap, SCHEMA } from './bootstrap.js';
import { entities } from './entities/index.js';
import { migrations } from './migrations/index.js';
import { IN_FLIGHT_HORIZON_SECONDS } from './deliveries/delivery-log.service.js';
import { INTERRUPTED_ATTEMPT_BODY } from './webhooks/webhook.mapper.js';

const A = 'acct_01webhooktesta';
const B = 'acct_01webhooktestb';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1 (allowlisted); `/flaky…` answers 500 to its first call, then 200. */
function startReceiver() {
  const received: Received[] = [];
  const hits = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const path = req.url ?? '/';
      received.push({ path, headers: req.headers, body });
      const n = (hits.get(path) ?? 0) + 1;
      hits.set(path, n);
      const fail = path.startsWith('/flaky') && n === 1;
      res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' }).end(fail ? 'crashed' : 'ok');
    });
  });
  return new Promise<{ port: number; received: Received[]; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve({
        port: (server.address() as AddressInfo).port,
        received,
        close: () => new Promise((r) => server.close(() => r())),
      }),
    );
  });
}

let seq = 0;
function jobEvent(over: Partial<JobFinishedEvent>): JobFinishedEvent {
  seq += 1;
  return {
    eventId: `evt_${Date.now()}_${seq}`,
    jobId: `job_it${Date.now().toString(36)}${seq}`,
    artifactId: `art_it${seq}`,
    accountId: A,
    sandbox: false,
    status: 'success',
    pages: 1,
    webhookId: null,
    batchId: null,
    filename: 'invoice.pdf',
    result: { invoice_number: 'INV-1' },
    confidence: 0.93,
    needsReview: false,
    error: null,
    createdAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    ...over,
  };
}

jest.setTimeout(30_000);

describe('webhook-dispatcher over NATS, JetStream and Postgres', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let svc: Awaited<ReturnType<typeof bootstrap>>;
  let rpc: RpcClient;
  let bus: JetStreamBus;
  let sql: pg.Client;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let base: string;

  const call = <T>(subject: string, payload: object) => rpc.request<T>(subject, payload);
  const fail = (subject: string, payload: object) => rejectionOf<DocketError>(rpc.request(subject, payload), subject);
  const createHook = (accountId: string, path: string, events: string[] = ['extraction.completed']) =>
    call<WebhookCreateResponseDto>(Subjects.webhook.create, { accountId, body: { url: `${base}${path}`, description: 'test', events } });
  const publish = (ev: JobFinishedEvent) => bus.publish(Streams.events.jobFinished, ev, ev.eventId);
  const logs = (accountId: string, jobId: string) =>
    call<DeliveryLogEntryDto[]>(Subjects.webhook.logsByJob, { accountId, jobId, limit: 100, offset: 0 });
  const deliveriesTo = (path: string) => receiver.received.filter((r) => r.path === path);

  beforeAll(async () => {
    db = await createTestDatabase('docket_wh');
    nats = await startTestNats();
    receiver = await startReceiver();
    base = `http://127.0.0.1:${receiver.port}`;
    svc = await bootstrap({
      NODE_ENV: 'test',
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      WEBHOOK_ALLOWLIST: `127.0.0.1:${receiver.port}`,
      WEBHOOK_RETRY_DELAYS_MS: '300,300,300',
    });
    rpc = new RpcClient({ natsUrl: nats.url, name: 'webhook-test', timeoutMs: 5000 });
    await rpc.connect();
    bus = new JetStreamBus(nats.url, testLogger(), 'webhook-test');
    await bus.connect();
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });

  afterAll(async () => {
    await sql?.end();
    await bus?.close();
    await rpc?.close();
    await svc?.close();
    await receiver?.close();
    await nats?.close();
    await db?.drop();
  });

  it('creates a webhook with a one-time secret, stored encrypted', async () => {
    const w = await createHook(A, '/created', ['extraction.completed', 'extraction.failed']);
    expect(w).toEqual({
      id: expect.stringMatching(/^wh_[0-9a-z]{26}$/),
      url: `${base}/created`,
      description: 'test',
      events: ['extraction.completed', 'extraction.failed'],
      is_active: true,
      created_at: expect.any(String),
      updated_at: expect.any(String),
      secret_key: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { rows } = await sql.query(`SELECT secret_ciphertext FROM "webhook"."webhooks" WHERE id = $1`, [w.id]);
    expect(rows[0].secret_ciphertext).not.toContain(w.secret_key.slice(6));
    const listed = await call<WebhookResponseDto[]>(Subjects.webhook.list, { accountId: A });
    expect(listed.find((l) => l.id === w.id)).not.toHaveProperty('secret_key');
    expect(await call<WebhookResponseDto[]>(Subjects.webhook.list, { accountId: B })).toEqual([]);
  });

  it('rejects URLs that are not HTTPS, not public or too long, and empty events', async () => {
    const bad = (url: string) => fail(Subjects.webhook.create, { accountId: A, body: { url, events: ['extraction.completed'] } });
    expect(await bad(`http://127.0.0.1:${receiver.port + 1}/x`)).toMatchObject({ code: 'invalid_webhook_url' });
    expect(await bad('http://hooks.example.com/x')).toMatchObject({ code: 'invalid_webhook_url' });
    expect(await bad('https://10.0.0.1/x')).toMatchObject({ code: 'invalid_webhook_url' });
    expect(await bad('https://169.254.169.254/latest')).toMatchObject({ code: 'invalid_webhook_url' });
    expect(await bad('https://localhost/x')).toMatchObject({ code: 'invalid_webhook_url' });
    expect((await bad(`https://93.184.216.34/${'a'.repeat(2100)}`)).code).toMatch(/invalid_webhook_url|invalid_payload/);
    const empty = await fail(Subjects.webhook.create, { accountId: A, body: { url: `${base}/x`, events: [] } });
    expect(['invalid_payload', 'validation_failed']).toContain(empty.code);
    expect(await fail(Subjects.webhook.registerOneShot, { accountId: A, url: 'https://127.0.0.1/x' })).toMatchObject({
      code: 'invalid_webhook_url',
    });
  });

  it('verifies ownership for artifact: own webhook, active or not (spec §3.4: an inactive one still accepts jobs)', async () => {
    const w = await createHook(A, '/verify');
    expect(await call(Subjects.webhook.verify, { accountId: A, webhookId: w.id })).toEqual({ id: w.id });
    expect(await fail(Subjects.webhook.verify, { accountId: B, webhookId: w.id })).toMatchObject({ code: 'webhook_not_found' });
    expect(await fail(Subjects.webhook.verify, { accountId: A, webhookId: 'wh_missing' })).toMatchObject({ code: 'webhook_not_found' });
    await call(Subjects.webhook.update, { accountId: A, webhookId: w.id, body: { is_active: false } });
    expect(await call(Subjects.webhook.verify, { accountId: A, webhookId: w.id })).toEqual({ id: w.id });
    expect(await fail(Subjects.webhook.verify, { accountId: B, webhookId: w.id })).toMatchObject({ code: 'webhook_not_found' });
    await call(Subjects.webhook.delete, { accountId: A, webhookId: w.id });
    expect(await fail(Subjects.webhook.verify, { accountId: A, webhookId: w.id })).toMatchObject({ code: 'webhook_not_found' });
  });

  it('delivers a signed event for a finished job and logs attempt 1, visible only to its account', async () => {
    const w = await createHook(A, '/ok');
    const ev = jobEvent({ webhookId: w.id, batchId: 'bat_1' });
    await publish(ev);
    const [got] = await expectEventually(() => {
      const d = deliveriesTo('/ok');
      expect(d).toHaveLength(1);
      return d;
    });
    const payload = new Webhook(w.secret_key).verify(got.body, got.headers as Record<string, string>) as {
      type: string;
      data: Record<string, unknown>;
    };
    expect(payload).toMatchObject({
      type: 'extraction.completed',
      data: {
        job_id: ev.jobId,
        artifact_id: ev.artifactId,
        status: 'success',
        result: ev.result,
        confidence: 0.93,
        needs_review: false,
        batch_id: 'bat_1',
        filename: 'invoice.pdf',
        completed_at: ev.finishedAt,
      },
    });
    expect(got.headers['x-webhook-id']).toBe(`${ev.jobId}:extraction.completed`);
    expect(got.headers['webhook-id']).toBe(`${ev.jobId}:extraction.completed`);
    expect(got.headers['user-agent']).toBe('Docket-Webhooks/1.0');
    expect(got.headers['content-type']).toBe('application/json');

    const entries = await expectEventually(async () => {
      const l = await logs(A, ev.jobId);
      expect(l[0]?.is_success).toBe(true);
      return l;
    });
    expect(entries).toEqual([
      {
        attempt_number: 1,
        event_type: 'extraction.completed',
        url: `${base}/ok`,
        request_headers: expect.objectContaining({ 'X-Webhook-Id': `${ev.jobId}:extraction.completed` }),
        response_status_code: 200,
        response_body: 'ok',
        is_success: true,
        duration_ms: expect.any(Number),
        attempted_at: expect.any(String),
      },
    ]);
    expect(entries[0].request_headers).not.toHaveProperty('webhook-signature');
    expect(await logs(B, ev.jobId)).toEqual([]);

    // A redelivered event (new stream message, same job) neither re-sends nor re-logs a successful delivery.
    await publish({ ...ev, eventId: `${ev.eventId}-again` });
    const marker = jobEvent({ webhookId: w.id });
    await publish(marker);
    await expectEventually(() => expect(deliveriesTo('/ok')).toHaveLength(2));
    expect(deliveriesTo('/ok').map((d) => JSON.parse(d.body).data.job_id)).toEqual([ev.jobId, marker.jobId]);
    expect(await logs(A, ev.jobId)).toHaveLength(1);
  });

  it('retries a 500 through JetStream redelivery: attempts 1 and 2 are logged', async () => {
    const w = await createHook(A, '/flaky');
    const ev = jobEvent({ webhookId: w.id });
    await publish(ev);
    const entries = await expectEventually(async () => {
      const l = await logs(A, ev.jobId);
      expect(l.map((e) => [e.attempt_number, e.response_status_code, e.is_success])).toEqual([
        [1, 500, false],
        [2, 200, true],
      ]);
      return l;
    });
    expect(entries[0].response_body).toBe('crashed');
    expect(deliveriesTo('/flaky')).toHaveLength(2);
    for (const d of deliveriesTo('/flaky'))
      expect(() => new Webhook(w.secret_key).verify(d.body, d.headers as Record<string, string>)).not.toThrow();

    const failed = await call<WebhookDeliveryDto[]>(Subjects.webhook.deliveries, { accountId: A, webhookId: w.id, statusFilter: 'failed' });
    expect(failed.map((d) => d.attempt_number)).toEqual([1]);
    const all = await call<WebhookDeliveryDto[]>(Subjects.webhook.deliveries, { accountId: A, webhookId: w.id });
    expect(all.map((d) => d.attempt_number)).toEqual([2, 1]);
    expect(await call<WebhookStatsDto>(Subjects.webhook.stats, { accountId: A, webhookId: w.id, days: 7 })).toEqual({
      total_events: 1,
      success_rate: 100,
      failures_last_24h: 1,
      avg_latency_ms: expect.any(Number),
    });
    expect(await fail(Subjects.webhook.stats, { accountId: B, webhookId: w.id })).toMatchObject({ code: 'forbidden' });
  });

  it('re-checks the destination at connect time: a URL now pointing at a private address fails with status 0, four attempts, then stops', async () => {
    const w = await createHook(A, '/soon-private');
    // Simulates DNS rebinding / a row changed behind validation's back: only the connect-time filter stands in the way.
    const privateUrl = `https://127.0.0.1:${await freePort()}/internal`;
    await sql.query(`UPDATE "webhook"."webhooks" SET url = $1 WHERE id = $2`, [privateUrl, w.id]);
    const ev = jobEvent({ webhookId: w.id });
    await publish(ev);
    const entries = await expectEventually(
      async () => {
        const l = await logs(A, ev.jobId);
        expect(l.map((e) => [e.attempt_number, e.response_status_code, e.is_success])).toEqual([
          [1, 0, false],
          [2, 0, false],
          [3, 0, false],
          [4, 0, false],
        ]);
        return l;
      },
      { timeoutMs: 20_000 },
    );
    expect(entries[0].response_body).toBe('blocked: destination address is not public');
  }, 30_000);

  it('one-shot webhooks receive completed/failed events signed with the returned secret and stay hidden', async () => {
    const one = await call<RegisterOneShotReply>(Subjects.webhook.registerOneShot, { accountId: A, url: `${base}/oneshot` });
    expect(one).toEqual({ webhookId: expect.stringMatching(/^wh_/), secret: expect.stringMatching(/^whsec_/) });
    const ev = jobEvent({ webhookId: one.webhookId, status: 'failed', result: null, error: 'corrupt_file: cannot read' });
    await publish(ev);
    const got = await expectEventually(() => {
      const d = deliveriesTo('/oneshot');
      expect(d).toHaveLength(1);
      return d;
    });
    const types = got.map((d) => (new Webhook(one.secret).verify(d.body, d.headers as Record<string, string>) as { type: string }).type);
    expect(types).toEqual(['extraction.failed']);
    expect(JSON.parse(got[0].body).data).toMatchObject({ error: 'corrupt_file: cannot read', status: 'failed' });
    expect((await call<WebhookResponseDto[]>(Subjects.webhook.list, { accountId: A })).map((w) => w.id)).not.toContain(one.webhookId);
  });

  it('signs with both secrets during the rotation overlap', async () => {
    const w = await createHook(A, '/rotated');
    const rotated = await call<RotateSecretResponseDto>(Subjects.webhook.rotateSecret, { accountId: A, webhookId: w.id });
    expect(rotated).toEqual({ id: w.id, secret_key: expect.stringMatching(/^whsec_/), url: w.url, events: w.events });
    expect(rotated.secret_key).not.toBe(w.secret_key);
    await publish(jobEvent({ webhookId: w.id }));
    const [got] = await expectEventually(() => {
      const d = deliveriesTo('/rotated');
      expect(d).toHaveLength(1);
      return d;
    });
    expect(() => new Webhook(rotated.secret_key).verify(got.body, got.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(w.secret_key).verify(got.body, got.headers as Record<string, string>)).not.toThrow();
    expect(await fail(Subjects.webhook.rotateSecret, { accountId: B, webhookId: w.id })).toMatchObject({ code: 'forbidden' });
  });

  it('updates, re-validates a changed URL, and stops delivering to inactive or deleted webhooks', async () => {
    const w = await createHook(A, '/inactive');
    expect(await fail(Subjects.webhook.update, { accountId: A, webhookId: w.id, body: { url: 'http://example.com/x' } })).toMatchObject({
      code: 'invalid_webhook_url',
    });
    const updated = await call<WebhookResponseDto>(Subjects.webhook.update, {
      accountId: A,
      webhookId: w.id,
      body: { description: 'paused', is_active: false },
    });
    expect(updated).toMatchObject({ id: w.id, description: 'paused', is_active: false, url: w.url });
    expect(await fail(Subjects.webhook.update, { accountId: B, webhookId: w.id, body: { is_active: true } })).toMatchObject({
      code: 'forbidden',
    });

    const d = await createHook(A, '/deleted');
    expect(await call(Subjects.webhook.delete, { accountId: A, webhookId: d.id })).toEqual({ id: d.id, deleted: true });
    expect(await fail(Subjects.webhook.delete, { accountId: A, webhookId: d.id })).toMatchObject({ code: 'webhook_not_found' });

    const e1 = jobEvent({ webhookId: w.id });
    const e2 = jobEvent({ webhookId: d.id });
    await publish(e1);
    await publish(e2);
    // Prove the consumer got past both events by waiting for a later one to arrive.
    const marker = await createHook(A, '/marker');
    await publish(jobEvent({ webhookId: marker.id }));
    await expectEventually(() => expect(deliveriesTo('/marker')).toHaveLength(1));
    expect(deliveriesTo('/inactive')).toHaveLength(0);
    expect(deliveriesTo('/deleted')).toHaveLength(0);
    expect(await logs(A, e1.jobId)).toEqual([]);
  });

  it('hides an attempt still in flight; one left unfinished past the horizon shows as interrupted', async () => {
    const w = await createHook(A, '/in-flight');
    const claim = (id: string, jobId: string, attemptedAt: string) =>
      sql.query(
        `INSERT INTO "webhook"."delivery_attempts"
           (id, account_id, webhook_id, job_id, event_type, result_version, attempt_number, url, request_headers,
            response_status_code, response_body, is_success, duration_ms, attempted_at)
         VALUES ($1, $2, $3, $4, 'extraction.completed', 0, 1, 'http://x.invalid/', '{}', 0, '', false, 0, $5)`,
        [id, A, w.id, jobId, attemptedAt],
      );
    // As the dispatcher leaves a claimed attempt between sending and logging the answer (finished_at null).
    await claim('dlv_inflight', 'job_inflight', new Date().toISOString());
    await claim('dlv_stale', 'job_stale', new Date(Date.now() - (IN_FLIGHT_HORIZON_SECONDS + 60) * 1000).toISOString());

    expect(await logs(A, 'job_inflight')).toEqual([]);
    expect(await logs(A, 'job_stale')).toEqual([
      expect.objectContaining({ attempt_number: 1, response_status_code: 0, is_success: false, response_body: INTERRUPTED_ATTEMPT_BODY }),
    ]);
    const all = await call<WebhookDeliveryDto[]>(Subjects.webhook.deliveries, { accountId: A, webhookId: w.id });
    expect(all.map((d) => d.job_id)).toEqual(['job_stale']);
    expect(await call<WebhookStatsDto>(Subjects.webhook.stats, { accountId: A, webhookId: w.id, days: 7 })).toMatchObject({
      total_events: 1,
      success_rate: 0,
    });
  });

  it('has no pending migrations and entities match them', async () => {
    expect(await schemaStatus({ url: db.url, schema: SCHEMA, entities, migrations })).toEqual({ pendingMigrations: false, drift: [] });
  });
});
