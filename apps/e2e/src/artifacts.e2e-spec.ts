import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import { invoicePdf } from './invoice.test-helper.js';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

const SCHEMA = {
  fields: [
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
    { key: 'vendor', label: 'Vendor', data_type: 'string' },
    { key: 'total', label: 'Total', data_type: 'currency' },
  ],
};

const INVOICE_LINES = ['Vendor: Acme Corp', 'Invoice Number: INV-2002', 'Invoice Date: 2024-03-15', 'Total: $99.00'];

jest.setTimeout(180_000);

describe('Artifact resource endpoints, all services as processes, public HTTP only', () => {
  const suite = useE2eStack('Artifacts');
  const { api, wallet, settledWallet, waitTerminal } = apiHelpers(suite);
  let live: string;
  let otherAuth: string;
  let pdf: Buffer;

  beforeAll(async () => {
    ({ live, otherLive: otherAuth } = suite);
    pdf = await invoicePdf(INVOICE_LINES);
  });

  async function submit(auth: string, filename = 'invoice.pdf') {
    const res = await api()
      .post('/extract')
      .set('authorization', auth)
      .send({ filename, artifact_type: 'application/pdf', artifact_size: pdf.length, extraction_schema: SCHEMA });
    expect(res.status).toBe(202);
    return res.body as { job_id: string; artifact_id: string; upload_url: string };
  }

  async function uploadAndConfirm(sub: { artifact_id: string; upload_url: string }, auth = live) {
    const put = await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: pdf });
    expect(put.status).toBe(200);
    await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', auth).expect(200);
  }

  it('lists, gets, polls, patches, downloads, reruns and deletes an artifact', async () => {
    const sub = await submit(live);
    await uploadAndConfirm(sub);
    const job = await waitTerminal(sub.job_id);
    expect(job.status).toBe('success');
    const id = sub.artifact_id;

    // List: this account only, newest first, Page wrapper; size is capped at 100.
    const older = await submit(live, 'older.pdf');
    const list = await api().get('/artifacts/?page=1&size=50').set('authorization', live).expect(200);
    expect(list.body).toMatchObject({ total: 2, page: 1, size: 50, pages: 1 });
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([older.artifact_id, id]);
    expect(list.body.items[1]).toEqual({
      id,
      filename: 'invoice.pdf',
      artifact_type: 'application/pdf',
      artifact_size: pdf.length,
      status: 'completed',
      uploaded_at: expect.any(String),
      confidence: expect.any(Number),
      needs_review: expect.any(Boolean),
    });
    const paged = await api().get('/artifacts?page=2&size=1').set('authorization', live).expect(200);
    expect(paged.body).toMatchObject({ total: 2, page: 2, size: 1, pages: 2, items: [{ id }] });
    expect((await api().get('/artifacts/').set('authorization', live).expect(200)).body.size).toBe(50);
    expect((await api().get('/artifacts/?size=101').set('authorization', live).expect(422)).body.code).toBe('invalid_query');
    expect((await api().get('/artifacts/').set('authorization', otherAuth).expect(200)).body).toMatchObject({ items: [], total: 0 });

    // Full record and lightweight status; another account gets 403, an unknown id 404.
    const rec = await api().get(`/artifacts/${id}`).set('authorization', live).expect(200);
    expect(rec.body).toMatchObject({ id, status: 'completed', retention_policy: '30d', jobs: [{ job_id: sub.job_id, status: 'success' }] });
    expect(rec.body.latest_result).toMatchObject({ invoice_number: 'INV-2002' });
    const status = await api().get(`/artifacts/${id}/status`).set('authorization', live).expect(200);
    expect(status.body).toEqual({ id, status: 'completed', processed_at: expect.any(String), status_message: null });
    expect((await api().get(`/artifacts/${id}`).set('authorization', otherAuth).expect(403)).body.code).toBe('forbidden');
    expect((await api().get(`/artifacts/${id}/status`).set('authorization', otherAuth).expect(403)).body.code).toBe('forbidden');
    expect((await api().get('/artifacts/art_01unknown').set('authorization', live).expect(404)).body.code).toBe('artifact_not_found');

    // PATCH: filename, description, tags; platform fields are ignored.
    const patched = await api()
      .patch(`/artifacts/${id}`)
      .set('authorization', live)
      .send({ filename: 'invoice-march.pdf', description: 'March', tags: ['acme', 'q1'], status: 'failed', artifact_size: 1 })
      .expect(200);
    expect(patched.body).toMatchObject({
      id,
      filename: 'invoice-march.pdf',
      description: 'March',
      tags: ['acme', 'q1'],
      status: 'completed',
      artifact_size: pdf.length,
    });
    expect((await api().patch(`/artifacts/${id}`).set('authorization', live).send({ filename: 'ab' }).expect(422)).body.code).toBe(
      'invalid_body',
    );
    await api()
      .patch(`/artifacts/${id}`)
      .set('authorization', otherAuth)
      .send({ tags: ['mine'] })
      .expect(403);

    // Downloads: json by default, md, raw; the presigned URLs serve the stored objects.
    const json = await api().get(`/artifacts/${id}/download`).set('authorization', live).expect(200);
    expect(json.body).toMatchObject({ artifact_id: id, filename: 'invoice-march.json', expires_in: 300 });
    expect(((await (await fetch(json.body.download_url)).json()) as { result: unknown }).result).toEqual(job.result);
    const md = await api().get(`/artifacts/${id}/download?file_type=md`).set('authorization', live).expect(200);
    const mdRes = await fetch(md.body.download_url);
    expect(mdRes.status).toBe(200);
    expect((await mdRes.text()).length).toBeGreaterThan(0);
    const raw = await api().get(`/artifacts/${id}/download?file_type=raw`).set('authorization', live).expect(200);
    expect(raw.body).toMatchObject({ filename: 'invoice-march.pdf', expires_in: 300 });
    expect(Buffer.from(await (await fetch(raw.body.download_url)).arrayBuffer()).equals(pdf)).toBe(true);
    await api().get(`/artifacts/${id}/download?file_type=exe`).set('authorization', live).expect(422);
    expect((await api().get(`/artifacts/${older.artifact_id}/download`).set('authorization', live).expect(404)).body.code).toBe(
      'not_found',
    );

    // Cancel of a terminal job is 409; rerun makes a new job that runs to success, old job kept.
    expect((await api().post(`/artifacts/${id}/cancel`).set('authorization', live).expect(409)).body.code).toBe('job_terminal');
    const rerun = await api().post(`/artifacts/${id}/rerun`).set('authorization', live).expect(202);
    expect(rerun.body).toEqual({ job_id: expect.stringMatching(/^job_/), artifact_id: id, status: 'queued_for_processing' });
    expect(rerun.body.job_id).not.toBe(sub.job_id);
    expect((await waitTerminal(rerun.body.job_id)).status).toBe('success');
    const afterRerun = await api().get(`/artifacts/${id}`).set('authorization', live).expect(200);
    expect(afterRerun.body.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([sub.job_id, rerun.body.job_id]);
    // `older` was never uploaded: cancelling it releases its hold. Then two runs, one page each, both settled.
    await api().post(`/artifacts/${older.artifact_id}/cancel`).set('authorization', live).expect(200);
    expect((await settledWallet()).balance).toBe(98);

    // Delete: 204, gone, and the stored objects with it.
    await api().delete(`/artifacts/${id}`).set('authorization', otherAuth).expect(403);
    await api().delete(`/artifacts/${id}`).set('authorization', live).expect(204);
    await api().get(`/artifacts/${id}`).set('authorization', live).expect(404);
    expect((await fetch(raw.body.download_url)).status).toBe(404);
    expect((await fetch(json.body.download_url)).status).toBe(404);
    await api().delete(`/artifacts/${id}`).set('authorization', live).expect(404);
  });

  it('cancels an in-flight job and releases its hold; cancelling again is 409', async () => {
    const before = await settledWallet();
    const sub = await submit(live, 'cancel-me.pdf');
    expect((await wallet()).spendable).toBeLessThan(before.balance);

    const cancelled = await api().post(`/artifacts/${sub.artifact_id}/cancel`).set('authorization', live).expect(200);
    expect(cancelled.body).toMatchObject({ job_id: sub.job_id, status: 'cancelled', completed_at: expect.any(String) });
    expect((await api().get(`/job/${sub.job_id}`).set('authorization', live).expect(200)).body.status).toBe('cancelled');
    expect((await api().get(`/artifacts/${sub.artifact_id}/status`).set('authorization', live).expect(200)).body.status).toBe('cancelled');
    expect(await settledWallet()).toMatchObject({ balance: before.balance });

    expect((await api().post(`/artifacts/${sub.artifact_id}/cancel`).set('authorization', live).expect(409)).body.code).toBe(
      'job_terminal',
    );
    // Never uploaded: nothing to rerun.
    expect((await api().post(`/artifacts/${sub.artifact_id}/rerun`).set('authorization', live).expect(409)).body.code).toBe('conflict');
    await api().post(`/artifacts/${sub.artifact_id}/cancel`).set('authorization', otherAuth).expect(403);
  });
});
