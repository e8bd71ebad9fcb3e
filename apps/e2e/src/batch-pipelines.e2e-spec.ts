import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { expectEventually } from '@docket/testing';
import pg from 'pg';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

const SCHEMA = {
  fields: [
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
    { key: 'total', label: 'Total', data_type: 'currency' },
  ],
};

jest.setTimeout(180_000);

describe('Batches, pipelines (legacy) and direct multipart upload, all services as processes, public HTTP', () => {
  // Every e2e stack sweeps expired uploads every 500 ms (stack.test-helper.ts): a never-uploaded batch file's hold is
  // released within a second of its upload window closing.
  const suite = useE2eStack('Batch');
  const { api, wallet, settledWallet, waitTerminal } = apiHelpers(suite);
  let pdf: Buffer;
  let db: pg.Client;

  beforeAll(async () => {
    pdf = await invoicePdf(['Invoice Number: INV-2001', 'Total: $99.00']);
    db = new pg.Client({ connectionString: suite.stack.env.DATABASE_URL });
    // The suite helper's afterAll may drop the database first; its termination notice is expected then.
    db.on('error', () => undefined);
    await db.connect();
  });

  afterAll(async () => {
    await db?.end().catch(() => undefined);
  });

  const file = (filename: string) => ({ filename, artifact_type: 'application/pdf', artifact_size: pdf.length });
  const put = (url: string) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: new Uint8Array(pdf) });
  const artifactsOf = async (auth: string) => (await api().get('/artifacts/').set('authorization', auth).expect(200)).body;

  it('3-file batch, one never uploaded: two succeed with batch_id in the webhook payload; the third stays pending, is never charged and its hold goes with the upload window', async () => {
    const before = await wallet();
    const res = await api()
      .post('/batch')
      .set('authorization', suite.live)
      .send({
        files: [file('one.pdf'), file('two.pdf'), file('three.pdf')],
        extraction_schema: SCHEMA,
        webhook_url: suite.stack.receiverUrl,
      })
      .expect(202);
    const b = res.body;
    expect(b).toMatchObject({
      batch_id: expect.stringMatching(/^bat_/),
      total: 3,
      webhook_signing_secret: expect.stringMatching(/^whsec_/),
    });
    expect(b.files.map((f: { filename: string }) => f.filename)).toEqual(['one.pdf', 'two.pdf', 'three.pdf']);
    for (const f of b.files) expect(Object.keys(f).sort()).toEqual(['artifact_id', 'fields', 'filename', 'job_id', 'upload_url']);
    expect((await wallet()).spendable).toBe(before.spendable - 15); // three 5-credit holds at once
    // Until confirmed, every job of the batch stays pending.
    for (const f of b.files)
      expect((await api().get(`/job/${f.job_id}`).set('authorization', suite.live).expect(200)).body.status).toBe('pending');

    expect((await put(b.files[0].upload_url)).status).toBe(200);
    expect((await put(b.files[1].upload_url)).status).toBe(200);
    const confirmed = await api().post(`/artifacts/confirm-batch-upload/${b.batch_id}`).set('authorization', suite.live).expect(200);
    expect(confirmed.body).toEqual({
      batch_id: b.batch_id,
      confirmed: [b.files[0].artifact_id, b.files[1].artifact_id].sort(),
      pending: [b.files[2].artifact_id],
      already_confirmed: [],
      closed: [],
    });
    // Idempotent: a second call re-queues nothing.
    const again = await api().post(`/artifacts/confirm-batch-upload/${b.batch_id}`).set('authorization', suite.live).expect(200);
    expect(again.body).toMatchObject({ confirmed: [], pending: [b.files[2].artifact_id] });
    expect(again.body.already_confirmed).toHaveLength(2);

    for (const f of b.files.slice(0, 2)) expect((await waitTerminal(f.job_id)).status).toBe('success');
    const third = await api().get(`/job/${b.files[2].job_id}`).set('authorization', suite.live).expect(200);
    expect(third.body.status).toBe('pending');
    expect((await api().get(`/artifacts/${b.files[2].artifact_id}`).set('authorization', suite.live).expect(200)).body.status).toBe(
      'pending_upload',
    );

    const payloads = await expectEventually(
      async () => {
        const mine = suite.stack.deliveries.map((d) => JSON.parse(d.body)).filter((p) => p.data?.batch_id === b.batch_id);
        expect(mine).toHaveLength(2);
        return mine;
      },
      { timeoutMs: 30_000, what: 'two batch deliveries' },
    );
    expect(payloads.map((p) => p.data.job_id).sort()).toEqual([b.files[0].job_id, b.files[1].job_id].sort());

    // Never charged: no ledger charge for the third job; its upload window closing releases its hold.
    const charges = await db.query(`SELECT count(*) AS n FROM "billing"."ledger_entries" WHERE "job_id" = $1 AND "kind" = 'charge'`, [
      b.files[2].job_id,
    ]);
    expect(Number(charges.rows[0].n)).toBe(0);
    await db.query(`UPDATE "artifact"."jobs" SET "upload_expires_at" = now() - interval '1 second' WHERE "id" = $1`, [b.files[2].job_id]);
    expect((await waitTerminal(b.files[2].job_id)).status).toBe('expired');
    const after = await settledWallet();
    const spent = before.balance - after.balance;
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(10); // two jobs at most 5 each; nothing for the third
    const finalCharges = await db.query(`SELECT count(*) AS n FROM "billing"."ledger_entries" WHERE "job_id" = $1 AND "kind" = 'charge'`, [
      b.files[2].job_id,
    ]);
    expect(Number(finalCharges.rows[0].n)).toBe(0);
  });

  it('request-batch-upload answers like POST /batch; 51 files, duplicate filenames, template + schema → 400; a foreign batch → 404', async () => {
    const r = await api()
      .post('/artifacts/request-batch-upload')
      .set('authorization', suite.sandbox)
      .send({ files: [file('x.pdf')], extraction_schema: SCHEMA })
      .expect(202);
    expect(r.body).toMatchObject({ batch_id: expect.stringMatching(/^bat_/), total: 1, webhook_signing_secret: null });
    await api().post(`/artifacts/confirm-batch-upload/${r.body.batch_id}`).set('authorization', suite.otherLive).expect(404);

    const count = (await artifactsOf(suite.live)).total;
    const many = Array.from({ length: 51 }, (_, i) => file(`f${i}.pdf`));
    expect(
      (await api().post('/batch').set('authorization', suite.live).send({ files: many, extraction_schema: SCHEMA }).expect(400)).body.code,
    ).toBe('validation_failed');
    expect(
      (await api().post('/batch').set('authorization', suite.live).send({ files: [], extraction_schema: SCHEMA }).expect(400)).body.code,
    ).toBe('validation_failed');
    const dup = await api()
      .post('/batch')
      .set('authorization', suite.live)
      .send({ files: [file('same.pdf'), file('same.pdf')], extraction_schema: SCHEMA })
      .expect(400);
    expect(dup.body).toMatchObject({ code: 'duplicate_filename', details: { duplicate_filenames: ['same.pdf'] } });
    const both = await api()
      .post('/batch')
      .set('authorization', suite.live)
      .send({ files: [file('a.pdf')], extraction_schema: SCHEMA, template_id: 'tpl_x' })
      .expect(400);
    expect(both.body.code).toBe('template_and_schema_both_set');
    expect((await artifactsOf(suite.live)).total).toBe(count);
  });

  it('frozen wallet → 402 for the whole batch, nothing created or held', async () => {
    const before = await wallet(suite.otherLive);
    await suite.stack.admin(['freeze', '--account', suite.other.account_id, '--reason', 'manual_freeze']);
    try {
      const res = await api()
        .post('/batch')
        .set('authorization', suite.otherLive)
        .send({ files: [file('a.pdf'), file('b.pdf')], extraction_schema: SCHEMA })
        .expect(402);
      expect(res.body.code).toBe('wallet_frozen');
      expect((await artifactsOf(suite.otherLive)).total).toBe(0);
      const batches = await db.query(`SELECT count(*) AS n FROM "artifact"."batches" WHERE "account_id" = $1`, [suite.other.account_id]);
      expect(Number(batches.rows[0].n)).toBe(0);
      expect((await wallet(suite.otherLive)).spendable).toBe(before.spendable);
    } finally {
      await suite.stack.admin(['unfreeze', '--account', suite.other.account_id]);
    }
  });

  it('pipelines: default listed; pipeline_async end to end (no artifact_id, found through GET /job); 404 for a missing pipeline; with the default template cleared multipart upload is a 400, with one set it runs inline', async () => {
    const list = await api().get('/pipelines').set('authorization', suite.live).expect(200);
    expect(list.body).toEqual([
      {
        id: expect.stringMatching(/^pipe_/),
        name: 'Default pipeline',
        is_active: true,
        is_default: true,
        template_id: 'auto',
        webhook_id: null,
        execution_count: expect.any(Number),
        created_at: expect.any(String),
      },
    ]);
    const pipelineId = list.body[0].id;

    const started = await api()
      .post('/pipeline_async')
      .set('authorization', suite.live)
      .send({
        pipeline_id: pipelineId,
        filename: 'pipe.pdf',
        artifact_type: 'application/pdf',
        artifact_size: pdf.length,
        extraction_schema: SCHEMA,
      })
      .expect(202);
    expect(Object.keys(started.body).sort()).toEqual(['expires_in', 'fields', 'job_id', 'upload_url', 'webhook_signing_secret']);
    expect(started.body.expires_in).toBe(3600);
    const artifactId = (await api().get(`/job/${started.body.job_id}`).set('authorization', suite.live).expect(200)).body.artifact_id;
    expect(artifactId).toMatch(/^art_/);
    expect((await put(started.body.upload_url)).status).toBe(200);
    await api().post(`/artifacts/${artifactId}/confirm-upload`).set('authorization', suite.live).expect(200);
    const done = await waitTerminal(started.body.job_id);
    expect(done).toMatchObject({ status: 'success', result: { invoice_number: 'INV-2001' } });

    await api()
      .post('/pipeline_async')
      .set('authorization', suite.live)
      .send({
        pipeline_id: 'pipe_missing',
        filename: 'p.pdf',
        artifact_type: 'application/pdf',
        artifact_size: 10,
        extraction_schema: SCHEMA,
      })
      .expect(404);
    await api()
      .post('/pipeline_async')
      .set('authorization', suite.otherLive)
      .send({ pipeline_id: pipelineId, filename: 'p.pdf', artifact_type: 'application/pdf', artifact_size: 10, extraction_schema: SCHEMA })
      .expect(403);

    // Default template cleared: the direct upload (and /extract without a schema) is a 400 that says so.
    await api().patch(`/pipelines/${pipelineId}`).set('authorization', suite.live).send({ template_id: null }).expect(200);
    const noDefault = await api()
      .post('/artifacts/upload')
      .set('authorization', suite.live)
      .attach('file', pdf, { filename: 'direct.pdf', contentType: 'application/pdf' })
      .expect(400);
    expect(noDefault.body).toMatchObject({ code: 'no_default_template', details: { reason: 'no_default_template' } });
    await api().post('/extract').set('authorization', suite.live).send(file('x.pdf')).expect(400);
    await api().post('/artifacts/upload').set('authorization', suite.live).send({ file: 'nope' }).expect(400);

    // The client sets the pipeline's template (PATCH /pipelines/{id}, an extension).
    const tpl = await api()
      .post('/templates/')
      .set('authorization', suite.live)
      .send({ name: 'Pipeline default', fields: SCHEMA.fields })
      .expect(201);
    await api().patch(`/pipelines/${pipelineId}`).set('authorization', suite.live).send({ template_id: tpl.body.id }).expect(200);
    expect((await api().get('/pipelines').set('authorization', suite.live).expect(200)).body[0].template_id).toBe(tpl.body.id);

    const up = await api()
      .post('/artifacts/upload')
      .set('authorization', suite.live)
      .field('retention_policy', '7d')
      .attach('file', pdf, { filename: 'direct.pdf', contentType: 'application/pdf' })
      .expect(202);
    expect(up.body).toMatchObject({
      filename: 'direct.pdf',
      artifact_type: 'application/pdf',
      artifact_size: pdf.length,
      retention_policy: '7d',
    });
    expect(['uploaded', 'processing']).toContain(up.body.status);
    expect(up.body.jobs).toHaveLength(1);
    expect((await waitTerminal(up.body.jobs[0].job_id)).status).toBe('success');

    // /extract without template or schema now uses the pipeline's template.
    const ex = await api().post('/extract').set('authorization', suite.live).send(file('defaulted.pdf')).expect(202);
    expect((await put(ex.body.upload_url)).status).toBe(200);
    await api().post(`/artifacts/${ex.body.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(200);
    expect(await waitTerminal(ex.body.job_id)).toMatchObject({ status: 'success', result: { invoice_number: 'INV-2001' } });
    expect((await api().get('/pipelines').set('authorization', suite.live).expect(200)).body[0].execution_count).toBeGreaterThanOrEqual(6);
  });
});
