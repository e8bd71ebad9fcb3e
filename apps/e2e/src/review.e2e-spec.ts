import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { expectEventually } from '@docket/testing';
import { Webhook } from 'standardwebhooks';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

// Invented document text; `order_ref` is required and printed nowhere, so every result needs review.
const LINES = ['Supplier: Quillfeather Paper Works', 'Invoice Number: QF-7781', 'Invoice Date: 2025-02-11', 'Total: EUR 412.30'];
const FIELDS = [
  { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', validation: { regex: '^[A-Z]{2}-\\d+$' } },
  { key: 'invoice_date', label: 'Invoice Date', data_type: 'date' },
  { key: 'total', label: 'Total', data_type: 'currency', validation: { min_value: 0 } },
  { key: 'order_ref', label: 'Order Reference', data_type: 'string', required: true },
  { key: 'paid', label: 'Paid', data_type: 'boolean' },
];

jest.setTimeout(240_000);

describe('Review API: queue, corrections as result versions, approval (public HTTP)', () => {
  const suite = useE2eStack('Review');
  const { api, settledWallet, waitTerminal } = apiHelpers(suite);
  let pdf: Buffer;
  let templateId: string;
  let otherTemplateId: string;
  let webhookSecret: string;
  const jobs: string[] = [];

  async function runJob(tplId: string): Promise<string> {
    const sub = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename: 'supplier-invoice.pdf', artifact_type: 'application/pdf', artifact_size: pdf.length, template_id: tplId })
      .expect(202);
    const put = await fetch(sub.body.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf });
    expect(put.status).toBe(200);
    await api().post(`/artifacts/${sub.body.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(200);
    const job = await waitTerminal(sub.body.job_id);
    expect(job).toMatchObject({ status: 'success', needs_review: true, result_version: 1 });
    return sub.body.job_id;
  }

  beforeAll(async () => {
    pdf = await invoicePdf(LINES);
    const create = (name: string) => api().post('/templates/').set('authorization', suite.live).send({ name, fields: FIELDS }).expect(201);
    templateId = (await create('Supplier invoices')).body.id;
    otherTemplateId = (await create('Other invoices')).body.id;
    const hook = await api()
      .post('/webhooks/')
      .set('authorization', suite.live)
      .send({ url: suite.stack.receiverUrl, events: ['job.corrected'] })
      .expect(201);
    webhookSecret = hook.body.secret_key;
    jobs.push(await runJob(templateId), await runJob(templateId), await runJob(otherTemplateId));
  });

  it('lists jobs that need review, newest first, paged, filtered by template, never another account’s', async () => {
    const all = await api().get('/review').set('authorization', suite.live).expect(200);
    expect(all.body).toMatchObject({ total: 3, page: 1, pages: 1 });
    expect(all.body.items.map((i: { job_id: string }) => i.job_id)).toEqual([...jobs].reverse());
    expect(all.body.items[0]).toMatchObject({ filename: 'supplier-invoice.pdf', template_id: otherTemplateId, result_version: 1 });

    const paged = await api().get('/review?size=2&page=2').set('authorization', suite.live).expect(200);
    expect(paged.body).toMatchObject({ total: 3, page: 2, size: 2, pages: 2 });
    expect(paged.body.items.map((i: { job_id: string }) => i.job_id)).toEqual([jobs[0]]);

    const filtered = await api().get(`/review?template_id=${templateId}`).set('authorization', suite.live).expect(200);
    expect(filtered.body.items.map((i: { job_id: string }) => i.job_id)).toEqual([jobs[1], jobs[0]]);

    const other = await api().get('/review').set('authorization', suite.otherLive).expect(200);
    expect(other.body).toMatchObject({ items: [], total: 0 });
    const bad = await api().get('/review?size=0').set('authorization', suite.live).expect(422);
    expect(bad.body.code).toBe('invalid_query');
  });

  it('refuses invalid corrections with 422 invalid_correction and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ no_such_field: 'x' }, 'no_such_field'],
      [{ invoice_number: 'not a number' }, 'invoice_number'],
      [{ invoice_number: 42 }, 'invoice_number'],
      [{ invoice_date: '2025-02-30' }, 'invoice_date'],
      [{ total: { value: -5, currency: 'EUR' } }, 'total'],
      [{ total: 12 }, 'total'],
      [{ order_ref: null }, 'order_ref'],
      [{ paid: 'yes' }, 'paid'],
    ];
    for (const [fields, field] of cases) {
      const res = await api().post(`/job/${jobs[0]}/corrections`).set('authorization', suite.live).send({ fields }).expect(422);
      expect(res.body).toMatchObject({ statusCode: 422, code: 'invalid_correction', details: [expect.objectContaining({ field })] });
    }
    const empty = await api().post(`/job/${jobs[0]}/corrections`).set('authorization', suite.live).send({ fields: {} }).expect(422);
    expect(empty.body.code).toBe('invalid_correction');
    await api().post(`/job/${jobs[0]}/corrections`).set('authorization', suite.live).send({ fields: 'x' }).expect(422);

    const versions = await api().get(`/job/${jobs[0]}/results`).set('authorization', suite.live).expect(200);
    expect(versions.body.versions).toHaveLength(1);
    expect(versions.body.needs_review).toBe(true);
  });

  it('answers 403 for another account’s job and 404 for an unknown one, on every review route', async () => {
    const routes = [
      (auth: string, id: string) =>
        api()
          .post(`/job/${id}/corrections`)
          .set('authorization', auth)
          .send({ fields: { order_ref: 'PO-1' } }),
      (auth: string, id: string) => api().post(`/job/${id}/approve`).set('authorization', auth),
      (auth: string, id: string) => api().get(`/job/${id}/results`).set('authorization', auth),
    ];
    for (const route of routes) {
      expect((await route(suite.otherLive, jobs[0])).status).toBe(403);
      expect((await route(suite.live, 'job_01jzzzzzzzzzzzzzzzzzzzzzzz')).status).toBe(404);
    }
    // Nothing changed for the owner.
    const job = await api().get(`/job/${jobs[0]}`).set('authorization', suite.live).expect(200);
    expect(job.body).toMatchObject({ result_version: 1, needs_review: true });
  });

  it('stores each correction as a new version, keeps the engine’s reading, and changes no money', async () => {
    const walletBefore = await settledWallet();
    const engine = (await api().get(`/job/${jobs[0]}`).set('authorization', suite.live).expect(200)).body.result;

    const first = await api()
      .post(`/job/${jobs[0]}/corrections`)
      .set('authorization', suite.live)
      .send({ fields: { order_ref: 'PO-5512', total: { value: 412.3, currency: 'EUR' } } })
      .expect(200);
    expect(first.body).toMatchObject({ status: 'success', result_version: 2, needs_review: false });
    expect(first.body.result).toMatchObject({ order_ref: 'PO-5512' });

    const second = await api()
      .post(`/job/${jobs[0]}/corrections`)
      .set('authorization', suite.sandbox)
      .send({ fields: { invoice_number: 'QF-7782', paid: true } })
      .expect(200);
    expect(second.body.result_version).toBe(3);

    const job = (await api().get(`/job/${jobs[0]}`).set('authorization', suite.live).expect(200)).body;
    expect(job).toMatchObject({ result_version: 3, needs_review: false });
    expect(job.result).toMatchObject({ order_ref: 'PO-5512', invoice_number: 'QF-7782', paid: true });

    const history = (await api().get(`/job/${jobs[0]}/results`).set('authorization', suite.live).expect(200)).body;
    expect(history.versions.map((v: { version: number; source: string }) => [v.version, v.source])).toEqual([
      [1, 'engine'],
      [2, 'correction'],
      [3, 'correction'],
    ]);
    expect(history.versions[0]).toMatchObject({ api_key_id: null, changed_fields: [], result: engine });
    expect(history.versions[1].changed_fields).toContain('order_ref');
    expect(history.versions[2].changed_fields).toEqual(['invoice_number', 'paid']);
    expect(history.versions[1].api_key_id).toMatch(/^key_/);
    expect(history.versions[2].api_key_id).toMatch(/^key_/);
    expect(history.versions[2].api_key_id).not.toBe(history.versions[1].api_key_id);
    expect(history).toMatchObject({ needs_review: false, reviewed_by: history.versions[2].api_key_id });
    expect(Object.keys(history.fields)).toEqual(expect.arrayContaining(['invoice_number']));

    // The corrected job left the queue; billing saw nothing.
    const queue = (await api().get('/review').set('authorization', suite.live).expect(200)).body;
    expect(queue.items.map((i: { job_id: string }) => i.job_id)).not.toContain(jobs[0]);
    expect(await settledWallet()).toEqual(walletBefore);
  });

  it('approves without a new version, and delivers job.corrected only to webhooks that asked for it', async () => {
    const approved = await api().post(`/job/${jobs[1]}/approve`).set('authorization', suite.live).expect(200);
    expect(approved.body).toMatchObject({ result_version: 1, needs_review: false });
    const history = (await api().get(`/job/${jobs[1]}/results`).set('authorization', suite.live).expect(200)).body;
    expect(history.versions).toHaveLength(1);
    expect(history.reviewed_by).toMatch(/^key_/);
    await api().post(`/job/${jobs[1]}/approve`).set('authorization', suite.live).expect(200);
    const queue = (await api().get('/review').set('authorization', suite.live).expect(200)).body;
    expect(queue.items.map((i: { job_id: string }) => i.job_id)).toEqual([jobs[2]]);

    const corrected = await expectEventually(
      () => {
        const got = suite.stack.deliveries.filter((d) => JSON.parse(d.body).type === 'job.corrected');
        expect(got).toHaveLength(2);
        return got;
      },
      { timeoutMs: 30_000, what: 'two job.corrected deliveries' },
    );
    const bodies = corrected.map(
      (d) => new Webhook(webhookSecret).verify(d.body, d.headers as Record<string, string>) as { data: Record<string, unknown> },
    );
    expect(bodies.map((b) => b.data.result_version).sort()).toEqual([2, 3]);
    expect(bodies[0].data).toMatchObject({ job_id: jobs[0], artifact_id: expect.stringMatching(/^art_/) });
    // Only job.corrected was subscribed: no extraction.* deliveries went to that webhook.
    expect(suite.stack.deliveries.every((d) => JSON.parse(d.body).type === 'job.corrected')).toBe(true);
  });
});
