import { describe, expect, it, afterAll } from '@jest/globals';
import { createExtractionEngine, extractFromLayout } from './extraction.engine.js';
import { isLowResPage } from './readers/image.reader.js';
import type { OcrService } from './readers/ocr.service.js';
import { encodePng } from './readers/tiff.reader.js';
import { readText } from './readers/text.reader.js';
import { ExtractionError, type ExtractionSchema } from './engine.types.js';
import { syntheticResult } from './synthetic.result.js';
import { makePdf } from './testing/pdf.test-helper.js';
import { errorCodeOf } from './testing/error.test-helper.js';

const engine = createExtractionEngine();
afterAll(() => engine.close());

const invoiceSchema: ExtractionSchema = {
  fields: [
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
    { key: 'invoice_date', label: 'Invoice Date', data_type: 'date' },
    { key: 'total', label: 'Total', data_type: 'currency' },
    { key: 'vendor', label: 'Vendor', data_type: 'string' },
    { key: 'paid', data_type: 'boolean' },
  ],
};

describe('extraction engine', () => {
  it('extracts label: value pairs from a text-layer PDF', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(12)
        .text('Invoice Number: INV-1001')
        .text('Invoice Date: 2024-03-15')
        .text('Total: $1,234.50')
        .text('Vendor: Acme Corp')
        .text('Paid: yes');
    });
    const out = await engine.extract({ bytes, mimeType: 'application/pdf', filename: 'inv.pdf' }, invoiceSchema);
    expect(out.result).toEqual({
      invoice_number: 'INV-1001',
      invoice_date: '2024-03-15',
      total: { value: 1234.5, currency: 'USD' },
      vendor: 'Acme Corp',
      paid: true,
    });
    expect(out.pages).toBe(1);
    expect(out.fields.invoice_number!.page).toBe(1);
    expect(out.fields.invoice_number!.bbox).toHaveLength(4);
    expect(out.needsReview).toBe(false);
    expect(out.markdown).toContain('Invoice Number: INV-1001');
  });

  it('reads text/plain with abbreviated labels and key-derived labels', async () => {
    const text = 'ACME GmbH\nInv. No.: 2024-77\nDate: 15.03.2024\nAmount due: 1.234,50 EUR\n';
    const out = await engine.extract(
      { bytes: new TextEncoder().encode(text), mimeType: 'text/plain', filename: 'a.txt' },
      {
        fields: [
          { key: 'invoice_number', label: 'Invoice number', data_type: 'string' },
          { key: 'invoice_date', label: 'Invoice date', data_type: 'date' },
          { key: 'amount_due', data_type: 'currency' },
        ],
      },
    );
    expect(out.result).toEqual({ invoice_number: '2024-77', invoice_date: '2024-03-15', amount_due: { value: 1234.5, currency: 'EUR' } });
  });

  it('reads "Net total" as the net amount, the later subtotal as the summary, "Date of delivery" as not the invoice date', async () => {
    const text =
      'Invoice 2024-9 issued 2024-03-01\nDate of delivery: 2024-02-20\nSubtotal: 10.00\nSubtotal: 30.00\nNet total: 40.00\nVAT total: 8.00\nDue payable: 48.00\n';
    const out = await engine.extract(
      { bytes: new TextEncoder().encode(text), mimeType: 'text/plain', filename: 'n.txt' },
      {
        fields: [
          { key: 'invoice_date', label: 'Invoice date', data_type: 'date' },
          { key: 'total_amount', label: 'Total', data_type: 'number' },
          { key: 'net_amount', label: 'Net amount', data_type: 'number' },
        ],
      },
    );
    expect(out.result).toMatchObject({ invoice_date: '2024-03-01', total_amount: 48, net_amount: 40 });
  });

  it('splits a value glued to its label and stops a document number at plain words', async () => {
    const text = 'Facture n°731905522 du 14 Juillet 2019\n';
    const out = await engine.extract(
      { bytes: new TextEncoder().encode(text), mimeType: 'text/plain', filename: 'f.txt' },
      {
        fields: [
          { key: 'invoice_number', label: 'Invoice number', data_type: 'string' },
          { key: 'invoice_date', label: 'Invoice date', data_type: 'date' },
        ],
      },
    );
    expect(out.result).toEqual({ invoice_number: '731905522', invoice_date: '2019-07-14' });
  });

  it('flags review when a required field is missing but others are found', async () => {
    const out = await engine.extract(
      { bytes: new TextEncoder().encode('Vendor: Acme\n'), mimeType: 'text/plain', filename: 'a.txt' },
      {
        fields: [
          { key: 'vendor', data_type: 'string' },
          { key: 'po_number', label: 'PO number', data_type: 'string', required: true },
        ],
      },
    );
    expect(out.result).toEqual({ vendor: 'Acme' });
    expect(out.needsReview).toBe(true);
    expect(out.fields.po_number!.errors).toEqual(['required field not found']);
  });

  it('fails with required_field_missing when nothing at all is found', async () => {
    const p = engine.extract(
      { bytes: new TextEncoder().encode('hello world\n'), mimeType: 'text/plain', filename: 'a.txt' },
      {
        fields: [{ key: 'po_number', data_type: 'string', required: true }],
      },
    );
    expect(await errorCodeOf(p)).toBe('required_field_missing');
  });

  it('applies validation rules and flags review', async () => {
    const out = await engine.extract(
      { bytes: new TextEncoder().encode('Total: 5.00\nCode: abc-1\n'), mimeType: 'text/plain', filename: 'a.txt' },
      {
        fields: [
          { key: 'total', data_type: 'number', validation: { min_value: 10 } },
          { key: 'code', data_type: 'string', validation: { regex: '^[0-9]+$' } },
        ],
      },
    );
    expect(out.result).toEqual({ total: 5, code: 'abc-1' });
    expect(out.fields.total!.errors[0]).toMatch(/min_value/);
    expect(out.fields.code!.errors[0]).toMatch(/does not match/);
    expect(out.needsReview).toBe(true);
  });

  describe('coded errors', () => {
    const schema = invoiceSchema;
    it('unsupported type', async () => {
      expect(
        await errorCodeOf(engine.extract({ bytes: new Uint8Array([1, 2, 3]), mimeType: 'application/zip', filename: 'a.zip' }, schema)),
      ).toBe('unsupported_type');
    });
    it('empty file', async () => {
      expect(await errorCodeOf(engine.extract({ bytes: new Uint8Array(), mimeType: 'application/pdf', filename: 'a.pdf' }, schema))).toBe(
        'empty_file',
      );
    });
    it('corrupt PDF', async () => {
      const bytes = new TextEncoder().encode('%PDF-1.7\n garbage garbage\n%%EOF');
      expect(await errorCodeOf(engine.extract({ bytes, mimeType: 'application/pdf', filename: 'a.pdf' }, schema))).toBe('corrupt_file');
    });
    it('truncated PDF', async () => {
      const full = await makePdf((d) => d.text('Invoice Number: 1'));
      expect(
        await errorCodeOf(engine.extract({ bytes: full.slice(0, 200), mimeType: 'application/pdf', filename: 'a.pdf' }, schema)),
      ).toMatch(/corrupt_file|required_field_missing/);
    });
    it('not a PDF at all', async () => {
      expect(
        await errorCodeOf(
          engine.extract({ bytes: new TextEncoder().encode('hello'), mimeType: 'application/pdf', filename: 'a.pdf' }, schema),
        ),
      ).toBe('corrupt_file');
    });
    it('encrypted PDF', async () => {
      const bytes = await makePdf((d) => d.text('Invoice Number: 1'), {
        userPassword: 'secret',
        ownerPassword: 'owner',
        pdfVersion: '1.7',
      });
      expect(await errorCodeOf(engine.extract({ bytes, mimeType: 'application/pdf', filename: 'a.pdf' }, schema))).toBe('encrypted_file');
    });
    it('file too large', async () => {
      const small = createExtractionEngine({ maxBytes: 10 });
      expect(await errorCodeOf(small.extract({ bytes: new Uint8Array(11), mimeType: 'text/plain', filename: 'a.txt' }, schema))).toBe(
        'file_too_large',
      );
    });
    it('header-only image uploads (a cut-off PNG, JPEG or WebP) fail as corrupt, without reaching the native decoder', async () => {
      const png = await encodePng(new Uint8Array(762 * 1000 * 4).fill(255), 762, 1000);
      expect(await errorCodeOf(engine.extract({ bytes: png.slice(0, 33), mimeType: 'image/png', filename: 'a.png' }, schema))).toBe(
        'corrupt_file',
      );
      const jpeg = new Uint8Array([
        0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x03, 0xe8, 0x02, 0xfa, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01,
      ]);
      expect(await errorCodeOf(engine.extract({ bytes: jpeg, mimeType: 'image/jpeg', filename: 'a.jpg' }, schema))).toBe('corrupt_file');
      const webp = new Uint8Array([...Buffer.from('RIFF'), 0x00, 0x10, 0x00, 0x00, ...Buffer.from('WEBPVP8 '), ...new Array(20).fill(0)]);
      expect(await errorCodeOf(engine.extract({ bytes: webp, mimeType: 'image/webp', filename: 'a.webp' }, schema))).toBe('corrupt_file');
    });
    it('image declared but bytes are not an image', async () => {
      expect(
        await errorCodeOf(engine.extract({ bytes: new Uint8Array([1, 2, 3, 4]), mimeType: 'image/png', filename: 'a.png' }, schema)),
      ).toBe('corrupt_file');
    });
  });
});

