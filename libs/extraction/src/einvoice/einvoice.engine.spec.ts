import { afterAll, describe, expect, it } from '@jest/globals';
import { billionLaughsXml, externalEntityXml, INVENTED_INVOICE, inventedCii, inventedFacturX, inventedUbl } from '@docket/testing';
import { AUTO_STANDARD_FIELDS } from '@docket/contracts';
import type { ExtractionSchema } from '../engine.types.js';
import { createExtractionEngine } from '../extraction.engine.js';
import { extractAuto } from '../auto/auto.extractor.js';
import { errorCodeOf } from '../testing/error.test-helper.js';
import { invoiceSchema } from '../testing/invoice-layout.test-helper.js';

/** What every field of the corpus-style invoice schema must be, from the invented invoice's data. */
const EXPECTED = {
  invoice_number: 'RE-2031-0457',
  invoice_date: '2031-03-14',
  due_date: '2031-04-13',
  seller_name: 'Quillfeather Werkstatt GmbH',
  buyer_name: 'Brackenridge Tools AG',
  currency: 'EUR',
  total_amount: 1309,
  net_amount: 1100,
  tax_amount: 209,
  vat_id: 'DE298765431',
  iban: 'DE40430609670000571234',
  line_items: [
    { description: 'Oak drafting table', quantity: 2, unit_price: 400, amount: 800 },
    { description: 'Brass lamp arm', quantity: 4, unit_price: 75, amount: 300 },
  ],
};
const xml = (s: string, mimeType = 'application/xml', filename = 'invoice.xml') => ({
  bytes: new TextEncoder().encode(s),
  mimeType,
  filename,
});
const pdf = async (b: Buffer) => ({ bytes: new Uint8Array(b), mimeType: 'application/pdf', filename: 'facturx.pdf' });

