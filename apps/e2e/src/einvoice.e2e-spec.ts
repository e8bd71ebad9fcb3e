import { describe, expect, it, jest } from '@jest/globals';
import { billionLaughsXml, externalEntityXml, INVENTED_INVOICE, inventedCii, inventedFacturX, inventedUbl } from '@docket/testing';
import { apiHelpers, useE2eStack } from './stack.test-helper.js';

jest.setTimeout(180_000);

/** A template a client would write for e-invoices (keys of its own, labels in English). */
const FIELDS = [
  { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
  { key: 'invoice_date', label: 'Invoice Date', data_type: 'date' },
  { key: 'due_date', label: 'Due Date', data_type: 'date' },
  { key: 'supplier', label: 'Supplier', data_type: 'string' },
  { key: 'supplier_vat_id', label: 'Supplier VAT ID', data_type: 'string' },
  { key: 'bill_to', label: 'Bill To', data_type: 'string' },
  { key: 'net', label: 'Net amount', data_type: 'currency' },
  { key: 'vat', label: 'VAT', data_type: 'currency' },
  { key: 'total', label: 'Total', data_type: 'currency' },
  { key: 'iban', label: 'IBAN', data_type: 'string' },
  {
    key: 'lines',
    label: 'Line items',
    data_type: 'table',
    fields: [
      { key: 'sku', label: 'SKU', data_type: 'string' },
      { key: 'item', label: 'Description', data_type: 'string' },
      { key: 'qty', label: 'Qty', data_type: 'number' },
      { key: 'price', label: 'Unit price', data_type: 'currency' },
      { key: 'amount', label: 'Amount', data_type: 'currency' },
    ],
  },
];
const eur = (value: number) => ({ value, currency: 'EUR' });
/** Every field, from the invented invoice's data. */
const EXPECTED = {
  invoice_number: 'RE-2031-0457',
  invoice_date: '2031-03-14',
  due_date: '2031-04-13',
  supplier: 'Quillfeather Werkstatt GmbH',
  supplier_vat_id: 'DE298765431',
  bill_to: 'Brackenridge Tools AG',
  net: eur(1100),
  vat: eur(209),
  total: eur(1309),
  iban: 'DE40430609670000571234',
  lines: [
    { sku: 'QF-100', item: 'Oak drafting table', qty: 2, price: eur(400), amount: eur(800) },
    { sku: 'QF-220', item: 'Brass lamp arm', qty: 4, price: eur(75), amount: eur(300) },
  ],
};

interface StoredResult {
  result: Record<string, unknown>;
  fields: Record<string, { provenance?: string; page?: number; bbox?: number[]; errors?: string[] }>;
  needs_review: boolean;
  pages: number;
}

describe('e-invoices through the public API', () => {
  const suite = useE2eStack('EInvoice');
  const { api, waitTerminal } = apiHelpers(suite);

  /** Submit, PUT, confirm, poll: the finished job, the stored result document and the artifact record. */
  async function extract(bytes: Buffer, filename: string, type: string) {
    const sub = await api()
      .post('/extract')
      .set('authorization', suite.live)
      .send({ filename, artifact_type: type, artifact_size: bytes.length, extraction_schema: { fields: FIELDS } })
      .expect(202);
    const put = await fetch(sub.body.upload_url, { method: 'PUT', headers: { 'content-type': type }, body: new Uint8Array(bytes) });
    expect(put.status).toBe(200);
    await api().post(`/artifacts/${sub.body.artifact_id}/confirm-upload`).set('authorization', suite.live).expect(200);
    const job = await waitTerminal(sub.body.job_id);
    const stored = job.result_download_url ? ((await (await fetch(job.result_download_url)).json()) as StoredResult) : undefined;
    const artifact = (await api().get(`/artifacts/${sub.body.artifact_id}`).set('authorization', suite.live).expect(200)).body;
    return { job, stored, artifact };
  }

  it('a Factur-X PDF: every field from its embedded XML (provenance embedded_xml), each boxed where the page prints it', async () => {
    const { job, stored, artifact } = await extract(await inventedFacturX(INVENTED_INVOICE), 'rechnung.pdf', 'application/pdf');
    expect(job.status).toBe('success');
    expect(job.result).toEqual(EXPECTED);
    expect(artifact.needs_review).toBe(false);
    for (const key of Object.keys(EXPECTED)) {
      expect(stored!.fields[key]).toMatchObject({ provenance: 'embedded_xml', page: 1, errors: [] });
      expect(stored!.fields[key]!.bbox).toHaveLength(4);
    }
  });

  it('a Factur-X PDF whose printed total differs from its XML is flagged for review, the field named', async () => {
    const { job, stored, artifact } = await extract(
      await inventedFacturX(INVENTED_INVOICE, { printedTotal: 1390 }),
      'odd.pdf',
      'application/pdf',
    );
    expect(job.status).toBe('success');
    expect(job.result.total).toEqual(eur(1309));
    expect(artifact.needs_review).toBe(true);
    expect(stored!.needs_review).toBe(true);
    expect(stored!.fields.total!.errors).toEqual([expect.stringContaining('printed page reads 1390')]);
    expect(stored!.fields.net!.errors).toEqual([]);
  });

  it.each([
    ['XRechnung UBL', 'application/xml', () => inventedUbl(INVENTED_INVOICE)],
    ['XRechnung CII', 'text/xml', () => inventedCii(INVENTED_INVOICE)],
  ])('an uploaded %s file (%s): every field from the data, one page charged', async (_name, type, make) => {
    const { job, stored } = await extract(Buffer.from(make()), 'invoice.xml', type);
    expect(job.status).toBe('success');
    expect(job.result).toEqual(EXPECTED);
    expect(Object.values(stored!.fields).every((m) => m.provenance === 'embedded_xml')).toBe(true);
    expect(stored!.needs_review).toBe(false);
    expect(stored!.pages).toBe(1);
  });

  it('POST /artifacts/upload of an XRechnung with the default auto template: classified as an invoice from its data', async () => {
    const up = await api()
      .post('/artifacts/upload')
      .set('authorization', suite.live)
      .attach('file', Buffer.from(inventedUbl(INVENTED_INVOICE)), { filename: 'xrechnung.xml', contentType: 'application/xml' })
      .expect(202);
    expect(await waitTerminal(up.body.jobs[0].job_id)).toMatchObject({
      status: 'success',
      result: {
        document_type: 'invoice',
        invoice_number: 'RE-2031-0457',
        vendor_name: 'Quillfeather Werkstatt GmbH',
        total_amount: eur(1309),
      },
    });
  });

  it.each([
    ['entity expansion ("billion laughs")', billionLaughsXml],
    ['an external entity', externalEntityXml],
  ])('hostile XML with %s fails its job with corrupt_file at once, nothing expanded', async (_name, make) => {
    const t0 = Date.now();
    const { job } = await extract(Buffer.from(make()), 'hostile.xml', 'application/xml');
    expect(job.status).toBe('failed');
    expect(job.error).toMatch(/^corrupt_file: the XML declares a DOCTYPE/);
    expect(Date.now() - t0).toBeLessThan(60_000);
  });
});