describe('syntheticResult', () => {
  it('is deterministic and typed', () => {
    const schema: ExtractionSchema = {
      fields: [
        { key: 'name', data_type: 'string' },
        { key: 'n', data_type: 'number' },
        { key: 'd', data_type: 'date' },
        { key: 'c', data_type: 'currency' },
        { key: 'b', data_type: 'boolean' },
        {
          key: 't',
          data_type: 'table',
          fields: [
            { key: 'x', data_type: 'string' },
            { key: 'y', data_type: 'number' },
          ],
        },
      ],
    };
    const r = syntheticResult(schema);
    expect(r).toEqual({
      name: 'sample name',
      n: 42,
      d: '2024-01-15',
      c: { value: 100, currency: 'USD' },
      b: true,
      t: [{ x: 'sample x', y: 42 }],
    });
    expect(syntheticResult(schema)).toEqual(r);
  });
});

describe('robustness', () => {
  it('throws only coded errors on random bytes of every declared type', async () => {
    const e = createExtractionEngine({ ocr: 'tesseract.js' });
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
    const junk = new Uint8Array(4096).map(rnd);
    for (const mime of [
      'application/pdf',
      'text/plain',
      'text/csv',
      'text/html',
      'application/xml',
      'application/octet-stream',
      'application/msword',
    ]) {
      try {
        await e.extract({ bytes: junk, mimeType: mime, filename: 'x' }, { fields: [{ key: 'a', data_type: 'string' }] });
      } catch (err) {
        expect(err).toBeInstanceOf(ExtractionError);
      }
    }
    await e.close();
  });

  it('honours an aborted signal with extraction_timeout', async () => {
    const ac = new AbortController();
    ac.abort();
    const p = engine.extract(
      { bytes: new TextEncoder().encode('a: b'), mimeType: 'text/plain', filename: 'a.txt' },
      { fields: [] },
      { signal: ac.signal },
    );
    expect(await errorCodeOf(p)).toBe('extraction_timeout');
  });

  it('caps the pages read of a long PDF', async () => {
    const bytes = await makePdf((d) => {
      d.text('Invoice Number: 1');
      for (let i = 0; i < 5; i++) d.addPage().text(`page ${i + 2}`);
    });
    const capped = createExtractionEngine({ maxPages: 3 });
    const out = await capped.extract({ bytes, mimeType: 'application/pdf', filename: 'a.pdf' }, invoiceSchema);
    expect(out.pages).toBe(3);
    expect(out.result.invoice_number).toBe('1');
  });
});