describe('e-invoices read from their data', () => {
  const engine = createExtractionEngine({ ocrIsolate: false });
  afterAll(() => engine.close());

  it('answers every field of a Factur-X PDF from its XML, each placed on the page where it is printed', async () => {
    const out = await engine.extract(await pdf(await inventedFacturX(INVENTED_INVOICE)), invoiceSchema);
    expect(out.result).toEqual(EXPECTED);
    expect(out.needsReview).toBe(false);
    expect(out.documentKind).toBe('invoice');
    for (const key of Object.keys(EXPECTED)) {
      expect(out.fields[key]).toMatchObject({ provenance: 'embedded_xml', errors: [], page: 1 });
      expect(out.fields[key]!.bbox).toHaveLength(4);
    }
    // The printed total sits on the "Gesamtbetrag" line, right column, below the line items.
    const [x0, y0] = out.fields.total_amount!.bbox!;
    expect(x0).toBeGreaterThan(450);
    expect(y0).toBeGreaterThan(out.fields.line_items!.bbox![1]);
    expect(out.markdown).toContain('Rechnung');
  });

  it('flags a PDF whose printed total differs from its XML, naming the field', async () => {
    const out = await engine.extract(await pdf(await inventedFacturX(INVENTED_INVOICE, { printedTotal: 1390 })), invoiceSchema);
    expect(out.result.total_amount).toBe(1309);
    expect(out.needsReview).toBe(true);
    expect(out.fields.total_amount!.errors).toEqual([expect.stringMatching(/printed page reads 1390 .* embedded XML says 1309/)]);
    expect(out.fields.total_amount!.confidence).toBeLessThan(0.7);
    expect(out.fields.net_amount!.errors).toEqual([]);
  });

  it.each([
    ['a UBL file', () => inventedUbl(INVENTED_INVOICE)],
    ['a CII file', () => inventedCii(INVENTED_INVOICE)],
  ])('reads %s uploaded as application/xml: every field from the data, one page', async (_name, make) => {
    const out = await engine.extract(xml(make()), invoiceSchema);
    expect(out.result).toEqual(EXPECTED);
    expect(out.pages).toBe(1);
    expect(out.needsReview).toBe(false);
    expect(Object.values(out.fields).every((m) => m.provenance === 'embedded_xml' && m.bbox === undefined)).toBe(true);
    expect(out.markdown).toContain('| Invoice number | RE-2031-0457 |');
    expect(out.markdown).toContain('| Oak drafting table |');
  });

  it("gives amounts the template's default_currency when the XML names no currency", async () => {
    const noCurrency = inventedUbl(INVENTED_INVOICE).replace('<cbc:DocumentCurrencyCode>EUR</cbc:DocumentCurrencyCode>', '');
    const schema: ExtractionSchema = { fields: [{ key: 'total', label: 'Total', data_type: 'currency' }] };
    expect((await engine.extract(xml(noCurrency), schema)).result).toEqual({ total: { value: 1309, currency: null } });
    expect((await engine.extract(xml(noCurrency), schema, { defaultCurrency: 'CHF' })).result).toEqual({
      total: { value: 1309, currency: 'CHF' },
    });
  });

  it('reads XML sent as text/xml or as octet-stream (by the .xml name or the <?xml declaration)', async () => {
    for (const input of [
      xml(inventedUbl(INVENTED_INVOICE), 'text/xml'),
      xml(inventedUbl(INVENTED_INVOICE), 'application/octet-stream', 'x.xml'),
      xml(inventedCii(INVENTED_INVOICE), 'application/octet-stream', 'upload.bin'),
    ])
      expect((await engine.extract(input, invoiceSchema)).result.invoice_number).toBe('RE-2031-0457');
  });

  it('fails hostile XML uploads (entity expansion, external entity) with corrupt_file, at once', async () => {
    const t0 = performance.now();
    expect(await errorCodeOf(engine.extract(xml(billionLaughsXml()), invoiceSchema))).toBe('corrupt_file');
    expect(await errorCodeOf(engine.extract(xml(externalEntityXml()), invoiceSchema))).toBe('corrupt_file');
    expect(await errorCodeOf(engine.extract(xml('<?xml version="1.0"?><notes/>'), invoiceSchema))).toBe('unsupported_type');
    expect(performance.now() - t0).toBeLessThan(2000);
  });

  it('reads a PDF whose attachment is hostile from its pages, ignoring the attachment', async () => {
    const out = await engine.extract(await pdf(await inventedFacturX(INVENTED_INVOICE, { xml: billionLaughsXml() })), invoiceSchema);
    expect(out.result.invoice_number).toBe('RE-2031-0457');
    expect(out.fields.invoice_number!.provenance).toBeUndefined();
  });

  it('keeps fields the XML does not carry from the page (provenance page), and names the template\u2019s own keys', async () => {
    const schema: ExtractionSchema = {
      fields: [
        { key: 'rechnungsnummer', label: 'Rechnungsnummer', data_type: 'string' },
        { key: 'gesamtbetrag', label: 'Gesamtbetrag', data_type: 'currency' },
        { key: 'order_no', label: 'PO number', data_type: 'string' },
        { key: 'vat_note', label: 'USt.', data_type: 'string' },
        { key: 'customer_vat', label: 'Customer VAT ID', data_type: 'string' },
      ],
    };
    const out = await engine.extract(await pdf(await inventedFacturX(INVENTED_INVOICE)), schema);
    expect(out.result).toEqual({
      rechnungsnummer: 'RE-2031-0457',
      gesamtbetrag: { value: 1309, currency: 'EUR' },
      order_no: 'PO-88213',
      vat_note: '19 %',
      customer_vat: 'DE187654329',
    });
    expect(out.fields.gesamtbetrag!.provenance).toBe('embedded_xml');
    expect(out.fields.vat_note!.provenance).toBe('page');
    // The buyer's VAT id is not printed: no box, and the page reader's pick (the seller's id) is no disagreement.
    expect(out.fields.customer_vat).toEqual({ confidence: 0.99, errors: [], provenance: 'embedded_xml' });
    expect(out.needsReview).toBe(false);
  });

  it('reads only the pages when embedded invoices are turned off (the evaluation measures the pages)', async () => {
    const pagesOnly = createExtractionEngine({ ocrIsolate: false, embeddedInvoices: false });
    try {
      const out = await pagesOnly.extract(await pdf(await inventedFacturX(INVENTED_INVOICE, { printedTotal: 1390 })), invoiceSchema);
      expect(out.result.total_amount).toBe(1390);
      expect(out.fields.total_amount!.provenance).toBeUndefined();
    } finally {
      await pagesOnly.close();
    }
  });

  it('the auto template classifies an e-invoice as an invoice from its data', async () => {
    const schemas = Object.fromEntries(Object.entries(AUTO_STANDARD_FIELDS).map(([k, fields]) => [k, { fields }])) as never;
    const out = await extractAuto(engine, xml(inventedUbl(INVENTED_INVOICE)), schemas);
    expect(out.result).toMatchObject({
      document_type: 'invoice',
      vendor_name: 'Quillfeather Werkstatt GmbH',
      customer_name: 'Brackenridge Tools AG',
      subtotal: { value: 1100, currency: 'EUR' },
      total_amount: { value: 1309, currency: 'EUR' },
    });
    expect(out.fields.document_type!.confidence).toBe(1);
  });
});
