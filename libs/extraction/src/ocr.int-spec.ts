import { afterAll, describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from './extraction.engine.js';
import type { ExtractionSchema } from './engine.types.js';
import { hasNativeTesseract } from './readers/ocr.tesseract.js';
import { textCanvas } from './testing/image.test-helper.js';
import { makePdf } from './testing/pdf.test-helper.js';
import { makeTiff, textPage } from './testing/tiff.test-helper.js';

// Real OCR (tesseract.js, offline model) on rendered images and on a scanned PDF without a text layer.
const engine = createExtractionEngine({ ocr: 'tesseract.js' });
afterAll(() => engine.close());

const schema: ExtractionSchema = {
  fields: [
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string' },
    { key: 'invoice_date', label: 'Invoice Date', data_type: 'date' },
    { key: 'total', label: 'Total', data_type: 'currency' },
    { key: 'vendor', data_type: 'string' },
    { key: 'paid', data_type: 'boolean' },
  ],
};
const expected = {
  invoice_number: 'INV-1001',
  invoice_date: '2024-03-15',
  total: { value: 1234.5, currency: 'USD' },
  vendor: 'Acme Corp',
  paid: true,
};

function render(mime: 'image/png' | 'image/jpeg' | 'image/webp'): Uint8Array {
  const c = textCanvas(['Invoice Number: INV-1001', 'Invoice Date: 2024-03-15', 'Total: $1,234.50', 'Vendor: Acme Corp', 'Paid: yes'], {
    height: 900,
  });
  return new Uint8Array(
    mime === 'image/png' ? c.toBuffer('image/png') : mime === 'image/jpeg' ? c.toBuffer('image/jpeg', 95) : c.toBuffer('image/webp', 95),
  );
}

describe('OCR readers', () => {
  it.each(['image/png', 'image/jpeg', 'image/webp'] as const)(
    'extracts fields from a %s',
    async (mime) => {
      const out = await engine.extract({ bytes: render(mime), mimeType: mime, filename: 'scan' }, schema);
      expect(out.result).toEqual(expected);
      expect(out.pages).toBe(1);
      expect(out.fields.total!.bbox).toHaveLength(4);
    },
    60_000,
  );

  it('OCRs a PDF page that has no text layer', async () => {
    const png = render('image/png');
    const pdf = await makePdf((d) => d.image(Buffer.from(png), 0, 0, { width: 612 }), { size: [612, 324] });
    const out = await engine.extract({ bytes: pdf, mimeType: 'application/pdf', filename: 'scan.pdf' }, schema);
    expect(out.result).toEqual(expected);
    // Boxes are in PDF points, not pixels of the rendering.
    expect(out.fields.total!.bbox![2]).toBeLessThanOrEqual(612);
  }, 60_000);

  it('reads a company block pasted as a picture into a text-layer PDF, and leaves body pictures alone', async () => {
    const block = (lines: string[]) =>
      textCanvas(lines, { width: 1600, height: 300, font: '44px sans-serif', x: 40, y: 80 }).toBuffer('image/png');
    const pdf = await makePdf((d) => {
      d.fontSize(12).text('Invoice Number: INV-2040', 50, 60).text('Total: EUR 99.00', 50, 80);
      d.image(block(['Chart legend: Quarterly revenue', 'IBAN: NL91ABNA0417164300']), 50, 300, { width: 480 });
      d.image(block(['Vendor: Kestrel Tools B.V.', 'IBAN: DE31430715962846170352']), 50, 680, { width: 480 });
    });
    const out = await engine.extract(
      { bytes: pdf, mimeType: 'application/pdf', filename: 'letterhead.pdf' },
      {
        fields: [
          { key: 'invoice_number', label: 'Invoice Number', data_type: 'string' },
          { key: 'vendor', data_type: 'string' },
          { key: 'iban', label: 'IBAN', data_type: 'string' },
        ],
      },
    );
    expect(out.result).toEqual({ invoice_number: 'INV-2040', vendor: 'Kestrel Tools B.V.', iban: 'DE31430715962846170352' });
    expect(out.markdown).not.toContain('Quarterly');
  }, 60_000);

  it('reads every page of a multi-page TIFF, with either OCR backend', async () => {
    const tiff = makeTiff([
      textPage(['Invoice Number: INV-1001', 'Invoice Date: 2024-03-15', 'Vendor: Acme Corp']),
      textPage(['Paid: yes', 'Total: $1,234.50']),
    ]);
    for (const ocrEngine of hasNativeTesseract() ? ['tesseract.js', 'tesseract'] : ['tesseract.js']) {
      const out = await engine.extract({ bytes: tiff, mimeType: 'image/tiff', filename: 'scan.tif' }, schema, { ocrEngine });
      expect(out.result).toEqual(expected);
      expect(out.pages).toBe(2);
      expect(out.fields.invoice_number!.page).toBe(1);
      expect(out.fields.total!.page).toBe(2);
      expect(out.markdown).toContain('INV-1001');
    }
  }, 120_000);

  it('reads German words with the German model', async () => {
    const tiff = makeTiff([textPage(['Rechnungsnummer: RE-2024-17', 'Lieferadresse: Hauptstraße 12', 'Größe: 42'])]);
    const de: ExtractionSchema = {
      fields: [
        { key: 'number', label: 'Rechnungsnummer', data_type: 'string' },
        { key: 'address', label: 'Lieferadresse', data_type: 'string' },
      ],
    };
    const out = await engine.extract({ bytes: tiff, mimeType: 'image/tiff', filename: 'de.tif' }, de, { ocrLanguages: 'deu+eng' });
    expect(out.result).toEqual({ number: 'RE-2024-17', address: 'Hauptstraße 12' });
    expect(out.markdown).toContain('Größe');
  }, 120_000);
});
