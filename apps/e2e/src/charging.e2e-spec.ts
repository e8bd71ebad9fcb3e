import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import PDFDocument from 'pdfkit';
import { apiHelpers, basic, useE2eStack } from './stack.test-helper.js';

const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string' }] };
const PAGES = 30;
/** The stack's price (PRICE_PER_PAGE_CREDITS) and minimum hold (HOLD_MIN_PAGES): a small file holds 5 credits. */
const PRICE = 1;
const MIN_HOLD_PAGES = 5;
/** A wallet that covers exactly the hold of a small file, not its pages. */
const SHORT_WALLET = MIN_HOLD_PAGES * PRICE;

/** A born-digital PDF of `pages` small pages: a few kilobytes, far below the 100 kB-per-page hold estimate. */
function manyPagePdf(pages: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument({ size: 'A6', margin: 20, autoFirstPage: false });
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    for (let i = 1; i <= pages; i++)
      doc
        .addPage()
        .fontSize(10)
        .text(`Invoice Number: INV-${1000 + i}`)
        .text(`Page ${i} of ${pages}`);
    doc.end();
  });
}

jest.setTimeout(180_000);

describe('charging on what was processed (ADR 0005), public HTTP only', () => {
  const suite = useE2eStack('Charging');
  const { api, wallet, settledWallet, waitTerminal } = apiHelpers(suite);
  let pdf: Buffer;
  let db: pg.Client;

  beforeAll(async () => {
    pdf = await manyPagePdf(PAGES);
    db = new pg.Client({ connectionString: suite.stack.env.DATABASE_URL });
    // The suite helper's afterAll may drop the database first; its termination notice is expected then.
    db.on('error', () => undefined);
    await db.connect();
  });

  afterAll(async () => {
    await db?.end().catch(() => undefined);
  });

  /** Every job's charge in billing's ledger against the pages artifact recorded as read, for the jobs of this suite. */
  const chargesAndPagesRead = async () =>
    (
      await db.query<{ job_id: string; charged: number; pages_read: number }>(
        `SELECT j.id AS job_id, COALESCE(-SUM(l.balance_change_micro) FILTER (WHERE l.kind = 'charge'), 0)::float / 1e6 AS charged,
                COALESCE(j.pages, 0) AS pages_read
           FROM artifact.jobs j LEFT JOIN billing.ledger_entries l ON l.job_id = j.id
          WHERE NOT j.sandbox GROUP BY j.id, j.pages`,
      )
    ).rows;

  const put = (url: string, body: Buffer) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: new Uint8Array(body) });
  const extract = (artifactSize: number) =>
    api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename: 'long.pdf', artifact_type: 'application/pdf', artifact_size: artifactSize, extraction_schema: SCHEMA })
      .expect(202);

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
    const b = (
      await api()
        .post('/batch')
        .set('authorization', suite.live)
        .send({ files: [file('a.pdf'), file('late.pdf')], extraction_schema: SCHEMA })
        .expect(202)
    ).body;
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
  describe(`an account of ${SHORT_WALLET} credits sends the ${PAGES}-page file (held ${MIN_HOLD_PAGES} from its size)`, () => {
    let auth: string;
    beforeAll(async () => {
      const short = await suite.stack.createAccount('Charging short wallet', SHORT_WALLET);
      auth = basic(short.live.api_key, short.live.secret);
    });

    const submitAndUpload = async (body: Record<string, unknown>) => {
      const sub = (
        await api()
          .post('/extract')
          .set('authorization', auth)
          .send({ filename: 'long.pdf', artifact_type: 'application/pdf', artifact_size: pdf.length, ...body })
          .expect(202)
      ).body;
      expect((await wallet(auth)).spendable).toBe(SHORT_WALLET - MIN_HOLD_PAGES * PRICE);
      expect((await put(sub.upload_url, pdf)).status).toBe(200);
      await api().post(`/artifacts/${sub.artifact_id}/confirm-upload`).set('authorization', auth).expect(200);
      return waitTerminal(sub.job_id, auth);
    };

    it('by default the job fails insufficient_funds once the worker counted the pages: nothing is read, nothing is charged', async () => {
      const job = await submitAndUpload({ extraction_schema: SCHEMA });
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(/^insufficient_funds: /);
      expect(job.result).toBeUndefined();
      const row = (await db.query('SELECT pages, page_count, result_key FROM artifact.jobs WHERE id = $1', [job.job_id])).rows[0];
      expect(row).toEqual({ pages: 0, page_count: PAGES, result_key: null });
      expect(await settledWallet(auth)).toMatchObject({ balance: SHORT_WALLET, spendable: SHORT_WALLET });
    });

    it('with the template setting partial_pages the covered pages are read and charged, and the job says how many of how many', async () => {
      const tpl = (
        await api()
          .post('/templates/')
          .set('authorization', auth)
          .send({ name: 'Partial reading', fields: SCHEMA.fields, settings: { partial_pages: true } })
          .expect(201)
      ).body;
      expect(tpl.settings.partial_pages).toBe(true);
      const job = await submitAndUpload({ template_id: tpl.id });
      expect(job.status).toBe('success');
      expect(job).toMatchObject({ pages_read: SHORT_WALLET / PRICE, page_count: PAGES, result: { invoice_number: expect.any(String) } });
      const stored = await (await fetch(job.result_download_url)).json();
      expect(stored).toMatchObject({ pages: SHORT_WALLET / PRICE, page_count: PAGES });
      expect(await settledWallet(auth)).toMatchObject({ balance: 0, spendable: 0 });
    });
  });

  it('the ledger charges every job exactly its pages read × price', async () => {
    await settledWallet();
    const rows = await chargesAndPagesRead();
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const r of rows) expect(r).toEqual({ job_id: r.job_id, charged: r.pages_read * PRICE, pages_read: r.pages_read });
  });
});
