import { beforeAll, describe, expect, it, jest } from '@jest/globals';
import PDFDocument from 'pdfkit';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string' }] };
const PAGES = 30;

/** A born-digital PDF of `pages` small pages: a few kilobytes, far below the 100 kB-per-page hold estimate. */
function manyPagePdf(pages: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A6', margin: 20, autoFirstPage: false });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (let i = 1; i <= pages; i++) doc.addPage().fontSize(10).text(`Invoice Number: INV-${1000 + i}`).text(`Page ${i} of ${pages}`);
    doc.end();
  });
}

jest.setTimeout(180_000);

describe('charging on what was processed (ADR 0005), public HTTP only', () => {
  const suite = useE2eStack('Charging');
  const { api, wallet, settledWallet, waitTerminal } = apiHelpers(suite);
  let pdf: Buffer;

  beforeAll(async () => {
    pdf = await manyPagePdf(PAGES);
  });

  const put = (url: string, body: Buffer) => fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: new Uint8Array(body) });
  const extract = (artifactSize: number) =>
    api().post('/extract').set('authorization', suite.live).send({ filename: 'long.pdf', artifact_type: 'application/pdf', artifact_size: artifactSize, extraction_schema: SCHEMA }).expect(202);

  it(`a ${PAGES}-page file declared as 1,000 bytes: storage refuses the PUT (size is signed), confirm finds nothing, the job never runs`, async () => {
    expect(pdf.length).toBeGreaterThan(1_000);
    const sub = (await extract(1_000)).body;
    const refused = await put(sub.upload_url, pdf);
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('SignatureDoesNotMatch');
    const confirm = await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(409);
    expect(confirm.body.code).toBe('upload_missing');
    expect((await api().get(`/job/${sub.job_id}`).set('authorization', suite.live).expect(200)).body.status).toBe('pending');
    await api().post(`/artifacts/${sub.artifact_id}/cancel`).set('authorization', suite.live).expect(200);
  });

  it(`the same file declared truthfully holds the 5-page minimum and is charged all ${PAGES} pages the engine read`, async () => {
    const before = await settledWallet();
    const sub = (await extract(pdf.length)).body;
    expect((await wallet()).spendable).toBe(before.spendable - 5);
    expect((await put(sub.upload_url, pdf)).status).toBe(200);
    await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(200);
    expect((await waitTerminal(sub.job_id)).status).toBe('success');
    const after = await settledWallet();
    expect(before.balance - after.balance).toBe(PAGES);
  });

  it('confirm-batch-upload releases the hold of a file never uploaded at once; uploading it later and confirming again holds and charges it', async () => {
    const small = await manyPagePdf(1);
    const file = (filename: string) => ({ filename, artifact_type: 'application/pdf', artifact_size: small.length });
    const before = await settledWallet();
    const b = (await api().post('/batch').set('authorization', suite.live).send({ files: [file('a.pdf'), file('late.pdf')], extraction_schema: SCHEMA }).expect(202)).body;
    expect((await wallet()).spendable).toBe(before.spendable - 10);
    const [first, late] = b.files;
    expect((await put(first.upload_url, small)).status).toBe(200);
    const confirmed = await api().post(`/artifacts/confirm-batch-upload/${b.batch_id}`).set('authorization', suite.live).expect(200);
    expect(confirmed.body).toMatchObject({ confirmed: [first.artifact_id], pending: [late.artifact_id] });
    // Right after the call the straggler holds nothing: only the confirmed file is held.
    expect((await wallet()).spendable).toBeGreaterThanOrEqual(before.spendable - 5);
    expect((await waitTerminal(first.job_id)).status).toBe('success');
    const mid = await settledWallet(); // nothing held although the straggler's job is still pending
    expect(before.balance - mid.balance).toBe(1);
    expect((await api().get(`/job/${late.job_id}`).set('authorization', suite.live).expect(200)).body.status).toBe('pending');

    expect((await put(late.upload_url, small)).status).toBe(200);
    const again = await api().post(`/artifacts/confirm-batch-upload/${b.batch_id}`).set('authorization', suite.live).expect(200);
    expect(again.body).toMatchObject({ confirmed: [late.artifact_id], pending: [], already_confirmed: [first.artifact_id] });
    expect((await waitTerminal(late.job_id)).status).toBe('success');
    const after = await settledWallet();
    expect(before.balance - after.balance).toBe(2);
  });
});
