import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { expectEventually } from '@docket/testing';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, basic, useE2eStack } from './stack.test-helper.js';

jest.setTimeout(180_000);

/** How soon a secret revoked by the admin CLI must be refused by the gateway (its cache hears of it by NOTIFY). */
const REVOCATION_NOTICE_MS = 2_000;

const RECEIPT = [
  'CORNER STORE',
  'Sales receipt',
  '2026-11-20 14:02',
  'Milk            1.20',
  'Bread           2.30',
  'TOTAL           3.50',
  'Cash            5.00',
  'Change          1.50',
  'Thank you for shopping!',
].join('\n');

describe('defaults that work (built-in auto template, set-defaults, PATCH /pipelines) and finishing a rotation (list-secrets); public HTTP and the admin CLI', () => {
  const suite = useE2eStack('Defaults');
  const { api, waitTerminal } = apiHelpers(suite);
  let pdf: Buffer;

  beforeAll(async () => {
    pdf = await invoicePdf(['Invoice Number: INV-3001', 'Bill to: Beta GmbH', 'Due date: 2026-12-31', 'Total: $120.00']);
  });

  const put = (url: string, body: Buffer | string, type: string) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': type }, body: typeof body === 'string' ? body : new Uint8Array(body) });

  it("a new account's default pipeline has the auto template: POST /artifacts/upload and POST /extract without template or schema work and say which kind they chose", async () => {
    const list = await api().get('/pipelines').set('authorization', suite.live).expect(200);
    expect(list.body).toEqual([expect.objectContaining({ is_default: true, template_id: 'auto', webhook_id: null })]);

    const up = await api()
      .post('/artifacts/upload')
      .set('authorization', suite.live)
      .attach('file', pdf, { filename: 'inv.pdf', contentType: 'application/pdf' })
      .expect(202);
    const invoice = await waitTerminal(up.body.jobs[0].job_id);
    expect(invoice).toMatchObject({ status: 'success', result: { document_type: 'invoice', invoice_number: 'INV-3001' } });

    const ex = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename: 'receipt.txt', artifact_type: 'text/plain', artifact_size: Buffer.byteLength(RECEIPT) })
      .expect(202);
    expect((await put(ex.body.upload_url, RECEIPT, 'text/plain')).status).toBe(200);
    await api().post(`/artifacts/${ex.body.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(200);
    const receipt = await waitTerminal(ex.body.job_id);
    expect(receipt).toMatchObject({ status: 'success', result: { document_type: 'receipt' } });
    expect(receipt.result).not.toHaveProperty('invoice_number');

    // Sandbox keys get synthetic results through the same default.
    const sb = await api()
      .post('/artifacts/upload')
      .set('authorization', suite.sandbox)
      .attach('file', pdf, { filename: 'inv.pdf', contentType: 'application/pdf' })
      .expect(202);
    expect(await waitTerminal(sb.body.jobs[0].job_id, suite.sandbox)).toMatchObject({
      status: 'success',
      result: { document_type: 'invoice' },
    });
  });

  it("set-defaults (admin CLI) and PATCH /pipelines/{id} set the key's default template and webhook; GET /pipelines shows them; they apply to bare submissions", async () => {
    const tpl = await api()
      .post('/templates/')
      .set('authorization', suite.live)
      .send({ name: 'Invoice basics', fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string' }] })
      .expect(201);
    const wh = await api()
      .post('/webhooks/')
      .set('authorization', suite.live)
      .send({ url: suite.stack.receiverUrl, events: ['extraction.completed'] })
      .expect(201);
    const set = await suite.stack.admin([
      'set-defaults',
      '--api-key',
      suite.acct.live.api_key,
      '--template-id',
      tpl.body.id,
      '--webhook-id',
      wh.body.id,
    ]);
    expect(set).toMatchObject({ is_default: true, template_id: tpl.body.id, webhook_id: wh.body.id });
    const [pipeline] = (await api().get('/pipelines').set('authorization', suite.live).expect(200)).body;
    expect(pipeline).toMatchObject({ template_id: tpl.body.id, webhook_id: wh.body.id });

    const up = await api()
      .post('/artifacts/upload')
      .set('authorization', suite.live)
      .attach('file', pdf, { filename: 'inv.pdf', contentType: 'application/pdf' })
      .expect(202);
    const jobId = up.body.jobs[0].job_id;
    const done = await waitTerminal(jobId);
    expect(done).toMatchObject({ status: 'success', result: { invoice_number: 'INV-3001' } });
    expect(done.result).not.toHaveProperty('document_type');
    await expectEventually(
      async () => {
        expect(suite.stack.deliveries.some((d) => JSON.parse(d.body).data?.job_id === jobId)).toBe(true);
      },
      { timeoutMs: 30_000, what: 'delivery to the default webhook' },
    );

    // Unknown ids are refused and change nothing; another account cannot touch the pipeline.
    await expect(suite.stack.admin(['set-defaults', '--api-key', suite.acct.live.api_key, '--template-id', 'tpl_nope'])).rejects.toThrow(
      /template_not_found/,
    );
    expect((await api().get('/pipelines').set('authorization', suite.live).expect(200)).body[0]).toMatchObject({
      template_id: tpl.body.id,
    });
    expect(
      (await api().patch(`/pipelines/${pipeline.id}`).set('authorization', suite.live).send({ webhook_id: 'wh_nope' }).expect(404)).body
        .code,
    ).toBe('webhook_not_found');
    await api().patch(`/pipelines/${pipeline.id}`).set('authorization', suite.otherLive).send({ template_id: 'auto' }).expect(403);
    await api().patch(`/pipelines/${pipeline.id}`).set('authorization', suite.live).send({ template_id: 42 }).expect(422);

    // Back to the built-in template, no default webhook (PATCH, the HTTP extension).
    const patched = await api()
      .patch(`/pipelines/${pipeline.id}`)
      .set('authorization', suite.live)
      .send({ template_id: 'auto', webhook_id: null })
      .expect(200);
    expect(patched.body).toMatchObject({ id: pipeline.id, template_id: 'auto', webhook_id: null });
  });

  it('create-account and rotate-secret print secret ids; list-secrets shows ids, created and last used (never the secret); the old secret is revoked by id', async () => {
    const acct = await suite.stack.createAccount('Rotation', 10);
    const key = acct.live.api_key;
    expect(acct.live).toMatchObject({ secret_id: expect.stringMatching(/^sec_/), secret: expect.stringMatching(/^sk_/) });
    await api().get('/wallet').set('authorization', basic(key, acct.live.secret)).expect(200);

    const rotated = (await suite.stack.admin(['rotate-secret', '--api-key', key])) as { secret_id: string; secret: string };
    expect(rotated.secret_id).toMatch(/^sec_/);
    await api().get('/wallet').set('authorization', basic(key, rotated.secret)).expect(200);

    const listed = (await suite.stack.admin(['list-secrets', '--api-key', key])) as {
      secrets: { secret_id: string; last_used_at: string | null; revoked_at: string | null }[];
    };
    expect(listed.secrets).toEqual([
      { secret_id: acct.live.secret_id, created_at: expect.any(String), last_used_at: expect.any(String), revoked_at: null },
      { secret_id: rotated.secret_id, created_at: expect.any(String), last_used_at: expect.any(String), revoked_at: null },
    ]);
    expect(JSON.stringify(listed)).not.toContain(acct.live.secret);
    expect(JSON.stringify(listed)).not.toContain(rotated.secret);

    // Finish the rotation: revoke the old secret by the id the list showed.
    await suite.stack.admin(['revoke-secret', '--api-key', key, '--secret-id', listed.secrets[0].secret_id]);
    // (The gateway hears of a revocation made elsewhere — here by the admin CLI's code — through Postgres NOTIFY, a
    // few milliseconds after the commit; until then a credential it verified moments ago may still be served from its
    // cache. The old secret must be refused within REVOCATION_NOTICE_MS.)
    await expectEventually(() => api().get('/wallet').set('authorization', basic(key, acct.live.secret)).expect(401), {
      timeoutMs: REVOCATION_NOTICE_MS,
      intervalMs: 50,
      what: 'the revoked secret refused',
    });
    await api().get('/wallet').set('authorization', basic(key, rotated.secret)).expect(200);
    expect(((await suite.stack.admin(['list-secrets', '--api-key', key])) as typeof listed).secrets[0].revoked_at).toEqual(
      expect.any(String),
    );
  });

  it('admin routes are off without ADMIN_TOKEN: 404 in the one envelope, whatever the credentials', async () => {
    for (const auth of [undefined, 'Bearer some-operator-token-0123456789abcdef', suite.live]) {
      const req = api().get('/admin/accounts');
      const res = await (auth ? req.set('authorization', auth) : req).expect(404);
      expect(res.body).toMatchObject({ statusCode: 404, code: 'not_found', request_id: expect.any(String) });
    }
  });
});
