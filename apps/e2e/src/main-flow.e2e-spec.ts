import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { expectEventually } from '@docket/testing';
import pg from 'pg';
import request from 'supertest';
import { Webhook } from 'standardwebhooks';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, basic, useE2eStack, type Account, type E2eStack } from './stack.test-helper.js';

const SCHEMA = {
  fields: [
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
    { key: 'invoice_date', label: 'Invoice Date', data_type: 'date' },
    { key: 'vendor', label: 'Vendor', data_type: 'string' },
    { key: 'total', label: 'Total', data_type: 'currency' },
    { key: 'quantity', label: 'Quantity', data_type: 'number' },
    { key: 'paid', label: 'Paid', data_type: 'boolean' },
  ],
};

const INVOICE_LINES = [
  'Vendor: Acme Corp',
  'Invoice Number: INV-1001',
  'Invoice Date: 2024-03-15',
  'Quantity: 12',
  'Paid: yes',
  'Total: $1,234.50',
];

jest.setTimeout(180_000);

describe('Docket main flow, all services as processes, public HTTP only', () => {
  const suite = useE2eStack('Main flow');
  const { api, wallet, settledWallet, waitTerminal } = apiHelpers(suite);
  let stack: E2eStack;
  let acct: Account;
  let other: Account;
  let live: string;
  let sandbox: string;
  let pdf: Buffer;

  beforeAll(async () => {
    ({ stack, acct, other, live, sandbox } = suite);
    pdf = await invoicePdf(INVOICE_LINES);
  });

  async function submit(auth: string, body: Record<string, unknown>) {
    const res = await api()
      .post('/extract')
      .set('authorization', auth)
      .send({ filename: 'invoice.pdf', artifact_type: 'application/pdf', artifact_size: pdf.length, ...body });
    expect(res.status).toBe(202);
    return res.body as {
      job_id: string;
      artifact_id: string;
      upload_url: string;
      fields: object;
      expires_in: number;
      webhook_signing_secret: string | null;
    };
  }

  async function upload(url: string, contentType = 'application/pdf', bytes: Buffer = pdf) {
    return fetch(url, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes });
  }

  it('runs the four steps with an inline schema: typed result, hold then settlement, signed webhook', async () => {
    const before = await wallet();
    expect(before).toEqual({ balance: 100, spendable: 100, is_frozen: false, frozen_reason: null });

    const sub = await submit(live, { extraction_schema: SCHEMA, webhook_url: stack.receiverUrl });
    expect(sub).toMatchObject({ fields: {}, expires_in: 3600 });
    expect(sub.webhook_signing_secret).toMatch(/^whsec_/);

    const inFlight = await wallet();
    expect(inFlight.balance).toBe(100);
    expect(inFlight.spendable).toBeLessThan(inFlight.balance);

    expect((await upload(sub.upload_url)).status).toBe(200);
    const confirmed = await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', live).expect(200);
    expect(confirmed.body).toMatchObject({ id: sub.artifact_id, status: expect.stringMatching(/^(uploaded|processing)$/) });
    // A repeated confirm is 200 and queues nothing again: still one job, run once, charged once, delivered once.
    const again = await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', live).expect(200);
    expect(again.body.jobs).toHaveLength(1);

    const job = await waitTerminal(sub.job_id);
    expect(job.status).toBe('success');
    expect(job.result).toEqual({
      invoice_number: 'INV-1001',
      invoice_date: '2024-03-15',
      vendor: 'Acme Corp',
      total: { value: 1234.5, currency: 'USD' },
      quantity: 12,
      paid: true,
    });
    expect(job.completed_at).toEqual(expect.any(String));
    expect(job.result_download_url).toEqual(expect.any(String));
    const stored = (await (await fetch(job.result_download_url)).json()) as { result: unknown };
    expect(stored.result).toEqual(job.result);

    // Settlement: spendable returns to balance, balance is lower by the actual cost (1 page x 1 credit).
    const after = await settledWallet();
    expect(after.balance).toBe(99);

    // The webhook arrives, verifies with an independent implementation, and is logged as attempt 1.
    const delivery = await expectEventually(
      () => {
        const d = stack.deliveries.find((x) => String(x.headers['x-webhook-id']).startsWith(sub.job_id));
        if (!d) throw new Error('no delivery yet');
        return d;
      },
      { timeoutMs: 30_000 },
    );
    expect(delivery.headers['x-webhook-id']).toBe(`${sub.job_id}:extraction.completed`);
    expect(stack.deliveries.filter((d) => String(d.headers['x-webhook-id']).startsWith(sub.job_id))).toHaveLength(1);
    const payload = new Webhook(sub.webhook_signing_secret!).verify(delivery.body, {
      'webhook-id': String(delivery.headers['webhook-id']),
      'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
      'webhook-signature': String(delivery.headers['webhook-signature']),
    }) as { type: string; data: { job_id: string; result: unknown } };
    expect(payload.type).toBe('extraction.completed');
    expect(payload.data.job_id).toBe(sub.job_id);
    expect(payload.data.result).toEqual(job.result);

    const logs = await expectEventually(async () => {
      const r = await api().get(`/job/${sub.job_id}/webhook-logs`).set('authorization', live).expect(200);
      if (!r.body.length) throw new Error('no log yet');
      return r.body;
    });
    expect(logs[0]).toMatchObject({ attempt_number: 1, event_type: 'extraction.completed', is_success: true, response_status_code: 200 });
    expect(logs[0].request_headers['X-Webhook-Id'] ?? logs[0].request_headers['x-webhook-id']).toBe(`${sub.job_id}:extraction.completed`);
  });

  it('runs the four steps again with a template_id', async () => {
    const tpl = await api()
      .post('/templates/')
      .set('authorization', live)
      .send({ name: 'Invoices', category: 'invoice', fields: SCHEMA.fields })
      .expect(201);
    expect(tpl.body).toMatchObject({ name: 'Invoices', status: 'active', version: 1, category: 'invoice' });
    await api().get(`/templates/${tpl.body.id}`).set('authorization', live).expect(200);

    const sub = await submit(live, { template_id: tpl.body.id });
    expect(sub.webhook_signing_secret).toBeNull();
    expect((await upload(sub.upload_url)).status).toBe(200);
    await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', live).expect(200);
    const job = await waitTerminal(sub.job_id);
    expect(job.status).toBe('success');
    expect(job.result.invoice_number).toBe('INV-1001');
    expect(job.result.total).toEqual({ value: 1234.5, currency: 'USD' });
    expect(job.result.invoice_date).toBe('2024-03-15');
    expect((await settledWallet()).balance).toBe(98);
  });

  it("never invents a currency: an amount printed without one is null, the template's default_currency fills it", async () => {
    const bare = await invoicePdf(INVOICE_LINES.map((l) => (l.startsWith('Total:') ? 'Total: 1,234.50' : l)));
    const run = async (settings: Record<string, unknown>) => {
      const tpl = await api()
        .post('/templates/')
        .set('authorization', live)
        .send({ name: `Bare totals ${Object.keys(settings).length}`, fields: SCHEMA.fields, settings })
        .expect(201);
      const res = await api()
        .post('/extract')
        .set('authorization', live)
        .send({ filename: 'bare.pdf', artifact_type: 'application/pdf', artifact_size: bare.length, template_id: tpl.body.id })
        .expect(202);
      expect((await upload(res.body.upload_url, 'application/pdf', bare)).status).toBe(200);
      await api().post(`/artifacts/${res.body.artifact_id}/confirm-upload`).set('authorization', live).expect(200);
      const job = await waitTerminal(res.body.job_id);
      expect(job.status).toBe('success');
      return job.result.total;
    };
    expect(await run({})).toEqual({ value: 1234.5, currency: null });
    expect(await run({ default_currency: 'EUR' })).toEqual({ value: 1234.5, currency: 'EUR' });
  });

  it('gives a sandbox key a synthetic result and leaves the wallet untouched', async () => {
    const before = await settledWallet();
    const sub = await submit(sandbox, { extraction_schema: SCHEMA });
    expect(await wallet()).toEqual(before);
    expect((await upload(sub.upload_url)).status).toBe(200);
    await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', sandbox).expect(200);
    const job = await waitTerminal(sub.job_id, sandbox);
    expect(job.status).toBe('success');
    expect(Object.keys(job.result).sort()).toEqual(SCHEMA.fields.map((f) => f.key).sort());
    expect(typeof job.result.quantity).toBe('number');
    expect(job.result.invoice_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(job.result.total).toEqual({ value: expect.any(Number), currency: expect.any(String) });
    await expectEventually(async () => expect(await wallet()).toEqual(before));
  });

  it("answers status, version, aggregated health and the gateway's own probes without credentials", async () => {
    expect((await api().get('/status').expect(200)).body).toEqual({ status: 'API is running', timestamp: expect.any(String) });
    expect((await api().get('/version').expect(200)).body).toEqual({
      version: expect.stringMatching(/^1\.\d+\.\d+/),
      environment: 'development',
      timestamp: expect.any(String),
    });
    const health = await api().get('/health').expect(200);
    expect(health.body).toMatchObject({
      status: 'API is running',
      checks: { database: { status: 'up' }, queue: { status: 'up' }, storage: { status: 'up' }, model: { status: 'up' } },
    });
    const root = request(stack.api.replace(/\/api\/v1$/, ''));
    const ready = await root.get('/readyz').expect(200);
    expect(ready.body).toMatchObject({
      status: 'ok',
      details: { database: { status: 'up' }, schema: { status: 'up' }, queue: { status: 'up' } },
    });
    expect((await root.get('/livez').expect(200)).body).toMatchObject({ status: 'ok' });
    expect((await api().get('/llms.txt').expect(200)).text).toContain('POST /extract');
  });

  it('keeps each service in its own Postgres schema, created by migrations', async () => {
    const client = new pg.Client({ connectionString: stack.env.DATABASE_URL });
    await client.connect();
    try {
      const { rows } = await client.query<{ table_schema: string; table_name: string }>(
        `SELECT table_schema, table_name FROM information_schema.tables
          WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1, 2`,
      );
      const bySchema: Record<string, string[]> = {};
      for (const r of rows) (bySchema[r.table_schema] ??= []).push(r.table_name);
      // Nothing in public; one schema per owning service, each with its own migrations table.
      expect(Object.keys(bySchema).sort()).toEqual(['artifact', 'billing', 'identity', 'template', 'webhook']);
      for (const tables of Object.values(bySchema)) expect(tables).toContain('migrations');
      const fks = await client.query(
        `SELECT tc.table_schema, ccu.table_schema AS ref_schema FROM information_schema.table_constraints tc
           JOIN information_schema.constraint_column_usage ccu ON tc.constraint_name = ccu.constraint_name
          WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema <> ccu.table_schema`,
      );
      expect(fks.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });

  describe('negative cases through HTTP', () => {
    it('storage refuses a PUT with the wrong Content-Type (403)', async () => {
      const sub = await submit(live, { extraction_schema: SCHEMA });
      const r = await upload(sub.upload_url, 'text/plain');
      expect(r.status).toBe(403);
      expect(await r.text()).toContain('SignatureDoesNotMatch');
    });

    it('confirm before upload is 409; another account confirming is 404', async () => {
      const sub = await submit(live, { extraction_schema: SCHEMA });
      const early = await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', live).expect(409);
      expect(early.body).toMatchObject({ statusCode: 409, code: 'upload_missing' });
      const foreign = await api()
        .post(`/artifacts/${sub.artifact_id}/confirm-upload`)
        .set('authorization', basic(other.live.api_key, other.live.secret))
        .expect(404);
      expect(foreign.body.code).toBe('artifact_not_found');
    });

    it('another account reading a job gets 403', async () => {
      const sub = await submit(live, { extraction_schema: SCHEMA });
      const r = await api().get(`/job/${sub.job_id}`).set('authorization', basic(other.live.api_key, other.live.secret)).expect(403);
      expect(r.body.code).toBe('forbidden');
    });

    it('both template_id and extraction_schema is 400; a malformed body is 422', async () => {
      const both = await api()
        .post('/extract')
        .set('authorization', live)
        .send({ filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 10, template_id: 'tpl_x', extraction_schema: SCHEMA })
        .expect(400);
      expect(both.body).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        code: 'template_and_schema_both_set',
        request_id: expect.any(String),
      });
      const malformed = await api()
        .post('/extract')
        .set('authorization', live)
        .set('content-type', 'application/json')
        .send('{"filename": ')
        .expect(422);
      expect(malformed.body.code).toBe('invalid_body');
      const wrongTypes = await api()
        .post('/extract')
        .set('authorization', live)
        .send({ filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 'big' })
        .expect(422);
      expect(wrongTypes.body.code).toBe('invalid_body');
    });

    it('wrong key and wrong secret get 401 with identical bodies', async () => {
      const rid = 'req_identical_401_check';
      const wrongSecret = await api()
        .get('/wallet')
        .set('x-request-id', rid)
        .set('authorization', basic(acct.live.api_key, 'sk_wrong'))
        .expect(401);
      const wrongKey = await api()
        .get('/wallet')
        .set('x-request-id', rid)
        .set('authorization', basic('dk_live_nope', acct.live.secret))
        .expect(401);
      const missing = await api().get('/wallet').set('x-request-id', rid).expect(401);
      expect(wrongSecret.body).toEqual(wrongKey.body);
      expect(missing.body).toEqual(wrongKey.body);
      expect(wrongKey.body).toMatchObject({ statusCode: 401, code: 'unauthorized' });
    });

    it('a frozen wallet gets 402', async () => {
      await stack.admin(['freeze', '--account', other.account_id, '--reason', 'compliance_review']);
      const otherAuth = basic(other.live.api_key, other.live.secret);
      expect((await api().get('/wallet').set('authorization', otherAuth).expect(200)).body).toMatchObject({
        is_frozen: true,
        frozen_reason: 'compliance_review',
      });
      const r = await api()
        .post('/extract')
        .set('authorization', otherAuth)
        .send({ filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 10, extraction_schema: SCHEMA })
        .expect(402);
      expect(r.body.code).toBe('wallet_frozen');
    });

    it('a webhook URL over http or to a private IP is 400', async () => {
      for (const url of [
        'http://hooks.example.com/x',
        'https://10.0.0.1/hook',
        'https://127.0.0.1/hook',
        'https://169.254.169.254/latest',
      ]) {
        const r = await api()
          .post('/webhooks/')
          .set('authorization', live)
          .send({ url, events: ['extraction.completed'] });
        expect({ url, status: r.status }).toEqual({ url, status: 400 });
        expect(r.body.code).toBe('invalid_webhook_url');
      }
      const viaExtract = await api().post('/extract').set('authorization', live).send({
        filename: 'a.pdf',
        artifact_type: 'application/pdf',
        artifact_size: 10,
        extraction_schema: SCHEMA,
        webhook_url: 'https://192.168.1.10/x',
      });
      expect(viaExtract.status).toBe(400);
    });
  });
});
