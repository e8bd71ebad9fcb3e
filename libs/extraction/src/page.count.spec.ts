import { describe, expect, it } from '@jest/globals';
import type { ExtractionSchema } from './engine.types.js';
import { createExtractionEngine } from './extraction.engine.js';
import type { OcrService } from './readers/ocr.service.js';
import { makePdf } from './testing/pdf.test-helper.js';
import { makeTiff, textPage } from './testing/tiff.test-helper.js';

/** An OCR that counts its calls and reads one label: counting pages must never call it. */
function countingOcr() {
  const calls = { n: 0 };
  const ocr: OcrService = {
    async recognize() {
      calls.n++;
      return {
        words: [
          { text: 'Ref:', x0: 10, y0: 10, x1: 50, y1: 22, conf: 0.9 },
          { text: 'R-1', x0: 60, y0: 10, x1: 90, y1: 22, conf: 0.9 },
          { text: 'ok', x0: 100, y0: 10, x1: 120, y1: 22, conf: 0.9 },
        ],
      };
    },
    async close() {},
  };
  return { ocr, calls };
}

const schema: ExtractionSchema = { fields: [{ key: 'ref', label: 'Ref', data_type: 'string' }] };
const pdfOf = (pages: number) =>
  makePdf((doc) => {
    for (let i = 1; i <= pages; i++) {
      if (i > 1) doc.addPage();
      doc.text(`Ref: R-${i}`);
    }
  });

describe('counting pages before reading, and reading only the first ones (ADR 0005)', () => {
  it('counts PDF, TIFF and text pages without reading any; CSV and single images are one page', async () => {
    const { ocr, calls } = countingOcr();
    const engine = createExtractionEngine({ ocrService: ocr });
    expect(await engine.countPages({ bytes: await pdfOf(4), mimeType: 'application/pdf', filename: 'a.pdf' })).toBe(4);
    const tiff = makeTiff([1, 2, 3].map((n) => textPage([`page ${n}`], 600, 120)));
    expect(await engine.countPages({ bytes: tiff, mimeType: 'image/tiff', filename: 'a.tif' })).toBe(3);
    const text = new TextEncoder().encode('Ref: A\fRef: B\f\fRef: C\n');
    expect(await engine.countPages({ bytes: text, mimeType: 'text/plain', filename: 'a.txt' })).toBe(3);
    expect(await engine.countPages({ bytes: new TextEncoder().encode('a,b\n1,2\n'), mimeType: 'text/csv', filename: 'a.csv' })).toBe(1);
    expect(calls.n).toBe(0);
  });

  it('counts no more pages than the engine reads, and refuses what extract refuses with the same code', async () => {
    const { ocr } = countingOcr();
    const capped = createExtractionEngine({ ocrService: ocr, maxPages: 2 });
    expect(await capped.countPages({ bytes: await pdfOf(5), mimeType: 'application/pdf', filename: 'a.pdf' })).toBe(2);
    await expect(capped.countPages({ bytes: new Uint8Array(0), mimeType: 'text/plain', filename: 'a.txt' })).rejects.toMatchObject({
      code: 'empty_file',
    });
    await expect(
      capped.countPages({ bytes: new TextEncoder().encode('not a pdf'), mimeType: 'application/pdf', filename: 'a.pdf' }),
    ).rejects.toMatchObject({ code: 'corrupt_file' });
  });

  it("a job's maxPages reads only the first pages of a PDF, a TIFF and a text, and counts only those", async () => {
    const { ocr } = countingOcr();
    const engine = createExtractionEngine({ ocrService: ocr });
    const pdf = await engine.extract({ bytes: await pdfOf(4), mimeType: 'application/pdf', filename: 'a.pdf' }, schema, { maxPages: 2 });
    expect(pdf).toMatchObject({ pages: 2, result: { ref: 'R-1' } });
    const tiff = makeTiff([1, 2, 3].map((n) => textPage([`page ${n}`], 600, 120)));
    expect((await engine.extract({ bytes: tiff, mimeType: 'image/tiff', filename: 'a.tif' }, schema, { maxPages: 1 })).pages).toBe(1);
    const text = await engine.extract(
      { bytes: new TextEncoder().encode('Ref: A\fRef: B\fRef: C\n'), mimeType: 'text/plain', filename: 'a.txt' },
      schema,
      { maxPages: 2 },
    );
    expect(text.pages).toBe(2);
    expect(text.markdown).not.toContain('Ref: C');
  }, 30_000);
});
