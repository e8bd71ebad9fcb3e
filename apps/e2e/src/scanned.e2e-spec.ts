import { describe, expect, it, jest } from '@jest/globals';
import { createCanvas } from '@napi-rs/canvas';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

jest.setTimeout(180_000);

/** A "scanned" invoice: text drawn into a raster image, so there is no text layer and OCR must read it. */
function scannedInvoice(): Buffer {
  const canvas = createCanvas(1700, 1000);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 1700, 1000);
  ctx.fillStyle = '#000';
  ctx.font = 'bold 56px sans-serif';
  ctx.fillText('INVOICE', 100, 110);
  ctx.font = '40px sans-serif';
  ['Vendor: Northwind Traders', 'Invoice Number: NW-77812', 'Invoice Date: 2024-07-09', 'Total: $2,480.00'].forEach((line, i) =>
    ctx.fillText(line, 100, 240 + i * 90),
  );
  return canvas.toBuffer('image/png');
}

describe('OCR through the public API', () => {
  const suite = useE2eStack('Scanned');
  const { api, waitTerminal } = apiHelpers(suite);

  const FIELDS = [
    { key: 'vendor', label: 'Vendor', data_type: 'string' },
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
    { key: 'invoice_date', label: 'Invoice Date', data_type: 'date' },
    { key: 'total', label: 'Total', data_type: 'currency' },
  ];
  const EXPECTED = {
    vendor: 'Northwind Traders',
    invoice_number: 'NW-77812',
    invoice_date: '2024-07-09',
    total: { value: 2480, currency: 'USD' },
  };

  async function extractScan(target: Record<string, unknown>) {
    const png = scannedInvoice();
    const sub = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename: 'scan.png', artifact_type: 'image/png', artifact_size: png.length, ...target })
      .expect(202);
    const put = await fetch(sub.body.upload_url, { method: 'PUT', headers: { 'content-type': 'image/png' }, body: png });
    expect(put.status).toBe(200);
    await api().post(`/artifacts/${sub.body.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(200);
    return waitTerminal(sub.body.job_id);
  }

  it('extracts the expected fields from a scanned PNG', async () => {
    const job = await extractScan({ extraction_schema: { fields: FIELDS } });
    expect(job.status).toBe('success');
    expect(job.result).toEqual(EXPECTED);
  });

  // Each OCR engine a template can name (ADR 0005): the same scan, the same answers.
  it.each(['paddle', 'tesseract.js', 'tesseract'])('extracts the same fields with the template OCR engine %s', async (engine) => {
    const tpl = await api()
      .post('/templates/')
      .set('authorization', suite.live)
      .send({ name: `Scan via ${engine}`, fields: FIELDS, settings: { ocr_engine: engine } })
      .expect(201);
    const job = await extractScan({ template_id: tpl.body.id });
    expect(job.status).toBe('success');
    expect(job.result).toEqual(EXPECTED);
  });

  it('refuses a declared unsupported type at submit, and fails an undetectable octet-stream with a coded error, never a crash', async () => {
    const bytes = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const schema = { fields: [{ key: 'a', data_type: 'string' }] };
    const refused = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename: 'x.svg', artifact_type: 'image/svg+xml', artifact_size: bytes.length, extraction_schema: schema })
      .expect(400);
    expect(refused.body.code).toBe('unsupported_artifact_type');
    // application/octet-stream is accepted at submit (resolved from the bytes); SVG bytes resolve to nothing the engine reads.
    const sub = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename: 'x.svg', artifact_type: 'application/octet-stream', artifact_size: bytes.length, extraction_schema: schema })
      .expect(202);
    await fetch(sub.body.upload_url, { method: 'PUT', headers: { 'content-type': 'application/octet-stream' }, body: bytes });
    await api().post(`/artifacts/${sub.body.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(200);
    const job = await waitTerminal(sub.body.job_id);
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^unsupported_type: /);
  });
});
