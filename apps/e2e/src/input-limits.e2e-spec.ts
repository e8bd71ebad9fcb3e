import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { MAX_ARTIFACT_BYTES } from '@docket/contracts';
import { expectEventually } from '@docket/testing';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

jest.setTimeout(180_000);

const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string' }] };
/** Small enough that a test file crosses it without allocating megabytes. */
const DIRECT_UPLOAD_MAX_BYTES = 64 * 1024;

/** The spec's error envelope (ADR 0001): every 4xx carries it. */
function expectEnvelope(body: Record<string, unknown>, status: number, code: string) {
  expect(body).toMatchObject({
    statusCode: status,
    error: expect.any(String),
    code,
    message: expect.any(String),
    request_id: expect.any(String),
  });
}

describe('Issue 11 part A: inactive webhooks, ranges, missing fields, size and type limits, empty JSON bodies (public HTTP only)', () => {
  const suite = useE2eStack('Input limits', { DIRECT_UPLOAD_MAX_BYTES: String(DIRECT_UPLOAD_MAX_BYTES) });
  const { api, waitTerminal } = apiHelpers(suite);
  let pdf: Buffer;

  beforeAll(async () => {
    pdf = await invoicePdf(['Invoice Number: INV-3003', 'Total: $10.00']);
  });

  const descriptor = (over: Record<string, unknown> = {}) => ({
    filename: 'invoice.pdf',
    artifact_type: 'application/pdf',
    artifact_size: pdf.length,
    extraction_schema: SCHEMA,
    ...over,
  });
  const put = (url: string, bytes = pdf) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: bytes });

  it('item 2: a job naming an inactive webhook is accepted and runs, and nothing is delivered to it', async () => {
    const hook = (
      await api()
        .post('/webhooks/')
        .set('authorization', suite.sandbox)
        .send({ url: suite.stack.receiverUrl, events: ['extraction.completed', 'extraction.failed'] })
        .expect(201)
    ).body;
    await api().patch(`/webhooks/${hook.id}`).set('authorization', suite.sandbox).send({ is_active: false }).expect(200);

    const paused = await api()
      .post('/extract')
      .set('authorization', suite.sandbox)
      .send(descriptor({ webhook_id: hook.id }))
      .expect(202);
    expect((await put(paused.body.upload_url)).status).toBe(200);
    await api().post(`/artifacts/${paused.body.artifact_id}/confirm-upload`).set('authorization', suite.sandbox).expect(200);
    expect((await waitTerminal(paused.body.job_id, suite.sandbox)).status).toBe('success');

    // A control job on an active one-shot webhook finishes after it; once its delivery arrived, the
    // dispatcher has handled the earlier job too (one ordered stream) and must have skipped it.
    const control = await api()
      .post('/extract')
      .set('authorization', suite.sandbox)
      .send(descriptor({ webhook_url: suite.stack.receiverUrl }))
      .expect(202);
    expect((await put(control.body.upload_url)).status).toBe(200);
    await api().post(`/artifacts/${control.body.artifact_id}/confirm-upload`).set('authorization', suite.sandbox).expect(200);
    await waitTerminal(control.body.job_id, suite.sandbox);
    await expectEventually(() => {
      expect(suite.stack.deliveries.some((d) => String(d.headers['x-webhook-id']).startsWith(control.body.job_id))).toBe(true);
    });
    expect(suite.stack.deliveries.filter((d) => String(d.headers['x-webhook-id']).startsWith(paused.body.job_id))).toHaveLength(0);
    expect((await api().get(`/job/${paused.body.job_id}/webhook-logs`).set('authorization', suite.sandbox).expect(200)).body).toEqual([]);
    expect((await api().get(`/webhooks/${hook.id}/deliveries`).set('authorization', suite.sandbox).expect(200)).body).toEqual([]);

    // The record stays usable: batches and pipeline_async accept it too; another account's or a deleted one is 404.
    await api()
      .post('/batch')
      .set('authorization', suite.sandbox)
      .send({
        files: [{ filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 10 }],
        extraction_schema: SCHEMA,
        webhook_id: hook.id,
      })
      .expect(202);
    const foreign = await api()
      .post('/extract')
      .set('authorization', suite.otherLive)
      .send(descriptor({ webhook_id: hook.id }))
      .expect(404);
    expectEnvelope(foreign.body, 404, 'webhook_not_found');
    await api().delete(`/webhooks/${hook.id}`).set('authorization', suite.sandbox).expect(204);
    await api()
      .post('/extract')
      .set('authorization', suite.sandbox)
      .send(descriptor({ webhook_id: hook.id }))
      .expect(404);
  });

  it('item 4: out-of-range numbers are a coded 4xx, never a 5xx', async () => {
    const huge = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send(descriptor({ artifact_size: 1e300 }))
      .expect(400);
    expectEnvelope(huge.body, 400, 'file_too_large');
    // 1e400 parses to Infinity: not an integer, a shape error.
    const inf = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .set('content-type', 'application/json')
      .send('{"filename":"a.pdf","artifact_type":"application/pdf","artifact_size":1e400}')
      .expect(422);
    expectEnvelope(inf.body, 422, 'invalid_body');
    const batch = await api()
      .post('/batch')
      .set('authorization', suite.live)
      .send({ files: [{ filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 1e300 }], extraction_schema: SCHEMA })
      .expect(400);
    expectEnvelope(batch.body, 400, 'file_too_large');
    const fraction = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send(descriptor({ artifact_size: 1.5 }))
      .expect(422);
    expectEnvelope(fraction.body, 422, 'invalid_body');

    for (const path of [
      '/templates/?offset=1e300',
      '/templates/?offset=99999999999999999999',
      '/artifacts/?page=1e300',
      '/usage?period=1e300',
    ]) {
      const r = await api().get(path).set('authorization', suite.live);
      expect({ path, status: r.status }).toEqual({ path, status: 422 });
      expectEnvelope(r.body, 422, 'invalid_query');
    }
    const tpl = await api()
      .post('/templates/')
      .set('authorization', suite.live)
      .send({
        name: 'Ranges',
        fields: [{ key: 'total', label: 'Total', data_type: 'number', validation: { min_value: -1e300, max_value: 1e300 } }],
      })
      .expect(422);
    expectEnvelope(tpl.body, 422, 'invalid_body');
    const threshold = await api()
      .post('/templates/')
      .set('authorization', suite.live)
      .send({ name: 'Ranges', fields: SCHEMA.fields, settings: { confidence_threshold: 1e300 } })
      .expect(422);
    expectEnvelope(threshold.body, 422, 'invalid_body');
    // Found by the no-5xx test: null on a PATCH field, a non-object batch item and a NUL character were 500s.
    const hook = (
      await api()
        .post('/webhooks/')
        .set('authorization', suite.live)
        .send({ url: suite.stack.receiverUrl, events: ['extraction.completed'] })
        .expect(201)
    ).body;
    expectEnvelope(
      (await api().patch(`/webhooks/${hook.id}`).set('authorization', suite.live).send({ events: null }).expect(422)).body,
      422,
      'invalid_body',
    );
    expectEnvelope(
      (
        await api()
          .post('/batch')
          .set('authorization', suite.live)
          .send({ files: [[]], extraction_schema: SCHEMA })
          .expect(422)
      ).body,
      422,
      'invalid_body',
    );
    const nul = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send(descriptor({ extraction_schema: { fields: [{ key: 'a', label: 'A\u0000', data_type: 'string' }] } }))
      .expect(422);
    expectEnvelope(nul.body, 422, 'invalid_body');
    expectEnvelope((await api().get('/templates/?search=%00').set('authorization', suite.live).expect(422)).body, 422, 'invalid_query');
    const deep = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .set('content-type', 'application/json')
      .send(`${'['.repeat(5000)}${']'.repeat(5000)}`)
      .expect(422);
    expectEnvelope(deep.body, 422, 'invalid_body');
  });

  it('item 5: a missing required field is 400; a present field of the wrong type stays 422', async () => {
    const empty = await api().post('/extract').set('authorization', suite.live).send({}).expect(400);
    expectEnvelope(empty.body, 400, 'validation_failed');
    expect((empty.body.details as { field: string }[]).map((d) => d.field).sort()).toEqual(['artifact_size', 'artifact_type', 'filename']);
    const noSize = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send(descriptor({ artifact_size: undefined }))
      .expect(400);
    expect(noSize.body).toMatchObject({
      code: 'validation_failed',
      details: [{ field: 'artifact_size', constraints: { isDefined: expect.any(String) } }],
    });
    await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send(descriptor({ filename: null }))
      .expect(400);
    expect(
      (
        await api()
          .post('/extract')
          .set('authorization', suite.live)
          .send(descriptor({ artifact_size: 'big' }))
          .expect(422)
      ).body.code,
    ).toBe('invalid_body');
    expect(
      (
        await api()
          .post('/extract')
          .set('authorization', suite.live)
          .send(descriptor({ artifact_size: undefined, filename: 42 }))
          .expect(422)
      ).body.code,
    ).toBe('invalid_body');

    const missing: [string, string, Record<string, unknown>][] = [
      ['post', '/batch', { extraction_schema: SCHEMA }],
      ['post', '/batch', { files: [{ filename: 'a.pdf' }], extraction_schema: SCHEMA }],
      ['post', '/pipeline_async', { filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 10 }],
      ['post', '/templates/', { fields: SCHEMA.fields }],
      // (A template of only a name is valid, spec §4.5; a template field without its label is not, spec §2.3.)
      ['post', '/templates/', { name: 'Field without label', fields: [{ key: 'a', data_type: 'string' }] }],
      ['post', '/templates/', { name: 'Field without type', fields: [{ key: 'a', label: 'A' }] }],
      ['post', '/webhooks/', { events: ['extraction.completed'] }],
      ['post', '/webhooks/', { url: suite.stack.receiverUrl }],
      ['post', '/extract', descriptor({ extraction_schema: {} })],
    ];
    for (const [method, path, body] of missing) {
      const r = await (method === 'post' ? api().post(path) : api().patch(path)).set('authorization', suite.live).send(body);
      expect({ path, body, status: r.status, code: r.body.code }).toEqual({ path, body, status: 400, code: 'validation_failed' });
    }
  });

  it('item 7: artifact_size over 50 MiB and types the engine cannot read are refused at submit, with the limit and the list', async () => {
    const over = await api()
      .post('/extract')
      .set('authorization', suite.sandbox)
      .send(descriptor({ artifact_size: MAX_ARTIFACT_BYTES + 1 }))
      .expect(400);
    expectEnvelope(over.body, 400, 'file_too_large');
    expect(over.body.message).toContain(String(MAX_ARTIFACT_BYTES));
    await api()
      .post('/extract')
      .set('authorization', suite.sandbox)
      .send(descriptor({ artifact_size: MAX_ARTIFACT_BYTES }))
      .expect(202);

    const exe = await api()
      .post('/extract')
      .set('authorization', suite.sandbox)
      .send(descriptor({ filename: 'setup.exe', artifact_type: 'application/x-msdownload' }))
      .expect(400);
    expectEnvelope(exe.body, 400, 'unsupported_artifact_type');
    for (const t of [
      'application/pdf',
      'image/png',
      'image/jpeg',
      'image/tiff',
      'text/plain',
      'text/csv',
      'text/html',
      'application/octet-stream',
    ])
      expect(exe.body.message).toContain(t);
    await api()
      .post('/extract')
      .set('authorization', suite.sandbox)
      .send(descriptor({ artifact_type: 'IMAGE/PNG', filename: 'scan.png' }))
      .expect(202);

    const batchExe = await api()
      .post('/batch')
      .set('authorization', suite.sandbox)
      .send({
        files: [
          { filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 10 },
          { filename: 'b.exe', artifact_type: 'application/x-msdownload', artifact_size: 10 },
        ],
        extraction_schema: SCHEMA,
      })
      .expect(400);
    expectEnvelope(batchExe.body, 400, 'unsupported_artifact_type');
    const pipelines = (await api().get('/pipelines').set('authorization', suite.sandbox).expect(200)).body as { id: string }[];
    if (pipelines[0]) {
      const asyncExe = await api()
        .post('/pipeline_async')
        .set('authorization', suite.sandbox)
        .send({ pipeline_id: pipelines[0].id, ...descriptor({ artifact_type: 'application/x-msdownload' }) })
        .expect(400);
      expectEnvelope(asyncExe.body, 400, 'unsupported_artifact_type');
    }

    // Direct upload: the part's type is checked the same way, and its size against DIRECT_UPLOAD_MAX_BYTES (≤ 50 MiB).
    const directExe = await api()
      .post('/artifacts/upload')
      .set('authorization', suite.sandbox)
      .attach('file', Buffer.from('MZ not a document'), { filename: 'setup.exe', contentType: 'application/x-msdownload' })
      .expect(400);
    expectEnvelope(directExe.body, 400, 'unsupported_artifact_type');
    const tooBig = await api()
      .post('/artifacts/upload')
      .set('authorization', suite.sandbox)
      .attach('file', Buffer.alloc(DIRECT_UPLOAD_MAX_BYTES + 1, 0x20), { filename: 'big.txt', contentType: 'text/plain' })
      .expect(413);
    expectEnvelope(tooBig.body, 413, 'payload_too_large');
    expect(tooBig.body.details).toMatchObject({ max_bytes: DIRECT_UPLOAD_MAX_BYTES });
  });

  it('item 9: body-less POSTs accept `content-type: application/json` with an empty body', async () => {
    const json = (path: string) => api().post(path).set('authorization', suite.sandbox).set('content-type', 'application/json');
    const sub = await api().post('/extract').set('authorization', suite.sandbox).send(descriptor()).expect(202);
    expect((await put(sub.body.upload_url)).status).toBe(200);
    const confirmed = await json(`/artifacts/${sub.body.artifact_id}/confirm-upload`).expect(200);
    expect(confirmed.body.id).toBe(sub.body.artifact_id);
    // A repeat is 200 while the artifact is `uploaded`/`processing`; once the (fast) job has finished it is past
    // `uploaded`, 409 by spec §7. Either way the whitespace body is accepted, which is what this item checks.
    const again = await json(`/artifacts/${sub.body.artifact_id}/confirm-upload`).send(' ');
    if (again.status === 409) expectEnvelope(again.body, 409, 'artifact_past_uploaded');
    else expect(again.status).toBe(200);
    await waitTerminal(sub.body.job_id, suite.sandbox);
    await json(`/artifacts/${sub.body.artifact_id}/rerun`).expect(202);

    const pending = await api().post('/extract').set('authorization', suite.sandbox).send(descriptor()).expect(202);
    await json(`/artifacts/${pending.body.artifact_id}/cancel`).expect(200);

    const batch = await api()
      .post('/artifacts/request-batch-upload')
      .set('authorization', suite.sandbox)
      .send({ files: [{ filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 10 }], extraction_schema: SCHEMA })
      .expect(202);
    await json(`/artifacts/confirm-batch-upload/${batch.body.batch_id}`).expect(200);

    const hook = (
      await api()
        .post('/webhooks/')
        .set('authorization', suite.sandbox)
        .send({ url: suite.stack.receiverUrl, events: ['extraction.completed'] })
        .expect(201)
    ).body;
    expect((await json(`/webhooks/${hook.id}/rotate-secret`).expect(200)).body.secret_key).toMatch(/^whsec_/);
    const tpl = (
      await api().post('/templates/').set('authorization', suite.sandbox).send({ name: 'Clone me', fields: SCHEMA.fields }).expect(201)
    ).body;
    expect((await json(`/templates/${tpl.id}/clone`).expect(201)).body.name).toBe('Clone me (clone)');

    // A route that needs a body answers for its missing fields, not for the empty body.
    expect((await json('/extract').expect(400)).body.code).toBe('validation_failed');
    expect((await json('/extract').send('{"filename": ').expect(422)).body.code).toBe('invalid_body');
  });
});
