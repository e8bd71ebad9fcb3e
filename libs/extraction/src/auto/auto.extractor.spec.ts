import { describe, expect, it } from '@jest/globals';
import type { ExtractionEngine, ExtractionOutput, ExtractionSchema } from '../engine.types.js';
import { classifyDocument, extractAuto, type AutoDocumentKind } from './auto.extractor.js';

// Invented documents, whole pages as the engine renders them: the kind scorer weighs a page's evidence together, so
// the cases are realistic pages rather than a title and two label words.
const INVOICE_EN = [
  'Brimwell Joinery Ltd',
  '4 Tollgate Row, Fenmarch',
  'INVOICE',
  'Invoice Number: INV-2001',
  'Invoice date: 2026-11-01',
  'Bill to: Orrin Castleby',
  'Due date: 2026-12-01',
  'Description Qty Unit price Amount',
  'Oak shelving 2 150.00 300.00',
  'Fitting 1 80.00 80.00',
  'Subtotal 380.00',
  'VAT 20% 76.00',
  'Total: $456.00',
  'Payment terms: 30 days',
].join('\n');
const INVOICE_DE = [
  'Holzwerk Brandau GmbH',
  'Lindenweg 4, 12345 Feldheim',
  'Rechnung Nr. 2026-17',
  'Rechnungsdatum: 01.11.2026',
  'Pos Bezeichnung Menge Einzelpreis Betrag',
  '1 Regal Eiche 2 150,00 300,00',
  '2 Montage 1 80,00 80,00',
  'Nettobetrag 380,00',
  'USt 19 % 72,20',
  'Gesamtbetrag 452,20',
  'Zahlungsziel 14 Tage',
].join('\n');
const INVOICE_FR = [
  'Atelier Vérane SARL',
  '12 rue des Tilleuls',
  'Facture n° 42',
  'Date : 03/02/2026',
  'Client : Maison Orbel',
  'Désignation  Qté  Prix unitaire  Montant',
  'Étagère chêne  2  150,00  300,00',
  'Pose  1  80,00  80,00',
  'Total HT 380,00',
  'TVA 20 % 76,00',
  'Total TTC 456,00',
  'Échéance : 30 jours',
].join('\n');

describe('classifyDocument', () => {
  it.each<[string, string, AutoDocumentKind]>([
    [INVOICE_EN, 'application/pdf', 'invoice'],
    [INVOICE_DE, 'application/pdf', 'invoice'],
    [INVOICE_FR, 'application/pdf', 'invoice'],
    ['CORNER STORE\nSales receipt\nMilk 1.20\nTotal 1.20\nCash 5.00\nChange 3.80\nThank you!', 'image/png', 'receipt'],
    ['Kassenbon\nBrot 2,10\nSumme 2,10\nBar 5,00\nRückgeld 2,90', 'image/jpeg', 'receipt'],
    ['Application form\nName: ____\nDate of birth: ____\n☐ I agree\nSignature: ____', 'application/pdf', 'form'],
    ['| sku | qty | price |\n|---|---|---|\n| A1 | 2 | 3.00 |\n| B2 | 1 | 9.50 |', 'text/csv', 'table_document'],
    ['sku,qty\nA1,2', 'text/csv', 'table_document'],
    ['Meeting notes\n\nWe talked about the roadmap.', 'text/plain', 'other'],
    ['', 'text/plain', 'other'],
  ])('case %#', (text, mime, kind) => {
    expect(classifyDocument(text, mime).kind).toBe(kind);
  });

  it('weighs all the evidence: a till receipt titled "TAX INVOICE" is a receipt', () => {
    const receipt = [
      'KEDAI RUNCIT MAWAR',
      'No. 7, Jalan Cempaka Tiga',
      'TAX INVOICE',
      'Cashier: 02   12/03/2026 14:05',
      'Teh tarik 2 x 1.50 3.00',
      'Roti canai 1.20',
      'Nasi lemak 4.50',
      'Total 8.70',
      'Cash 10.00',
      'Change 1.30',
      'Thank you, please come again',
    ].join('\n');
    expect(classifyDocument(receipt, 'image/jpeg').kind).toBe('receipt');
  });

  it('matches whole words only ("performance" is no form, "invoiced" no invoice)', () => {
    expect(classifyDocument('The performance was invoiced late. Transformation.', 'text/plain').kind).toBe('other');
  });

  it('reports a confidence between 0 and 1', () => {
    const { confidence } = classifyDocument(INVOICE_EN, 'application/pdf');
    expect(confidence).toBeGreaterThan(0.5);
    expect(confidence).toBeLessThanOrEqual(1);
  });
});

describe('extractAuto', () => {
  const schemas = Object.fromEntries(
    (['invoice', 'receipt', 'form', 'table_document', 'other'] as const).map((k) => [
      k,
      { fields: [{ key: `${k}_field`, data_type: 'string' as const }] },
    ]),
  ) as Record<AutoDocumentKind, ExtractionSchema>;

  /** An engine standing in for the real one: renders `text` and answers each schema's one field. */
  function engineFor(text: string): Pick<ExtractionEngine, 'extract'> & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      async extract(_input, schema): Promise<ExtractionOutput> {
        const key = schema.fields[0].key;
        calls.push(key);
        return {
          result: { [key]: 'x' },
          fields: { [key]: { confidence: 0.9, errors: [] } },
          confidence: 0.9,
          needsReview: false,
          pages: 2,
          markdown: text,
        };
      },
    };
  }
  const input = { bytes: new Uint8Array([1]), mimeType: 'application/pdf', filename: 'a.pdf' };

  it('an invoice is read once with the invoice fields; the result names the kind first', async () => {
    const engine = engineFor(INVOICE_EN);
    const out = await extractAuto(engine, input, schemas);
    expect(engine.calls).toEqual(['invoice_field']);
    expect(Object.keys(out.result)).toEqual(['document_type', 'invoice_field']);
    expect(out).toMatchObject({ kind: 'invoice', result: { document_type: 'invoice' }, pages: 2 });
  });

  it('another kind is extracted again with its own fields', async () => {
    const engine = engineFor('Sales receipt\nCash 5.00\nChange 1.00');
    const out = await extractAuto(engine, input, schemas);
    expect(engine.calls).toEqual(['invoice_field', 'receipt_field']);
    expect(out.result).toEqual({ document_type: 'receipt', receipt_field: 'x' });
    expect(out.fields.document_type.confidence).toBeGreaterThan(0);
  });
});
