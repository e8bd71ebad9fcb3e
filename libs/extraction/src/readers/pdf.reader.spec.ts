import { describe, expect, it } from '@jest/globals';
import { textCanvas } from '../testing/image.test-helper.js';
import { makePdf } from '../testing/pdf.test-helper.js';
import type { OcrService } from './ocr.service.js';
import { hasWidePicture } from './pdf.pictures.js';
import { openPdfText, readPdf } from './pdf.reader.js';

// Captured before pdfjs is first loaded (it is loaded lazily by the first read).
const NATIVE = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };

describe('hasWidePicture', () => {
  it('finds a wide raster picture in the raw bytes, and nothing in a text-only or square-picture PDF', async () => {
    const wide = textCanvas(['Kestrel Tools B.V.'], { width: 1200, height: 240 }).toBuffer('image/png');
    const square = textCanvas(['Logo'], { width: 400, height: 400 }).toBuffer('image/png');
    expect(hasWidePicture(await makePdf((d) => d.text('Invoice').image(wide, 50, 700, { width: 400 })))).toBe(true);
    expect(hasWidePicture(await makePdf((d) => d.text('Invoice').image(square, 50, 50, { width: 100 })))).toBe(false);
    expect(hasWidePicture(await makePdf((d) => d.text('Invoice')))).toBe(false);
  });
});

describe('loading pdfjs', () => {
  it('leaves Array.prototype.push and JSON as they were (its bundled core-js replaces them, slowing the whole process)', async () => {
    const pages = (await readPdf(await makePdf((d) => d.text('Invoice 42')))).pages;
    expect(pages[0]!.lines[0]!.text).toBe('Invoice 42');
    expect(Array.prototype.push).toBe(NATIVE.push);
    expect(JSON.parse).toBe(NATIVE.parse);
    expect(JSON.stringify).toBe(NATIVE.stringify);
  });
});

describe('openPdfText', () => {
  /** OCR that reads one word at the top left of every image it is given. */
  const ocr = (seen: number[]): OcrService => ({
    recognize: async (image) => {
      seen.push(image.byteLength);
      return { words: [{ text: 'Kestrel', x0: 10, x1: 200, y0: 10, y1: 60, conf: 0.9 }] };
    },
    close: async () => undefined,
  });

  it('reads the text layer as readPdf does, and adds the text of a wide picture from the still-open document', async () => {
    const wide = textCanvas(['Kestrel Tools B.V.'], { width: 1200, height: 240 }).toBuffer('image/png');
    const bytes = await makePdf((d) => d.image(wide, 50, 20, { width: 500 }).text('Invoice 42', 50, 400));
    const pdf = await openPdfText(bytes);
    try {
      expect(pdf.layout).toEqual(await readPdf(bytes));
      const seen: number[] = [];
      const richer = await pdf.withPictureText({ ocr: ocr(seen) });
      expect(seen).toHaveLength(1);
      expect(richer.pages[0]!.lines.map((l) => l.text)).toEqual(['Kestrel', 'Invoice 42']);
    } finally {
      await pdf.close();
    }
  });

  it('renders a page without text with its large pictures, which the text reading leaves out', async () => {
    const big = textCanvas(['Kestrel Tools B.V.'], { width: 1200, height: 400 }).toBuffer('image/png');
    const bytes = await makePdf((d) => d.image(big, 50, 20, { width: 500 }));
    const dark: number[] = [];
    const reading: OcrService = {
      recognize: async (image) => {
        const { createCanvas, loadImage } = await import('@napi-rs/canvas');
        const img = await loadImage(Buffer.from(image));
        const ctx = createCanvas(img.width, img.height).getContext('2d');
        ctx.drawImage(img, 0, 0);
        const px = ctx.getImageData(0, 0, img.width, img.height).data;
        let n = 0;
        for (let i = 0; i < px.length; i += 4) if (px[i]! < 128) n++;
        dark.push(n);
        return { words: [] };
      },
      close: async () => undefined,
    };
    await readPdf(bytes, { ocr: reading });
    expect(dark).toHaveLength(1);
    expect(dark[0]).toBeGreaterThan(0);
  });

  it('reads no picture of a PDF without one', async () => {
    const pdf = await openPdfText(await makePdf((d) => d.text('Invoice 42')));
    const seen: number[] = [];
    const same = await pdf.withPictureText({ ocr: ocr(seen) });
    await pdf.close();
    expect(seen).toHaveLength(0);
    expect(same.pages).toEqual(pdf.layout.pages);
  });

  it('reads a label printed onto its amount as two words, and a label glued to a code as one', async () => {
    const layout = await readPdf(await makePdf((d) => d.fontSize(10).text('Total:£64.50', 50, 50).text('Client:7', 50, 80)));
    const words = layout.pages[0]!.lines.map((l) => l.words.map((w) => w.text));
    expect(words).toEqual([['Total:', '£64.50'], ['Client:7']]);
  });
});
