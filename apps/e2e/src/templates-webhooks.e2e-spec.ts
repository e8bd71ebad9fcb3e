import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { expectEventually } from '@docket/testing';
import { Webhook } from 'standardwebhooks';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack, type E2eStack } from './stack.test-helper.js';

const FIELDS = [
  { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
  { key: 'vendor', label: 'Vendor', data_type: 'string' },
  { key: 'total', label: 'Total', data_type: 'currency' },
  { key: 'paid', label: 'Paid', data_type: 'boolean' },
];

const INVOICE_LINES = ['Vendor: Acme Corp', 'Invoice Number: INV-2002', 'Invoice Date: 2024-03-15', 'Total: $99.00'];

jest.setTimeout(180_000);

describe('Templates, webhooks and usage through public HTTP', () => {
  const suite = useE2eStack('Templates');
  const { api } = apiHelpers(suite);
  let stack: E2eStack;
  let live: string;
  let otherLive: string;
  let pdf: Buffer;

  beforeAll(async () => {
    ({ stack, live, otherLive } = suite);
    pdf = await invoicePdf(INVOICE_LINES);
  });

  const keys = (t: { schema_definition: { fields: { key: string }[] } }) => t.schema_definition.fields.map((f) => f.key);

  async function createTemplate(body: Record<string, unknown>, auth = live) {
    return (
      await api()
        .post('/templates/')
        .set('authorization', auth)
        .send({ fields: FIELDS, ...body })
        .expect(201)
    ).body;
  }

  async function listTemplates(query: string, auth = live) {
    return (await api().get(`/templates/${query}`).set('authorization', auth).expect(200)).body as {
      id: string;
      name: string;
      status: string;
    }[];
  }

  describe('templates', () => {
    it('lists categories (routed before :template_id)', async () => {
      const r = await api().get('/templates/categories').set('authorization', live).expect(200);
      expect(r.body).toEqual(['invoice', 'receipt', 'id_card', 'contract', 'custom']);
      await api().get('/templates/categories').expect(401);
    });

    it('lists with category, case-insensitive prefix search, limit and offset; archived hidden by default', async () => {
      const a = await createTemplate({ name: 'Supplier invoice', description: 'EU suppliers', category: 'invoice' });
      const b = await createTemplate({ name: 'Receipts', description: 'Till receipts', category: 'receipt' });
      const c = await createTemplate({ name: 'Other thing', description: 'Misc' });
      await createTemplate({ name: 'Foreign template' }, otherLive);

      const all = await listTemplates('');
      expect(all.map((t) => t.id).sort()).toEqual([a.id, b.id, c.id].sort());
      expect((await listTemplates('?category=receipt')).map((t) => t.id)).toEqual([b.id]);
      expect((await listTemplates('?search=SUPP')).map((t) => t.id)).toEqual([a.id]);
      expect((await listTemplates('?search=till')).map((t) => t.id)).toEqual([b.id]);
      expect(await listTemplates('?search=voice')).toEqual([]); // prefix, not substring
      expect(await listTemplates('?limit=1')).toHaveLength(1);
      const page2 = await listTemplates('?limit=2&offset=2');
      expect(page2).toHaveLength(1);
      expect(all.map((t) => t.id)).toContain(page2[0].id);

      // PUT never changes the schema; archive hides from the default listing.
      const archived = await api()
        .put(`/templates/${c.id}`)
        .set('authorization', live)
        .send({ status: 'archived', description: 'Old', tags: ['x'] })
        .expect(200);
      expect(archived.body).toMatchObject({
        id: c.id,
        status: 'archived',
        description: 'Old',
        tags: ['x'],
        version: 1,
        name: 'Other thing',
      });
      expect(archived.body.schema_definition).toEqual(c.schema_definition);
      expect((await listTemplates('')).map((t) => t.id)).not.toContain(c.id);
      expect((await listTemplates('?include_archived=true')).map((t) => t.id)).toContain(c.id);
      const back = await api().put(`/templates/${c.id}`).set('authorization', live).send({ status: 'active' }).expect(200);
      expect(back.body).toMatchObject({ status: 'active', description: 'Old' });
    });

    it('creates a template from `name` alone with the documented defaults; a template field needs its label (spec §2.3, §4.5)', async () => {
      const r = await api().post('/templates/').set('authorization', live).send({ name: 'Name only' }).expect(201);
      expect(r.body).toMatchObject({
        name: 'Name only',
        status: 'active',
        version: 1,
        category: 'custom',
        is_public: false,
        tags: [],
        schema_definition: { fields: [] },
        settings: { confidence_threshold: 0.7, ocr_engine: 'default' },
      });
      const noLabel = { key: 'po_number', data_type: 'string' };
      const missing = await api()
        .post('/templates/')
        .set('authorization', live)
        .send({ name: 'No label', fields: [noLabel] })
        .expect(400);
      expect(missing.body).toMatchObject({ code: 'validation_failed', details: [{ field: 'fields.0.label' }] });
      await api()
        .patch(`/templates/${r.body.id}/schema`)
        .set('authorization', live)
        .send({ add_fields: [noLabel] })
        .expect(400);
      const patched = await api()
        .patch(`/templates/${r.body.id}/schema`)
        .set('authorization', live)
        .send({ add_fields: [{ ...noLabel, label: 'PO Number' }] })
        .expect(200);
      expect(patched.body).toMatchObject({ version: 2, schema_definition: { fields: [{ key: 'po_number', label: 'PO Number' }] } });
    });

    it('rejects bad list queries with 422', async () => {
      for (const q of ['limit=0', 'limit=abc', 'limit=101', 'offset=-1', 'category=poems']) {
        const r = await api().get(`/templates/?${q}`).set('authorization', live);
        expect({ q, status: r.status }).toEqual({ q, status: 422 });
        expect(r.body).toMatchObject({ statusCode: 422, code: expect.any(String), request_id: expect.any(String) });
      }
    });

    it('patches the schema: add, update, remove; version + 1 each time', async () => {
      const t = await createTemplate({ name: 'Patchable' });
      const added = await api()
        .patch(`/templates/${t.id}/schema`)
        .set('authorization', live)
        .send({ add_fields: [{ key: 'po_number', label: 'PO Number', data_type: 'string' }], remove_fields: ['paid', 'not_there'] })
        .expect(200);
      expect(added.body.version).toBe(2);
      expect(keys(added.body)).toEqual(['invoice_number', 'vendor', 'total', 'po_number']);

      const updated = await api()
        .patch(`/templates/${t.id}/schema`)
        .set('authorization', live)
        .send({ update_fields: [{ key: 'invoice_number', label: 'Number', data_type: 'string' }] })
        .expect(200);
      expect(updated.body.version).toBe(3);
      // The whole field is replaced: `required` was omitted, so it is reset.
      expect(updated.body.schema_definition.fields[0]).toMatchObject({ key: 'invoice_number', label: 'Number', data_type: 'string' });
      expect(updated.body.schema_definition.fields[0].required ?? false).toBe(false);
      expect((await api().get(`/templates/${t.id}`).set('authorization', live).expect(200)).body.version).toBe(3);

      const dup = await api()
        .patch(`/templates/${t.id}/schema`)
        .set('authorization', live)
        .send({ add_fields: [{ key: 'vendor', label: 'Vendor again', data_type: 'string' }] })
        .expect(400);
      expect(dup.body).toMatchObject({ statusCode: 400, code: 'duplicate_field_key' });
      const missing = await api()
        .patch(`/templates/${t.id}/schema`)
        .set('authorization', live)
        .send({ update_fields: [{ key: 'nope', label: 'Nope', data_type: 'string' }] })
        .expect(404);
      expect(missing.body).toMatchObject({ statusCode: 404, code: 'field_not_found' });
      const badType = await api()
        .patch(`/templates/${t.id}/schema`)
        .set('authorization', live)
        .send({ add_fields: [{ key: 'x', label: 'X', data_type: 'money' }] })
        .expect(400);
      expect(badType.body.code).toBe('invalid_data_type');
      const lookaround = await api()
        .patch(`/templates/${t.id}/schema`)
        .set('authorization', live)
        .send({ add_fields: [{ key: 'x', label: 'X', data_type: 'string', validation: { regex: '^(?!VOID)\\w+$' } }] })
        .expect(400);
      expect(lookaround.body).toMatchObject({ statusCode: 400, code: 'invalid_regex', message: expect.stringContaining('RE2') });
      await api().patch(`/templates/${t.id}/schema`).set('authorization', live).send({ add_fields: 'vendor' }).expect(422);
      // Failed patches change nothing.
      expect((await api().get(`/templates/${t.id}`).set('authorization', live).expect(200)).body.version).toBe(3);
    });

    it('accepts the documented ocr_engine values and rejects others with 422 (ADR 0001 §7)', async () => {
      const t = await createTemplate({ name: 'OCR backend', settings: { ocr_engine: 'tesseract.js' } });
      expect(t.settings.ocr_engine).toBe('tesseract.js');
      const bad = await api()
        .post('/templates/')
        .set('authorization', live)
        .send({ fields: FIELDS, name: 'Bad OCR', settings: { ocr_engine: 'abbyy' } })
        .expect(422);
      expect(bad.body).toMatchObject({ statusCode: 422, code: 'invalid_body' });
    });

    it('clones into a draft with a fresh id and slug (201); include_settings=false resets settings', async () => {
      const t = await createTemplate({ name: 'Clonable', category: 'invoice', settings: { confidence_threshold: 0.9, auto_save: true } });
      const c = await api().post(`/templates/${t.id}/clone`).set('authorization', live).send({}).expect(201);
      expect(c.body).toMatchObject({
        name: 'Clonable (clone)',
        status: 'draft',
        version: 1,
        category: 'invoice',
        settings: { confidence_threshold: 0.9, auto_save: true },
      });
      expect(c.body.id).not.toBe(t.id);
      expect(c.body.slug).not.toBe(t.slug);
      expect(c.body.schema_definition).toEqual(t.schema_definition);

      const bare = await api().post(`/templates/${t.id}/clone`).set('authorization', live).expect(201);
      expect(bare.body.name).toBe('Clonable (clone)');

      const reset = await api()
        .post(`/templates/${t.id}/clone`)
        .set('authorization', live)
        .send({ new_name: 'Fresh copy', include_settings: false })
        .expect(201);
      expect(reset.body).toMatchObject({
        name: 'Fresh copy',
        status: 'draft',
        settings: { confidence_threshold: 0.7, auto_save: false, ocr_engine: 'default' },
      });

      // Promotion draft → active.
      expect(
        (await api().put(`/templates/${reset.body.id}`).set('authorization', live).send({ status: 'active' }).expect(200)).body.status,
      ).toBe('active');
    });

    it('deletes soft and hard with 204 and no body; then 404', async () => {
      const soft = await createTemplate({ name: 'Soft delete me' });
      const hard = await createTemplate({ name: 'Hard delete me' });

      const r1 = await api().delete(`/templates/${soft.id}`).set('authorization', live).expect(204);
      expect(r1.text).toBe('');
      expect(r1.headers['content-length'] ?? '0').toBe('0');
      const gone = await api().get(`/templates/${soft.id}`).set('authorization', live).expect(404);
      expect(gone.body.code).toBe('template_not_found');
      expect((await listTemplates('?include_archived=true')).map((t) => t.id)).not.toContain(soft.id);

      const r2 = await api().delete(`/templates/${hard.id}?hard_delete=true`).set('authorization', live).expect(204);
      expect(r2.text).toBe('');
      await api().get(`/templates/${hard.id}`).set('authorization', live).expect(404);
      await api().delete(`/templates/${hard.id}?hard_delete=false`).set('authorization', live).expect(404);

      const keep = await createTemplate({ name: 'Keep me' });
      await api().delete(`/templates/${keep.id}?hard_delete=maybe`).set('authorization', live).expect(422);
      await api().get(`/templates/${keep.id}`).set('authorization', live).expect(200);
    });

    it("answers 403 for another account's template and 404 for an unknown one", async () => {
      const mine = await createTemplate({ name: 'Private template' });
      const foreign = [
        api().get(`/templates/${mine.id}`),
        api().put(`/templates/${mine.id}`).send({ name: 'Hijacked' }),
        api()
          .patch(`/templates/${mine.id}/schema`)
          .send({ remove_fields: ['vendor'] }),
        api().post(`/templates/${mine.id}/clone`).send({}),
        api().delete(`/templates/${mine.id}`),
      ];
      for (const req of foreign) {
        const r = await req.set('authorization', otherLive);
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'forbidden' });
      }
      expect((await listTemplates('', otherLive)).map((t) => t.id)).not.toContain(mine.id);
      const still = await api().get(`/templates/${mine.id}`).set('authorization', live).expect(200);
      expect(still.body).toMatchObject({ name: 'Private template', version: 1 });

      const unknown = 'tpl_01jd3q8y4n6z2xk7m5t9w0zzzz';
      const missing = [
        api().get(`/templates/${unknown}`),
        api().put(`/templates/${unknown}`).send({ name: 'Nothing' }),
        api()
          .patch(`/templates/${unknown}/schema`)
          .send({ remove_fields: ['vendor'] }),
        api().post(`/templates/${unknown}/clone`).send({}),
        api().delete(`/templates/${unknown}`),
      ];
      for (const req of missing) {
        const r = await req.set('authorization', live);
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 'template_not_found' });
      }
    });
  });

  describe('webhooks, deliveries, stats and usage', () => {
    async function createWebhook(auth = live, body: Record<string, unknown> = {}) {
      const r = await api()
        .post('/webhooks/')
        .set('authorization', auth)
        .send({ url: stack.receiverUrl, events: ['extraction.completed'], ...body })
        .expect(201);
      return r.body as { id: string; secret_key: string; url: string; events: string[] };
    }

    it('lists, patches, rotates and deletes; 403 for another account, 404 for unknown or deleted', async () => {
      const wh = await createWebhook(live, { description: 'Accounts payable' });
      expect(wh.secret_key).toMatch(/^whsec_/);

      const list = await api().get('/webhooks/').set('authorization', live).expect(200);
      const listed = list.body.find((w: { id: string }) => w.id === wh.id);
      expect(listed).toMatchObject({
        id: wh.id,
        url: stack.receiverUrl,
        description: 'Accounts payable',
        events: ['extraction.completed'],
        is_active: true,
      });
      expect(listed).not.toHaveProperty('secret_key');
      expect(
        (await api().get('/webhooks/').set('authorization', otherLive).expect(200)).body.map((w: { id: string }) => w.id),
      ).not.toContain(wh.id);

      const patched = await api()
        .patch(`/webhooks/${wh.id}`)
        .set('authorization', live)
        .send({ description: 'AP team', is_active: false, events: ['extraction.completed', 'extraction.failed'] })
        .expect(200);
      expect(patched.body).toMatchObject({ id: wh.id, description: 'AP team', is_active: false, url: stack.receiverUrl });
      expect([...patched.body.events].sort()).toEqual(['extraction.completed', 'extraction.failed']);
      expect(patched.body).not.toHaveProperty('secret_key');
      const badUrl = await api()
        .patch(`/webhooks/${wh.id}`)
        .set('authorization', live)
        .send({ url: 'http://hooks.example.com/x' })
        .expect(400);
      expect(badUrl.body.code).toBe('invalid_webhook_url');
      await api().patch(`/webhooks/${wh.id}`).set('authorization', live).send({ events: [] }).expect(400);
      await api().patch(`/webhooks/${wh.id}`).set('authorization', live).send({ is_active: 'nope' }).expect(422);

      const rotated = await api().post(`/webhooks/${wh.id}/rotate-secret`).set('authorization', live).expect(200);
      expect(Object.keys(rotated.body).sort()).toEqual(['events', 'id', 'secret_key', 'url']);
      expect(rotated.body).toMatchObject({ id: wh.id, url: stack.receiverUrl });
      expect(rotated.body.secret_key).toMatch(/^whsec_/);
      expect(rotated.body.secret_key).not.toBe(wh.secret_key);

      const foreign = [
        api().patch(`/webhooks/${wh.id}`).send({ description: 'Hijacked' }),
        api().post(`/webhooks/${wh.id}/rotate-secret`),
        api().get(`/webhooks/${wh.id}/deliveries`),
        api().get(`/webhooks/${wh.id}/stats`),
        api().delete(`/webhooks/${wh.id}`),
      ];
      for (const req of foreign) {
        const r = await req.set('authorization', otherLive);
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 403, code: 'forbidden' });
      }

      const del = await api().delete(`/webhooks/${wh.id}`).set('authorization', live).expect(204);
      expect(del.text).toBe('');
      expect((await api().get('/webhooks/').set('authorization', live).expect(200)).body.map((w: { id: string }) => w.id)).not.toContain(
        wh.id,
      );
      const missing = [
        api().patch(`/webhooks/${wh.id}`).send({ description: 'Gone' }),
        api().post(`/webhooks/${wh.id}/rotate-secret`),
        api().get(`/webhooks/${wh.id}/deliveries`),
        api().get(`/webhooks/${wh.id}/stats`),
        api().delete(`/webhooks/${wh.id}`),
        api().get('/webhooks/wh_01jd3q8y4n6z2xk7m5t9w0zzzz/stats'),
      ];
      for (const req of missing) {
        const r = await req.set('authorization', live);
        expect({ status: r.status, code: r.body.code }).toEqual({ status: 404, code: 'webhook_not_found' });
      }
    });

    it('rejects bad deliveries/stats/usage queries with 422', async () => {
      const wh = await createWebhook();
      for (const path of [
        `/webhooks/${wh.id}/deliveries?limit=0`,
        `/webhooks/${wh.id}/deliveries?limit=201`,
        `/webhooks/${wh.id}/deliveries?limit=abc`,
        `/webhooks/${wh.id}/deliveries?status_filter=maybe`,
        `/webhooks/${wh.id}/deliveries?offset=-1`,
        `/webhooks/${wh.id}/stats?days=0`,
        `/webhooks/${wh.id}/stats?days=91`,
        `/webhooks/${wh.id}/stats?days=x`,
        '/usage?period=1y',
      ]) {
        const r = await api().get(path).set('authorization', live);
        expect({ path, status: r.status }).toEqual({ path, status: 422 });
      }
      // Fresh webhook: empty log and zero stats.
      expect((await api().get(`/webhooks/${wh.id}/deliveries`).set('authorization', live).expect(200)).body).toEqual([]);
      expect((await api().get(`/webhooks/${wh.id}/stats`).set('authorization', live).expect(200)).body).toEqual({
        total_events: 0,
        success_rate: 0,
        failures_last_24h: 0,
        avg_latency_ms: 0,
      });
      await api().delete(`/webhooks/${wh.id}`).set('authorization', live).expect(204);
    });

    it('one extraction with webhook_id: delivery signed with the rotated secret, deliveries and stats, usage counts', async () => {
      const usage0 = await api().get('/usage').set('authorization', live).expect(200);
      expect(usage0.body).toMatchObject({ period: '30d', total_jobs: 0, successful_jobs: 0, failed_jobs: 0, total_spend: 0 });
      expect(Date.parse(usage0.body.period_end) - Date.parse(usage0.body.period_start)).toBe(30 * 24 * 3600 * 1000);

      const wh = await createWebhook();
      const rotated = (await api().post(`/webhooks/${wh.id}/rotate-secret`).set('authorization', live).expect(200)).body;

      const sub = await api()
        .post('/extract')
        .set('authorization', live)
        .send({
          filename: 'invoice.pdf',
          artifact_type: 'application/pdf',
          artifact_size: pdf.length,
          extraction_schema: { fields: FIELDS },
          webhook_id: wh.id,
        })
        .expect(202);
      expect(sub.body.webhook_signing_secret).toBeNull();
      const put = await fetch(sub.body.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf });
      expect(put.status).toBe(200);
      await api().post(`/artifacts/${sub.body.artifact_id}/confirm-upload`).set('authorization', live).expect(200);

      const job = await expectEventually(
        async () => {
          const r = await api().get(`/job/${sub.body.job_id}`).set('authorization', live).expect(200);
          if (!['success', 'failed', 'cancelled', 'expired'].includes(r.body.status)) throw new Error(`status ${r.body.status}`);
          return r.body;
        },
        { timeoutMs: 60_000, intervalMs: 200, what: 'job terminal' },
      );
      expect(job.status).toBe('success');

      const delivery = await expectEventually(
        () => {
          const d = stack.deliveries.find((x) => String(x.headers['x-webhook-id']).startsWith(sub.body.job_id));
          if (!d) throw new Error('no delivery yet');
          return d;
        },
        { timeoutMs: 30_000 },
      );
      expect(delivery.headers['x-webhook-id']).toBe(`${sub.body.job_id}:extraction.completed`);
      const payload = new Webhook(rotated.secret_key).verify(delivery.body, {
        'webhook-id': String(delivery.headers['webhook-id']),
        'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
        'webhook-signature': String(delivery.headers['webhook-signature']),
      }) as { type: string; data: { job_id: string } };
      expect(payload).toMatchObject({ type: 'extraction.completed', data: { job_id: sub.body.job_id } });

      const deliveries = await expectEventually(async () => {
        const r = await api().get(`/webhooks/${wh.id}/deliveries`).set('authorization', live).expect(200);
        if (!r.body.length) throw new Error('no delivery logged yet');
        return r.body;
      });
      expect(deliveries).toHaveLength(1);
      expect(deliveries[0]).toMatchObject({
        attempt_number: 1,
        event_type: 'extraction.completed',
        url: stack.receiverUrl,
        job_id: sub.body.job_id,
        response_status_code: 200,
        is_success: true,
        duration_ms: expect.any(Number),
        attempted_at: expect.any(String),
      });
      const q = (query: string) => api().get(`/webhooks/${wh.id}/deliveries?${query}`).set('authorization', live).expect(200);
      expect((await q('status_filter=success')).body).toHaveLength(1);
      expect((await q('status_filter=failed')).body).toEqual([]);
      expect((await q('event_type=extraction.completed&limit=1')).body).toHaveLength(1);
      expect((await q('event_type=extraction.failed')).body).toEqual([]);
      expect((await q('offset=1')).body).toEqual([]);

      const stats = await api().get(`/webhooks/${wh.id}/stats`).set('authorization', live).expect(200);
      expect(stats.body).toEqual({ total_events: 1, success_rate: 100, failures_last_24h: 0, avg_latency_ms: expect.any(Number) });
      expect(stats.body.avg_latency_ms).toBeGreaterThanOrEqual(0);
      expect((await api().get(`/webhooks/${wh.id}/stats?days=1`).set('authorization', live).expect(200)).body.total_events).toBe(1);

      // Usage once the job is settled: one successful job, 1 page x 1 credit.
      const usage = await expectEventually(async () => {
        const r = await api().get('/usage?period=7d').set('authorization', live).expect(200);
        expect(r.body).toMatchObject({ period: '7d', total_jobs: 1, successful_jobs: 1, failed_jobs: 0, total_spend: 1 });
        return r.body;
      });
      expect(Date.parse(usage.period_end) - Date.parse(usage.period_start)).toBe(7 * 24 * 3600 * 1000);
      expect((await api().get('/usage?period=90d').set('authorization', live).expect(200)).body).toMatchObject({
        period: '90d',
        total_jobs: 1,
        total_spend: 1,
      });
      expect((await api().get('/usage').set('authorization', otherLive).expect(200)).body).toMatchObject({ total_jobs: 0, total_spend: 0 });
      await api().get('/usage').expect(401);
    });
  });
});
