import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { expectEventually } from '@docket/testing';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

// Invented documents of one layout. `account_manager` is printed under a label the engine does not know ("Handled
// by"), so only a remembered layout can answer it.
const FIELDS = [
  { key: 'invoice_number', label: 'Invoice Number', data_type: 'string' },
  { key: 'invoice_date', label: 'Invoice Date', data_type: 'date' },
  { key: 'total', label: 'Total', data_type: 'currency' },
  { key: 'account_manager', label: 'Account manager', data_type: 'string' },
];
const layout = (number: string, date: string, manager: string, total: string) => [
  'Supplier: Brackenridge Lamp Co',
  `Invoice Number: ${number}`,
  `Invoice Date: ${date}`,
  `Handled by: ${manager}`,
  'Thank you for your order',
  `Total: EUR ${total}`,
];

jest.setTimeout(300_000);

describe('Layout memory: corrections that teach (public HTTP)', () => {
  const suite = useE2eStack('Memory');
  const { api, waitTerminal } = apiHelpers(suite);
  let first: Buffer;
  let second: Buffer;
  const templates: Record<string, string> = {};

  async function run(pdf: Buffer, auth: string): Promise<Record<string, unknown>> {
    const sub = await api()
      .post('/extract')
      .set('authorization', auth)
      .send({ filename: 'lamp-invoice.pdf', artifact_type: 'application/pdf', artifact_size: pdf.length, template_id: templates[auth] })
      .expect(202);
    const put = await fetch(sub.body.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf });
    expect(put.status).toBe(200);
    await api().post(`/artifacts/${sub.body.artifact_id}/confirm-upload`).set('authorization', auth).expect(200);
    const job = await waitTerminal(sub.body.job_id, auth);
    expect(job.status).toBe('success');
    return job;
  }

  const exemplars = async (auth = suite.live) => (await api().get('/memory/exemplars').set('authorization', auth).expect(200)).body;

  beforeAll(async () => {
    first = await invoicePdf(layout('BL-1001', '2025-03-04', 'Orla Penhallow', '120.00'));
    second = await invoicePdf(layout('BL-2002', '2025-04-09', 'Tamsin Vell', '87.50'));
    for (const auth of [suite.live, suite.otherLive])
      templates[auth] = (
        await api().post('/templates/').set('authorization', auth).send({ name: 'Lamp invoices', fields: FIELDS }).expect(201)
      ).body.id;
  });

  it('learns from a correction and reads the next document of the layout right, naming the exemplar', async () => {
    expect(await api().get('/memory/settings').set('authorization', suite.live).expect(200)).toMatchObject({ body: { enabled: true } });
    const job1 = await run(first, suite.live);
    expect(job1.result).not.toHaveProperty('account_manager', 'Orla Penhallow');
    expect(job1.memory).toBeUndefined();
    await api()
      .post(`/job/${job1.job_id}/corrections`)
      .set('authorization', suite.live)
      .send({ fields: { account_manager: 'Orla Penhallow' } })
      .expect(200);
    const learned = await expectEventually(
      async () => {
        const page = await exemplars();
        expect(page.total).toBe(1);
        return page.items[0];
      },
      { timeoutMs: 60_000, intervalMs: 250, what: 'exemplar learned' },
    );
    expect(learned).toMatchObject({ job_id: job1.job_id, source: 'correction', template_id: templates[suite.live] });
    expect(learned.fields).toEqual(expect.arrayContaining(['account_manager', 'invoice_number']));
    expect(learned.anchors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ key: 'account_manager', direction: 'right', label: expect.stringMatching(/^[0-9a-f]{16}$/) }),
      ]),
    );
    // Labels, identifiers, header words and remembered texts are digests: no text of the document is in an exemplar.
    expect(JSON.stringify(learned)).not.toContain('Penhallow');

    const job2 = await run(second, suite.live);
    expect(job2.result).toMatchObject({ invoice_number: 'BL-2002', account_manager: 'Tamsin Vell' });
    expect(job2.memory).toMatchObject({ exemplar_id: learned.id, fields: expect.arrayContaining(['account_manager']) });
    const versions = await api().get(`/job/${job2.job_id}/results`).set('authorization', suite.live).expect(200);
    expect(versions.body.fields.account_manager).toMatchObject({ provenance: 'memory' });
  });

  it('never lends an exemplar to another account', async () => {
    expect((await exemplars(suite.otherLive)).total).toBe(0);
    const job = await run(second, suite.otherLive);
    expect(job.memory).toBeUndefined();
    expect(job.result).not.toHaveProperty('account_manager', 'Tamsin Vell');
    const id = (await exemplars()).items[0].id;
    const denied = await api().delete(`/memory/exemplars/${id}`).set('authorization', suite.otherLive).expect(404);
    expect(denied.body.code).toBe('exemplar_not_found');
  });

  it('uses no exemplar while memory is off, and forgets a deleted one', async () => {
    await api().put('/memory/settings').set('authorization', suite.live).send({ enabled: false }).expect(200, { enabled: false });
    const off = await run(second, suite.live);
    expect(off.memory).toBeUndefined();
    expect(off.result).not.toHaveProperty('account_manager', 'Tamsin Vell');
    const bad = await api().put('/memory/settings').set('authorization', suite.live).send({ enabled: 'no' }).expect(422);
    expect(bad.body.code).toBe('invalid_body');
    await api().put('/memory/settings').set('authorization', suite.live).send({ enabled: true }).expect(200, { enabled: true });

    const id = (await exemplars()).items[0].id;
    await api().delete(`/memory/exemplars/${id}`).set('authorization', suite.live).expect(204);
    expect((await exemplars()).total).toBe(0);
    await api().delete(`/memory/exemplars/${id}`).set('authorization', suite.live).expect(404);
    const forgotten = await run(second, suite.live);
    expect(forgotten.memory).toBeUndefined();
  });

  it('learns from an approval too, and forgets what it learned when the artifact is deleted', async () => {
    const job = await run(first, suite.live);
    await api().post(`/job/${job.job_id}/approve`).set('authorization', suite.live).expect(200);
    const learned = await expectEventually(
      async () => {
        const page = await exemplars();
        expect(page.total).toBe(1);
        return page.items[0];
      },
      { timeoutMs: 60_000, intervalMs: 250, what: 'exemplar learned from the approval' },
    );
    expect(learned).toMatchObject({ job_id: job.job_id, artifact_id: job.artifact_id, source: 'approval' });
    await api().delete(`/artifacts/${job.artifact_id}`).set('authorization', suite.live).expect(204);
    expect((await exemplars()).total).toBe(0);
  });
});