describe('identifier under a bare subject cell', () => {
  it('reads the invoice number under an "Invoice" cell of a header grid, but prefers a real "Invoice No." label', () => {
    const grid = [
      'Customer        Invoice date     Invoice        Due date',
      'C-0042          08-09-2022       VF2040117788   22-09-2022',
    ].join('\n');
    const schema: ExtractionSchema = { fields: [{ key: 'invoice_number', label: 'Invoice number', data_type: 'string' }] };
    const run = (t: string) => extractFromLayout(readText(new TextEncoder().encode(t)), schema).result;
    expect(run(grid)).toEqual({ invoice_number: 'VF2040117788' });
    expect(run(`${grid}\n\nInvoice No.: A-77`)).toEqual({ invoice_number: 'A-77' });
  });
});

describe('low-resolution page scans', () => {
  /** A blank 100-dpi page scan (Letter, 762 × 1000 px): the fake OCR never looks at it. */
  const scan = (): Promise<Uint8Array> => encodePng(new Uint8Array(762 * 1000 * 4).fill(255), 762, 1000);
  /** Just the PNG header, for the size check. */
  const pngHeader = (width: number, height: number): Uint8Array => {
    const b = new Uint8Array(33);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const dv = new DataView(b.buffer);
    dv.setUint32(16, width);
    dv.setUint32(20, height);
    return b;
  };
  const word = (text: string, x0: number, y0: number, x1: number, y1: number) => ({ text, x0, y0, x1, y1, conf: 0.9 });
  const formSchema: ExtractionSchema = {
    fields: [
      { key: 'compound', label: 'COMPOUND', data_type: 'string' },
      { key: 'source', label: 'SOURCE', data_type: 'string' },
    ],
  };
  /** Block mode garbles the small labels; sparse mode reads them. Boxes are in the upscaled image (2×). */
  function formOcr(sparseReadsLabels: boolean) {
    const modes: (number | undefined)[] = [];
    const ocr: OcrService = {
      async recognize(_image, opts = {}) {
        modes.push(opts.pageSegMode);
        const sparse = opts.pageSegMode === 11 && sparseReadsLabels;
        return {
          words: [
            word(sparse ? 'COMPOUND' : 'cowrouo', 200, 200, 290, 214),
            word('Vanillex', 320, 196, 450, 214),
            word(sparse ? 'SOURCE' : 'sonce', 200, 260, 262, 274),
            word('Harbourview', 320, 256, 440, 274),
          ],
        };
      },
      async close() {},
    };
    return { ocr, modes };
  }

  it('are read a second time as sparse text when fields are left unanswered; the reading that finds the labels wins', async () => {
    const { ocr, modes } = formOcr(true);
    const e = createExtractionEngine({ ocrService: ocr });
    const out = await e.extract({ bytes: await scan(), mimeType: 'image/png', filename: 'form.png' }, formSchema);
    expect(modes).toEqual([6, 11]);
    expect(out.result).toEqual({ compound: 'Vanillex', source: 'Harbourview' });
  });

  it('keep the block reading when the sparse one finds no more labels, and are read once when every field is answered', async () => {
    const garbled = formOcr(false);
    const out = await createExtractionEngine({ ocrService: garbled.ocr }).extract(
      { bytes: await scan(), mimeType: 'image/png', filename: 'form.png' },
      formSchema,
    );
    expect(garbled.modes).toEqual([6, 11]);
    expect(out.result.compound).toBeUndefined();
    const onePass = formOcr(true);
    const answered = await createExtractionEngine({ ocrService: onePass.ocr }).extract(
      { bytes: await scan(), mimeType: 'image/png', filename: 'form.png' },
      { fields: [{ key: 'n', label: 'Vanillex', data_type: 'string' }] },
    );
    expect(onePass.modes).toEqual([6]);
    expect(answered.result.n).toBe('Harbourview');
  });

  it('are the page-shaped images below 150 dpi', () => {
    expect(isLowResPage(pngHeader(762, 1000))).toBe(true);
    expect(isLowResPage(pngHeader(1700, 2200))).toBe(false);
    expect(isLowResPage(pngHeader(600, 1400))).toBe(false);
  });
});
