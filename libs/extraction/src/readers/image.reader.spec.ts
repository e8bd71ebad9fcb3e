import { describe, expect, it } from '@jest/globals';
import { createCanvas } from '@napi-rs/canvas';
import { imageComplete } from './image.header.js';
import { eraseRules, ocrScale } from './image.prepare.js';
import { readImage } from './image.reader.js';
import { skewOf } from '../layout/layout.builder.js';
import type { OcrService, RecognizeOptions } from './ocr.service.js';
import { decoded } from '../testing/image.test-helper.js';

describe('OCR preprocessing', () => {
  it('brings ~100-dpi page scans to ~200 dpi, other small images towards 1300 px wide, huge ones down to 12 Mpx', () => {
    expect(ocrScale({ width: 762, height: 1000 })).toBe(2);
    expect(ocrScale({ width: 1700, height: 2200 })).toBe(1);
    expect(ocrScale({ width: 463, height: 1013 })).toBe(1.5);
    expect(ocrScale({ width: 1000, height: 700 })).toBeCloseTo(1.3);
    expect(ocrScale(undefined)).toBe(1);
    expect(ocrScale({ width: 0, height: 0 })).toBe(1);
    // A 600-dpi A4 scan (35 Mpx) comes down to 12 Mpx.
    const k = ocrScale({ width: 4961, height: 7016 });
    expect(4961 * k * 7016 * k).toBeCloseTo(12e6, -3);
  });

  it('erases long ruled lines but keeps short strokes', () => {
    const w = 200;
    const h = 100;
    const px = new Uint8ClampedArray(w * h * 4).fill(255);
    const ink = (x: number, y: number) => px.fill(0, 4 * (y * w + x), 4 * (y * w + x) + 3);
    for (let x = 10; x < 190; x++) ink(x, 50); // a rule
    for (let y = 20; y < 30; y++) ink(40, y); // a letter stroke
    eraseRules(px, w, h);
    expect(px[4 * (50 * w + 100)]).toBe(255);
    expect(px[4 * (25 * w + 40)]).toBe(0);
  });

  it('erases the grey anti-aliased edges of a rule, not the dark core of a stroke crossing it', () => {
    const w = 200;
    const h = 100;
    const px = new Uint8ClampedArray(w * h * 4).fill(255);
    const paint = (x: number, y: number, v: number) => px.fill(v, 4 * (y * w + x), 4 * (y * w + x) + 3);
    for (let x = 10; x < 190; x++) (paint(x, 50, 0), paint(x, 49, 180), paint(x, 51, 180)); // rule with grey edges
    for (let y = 40; y < 50; y++) paint(100, y, 0); // a stroke standing on the rule
    eraseRules(px, w, h);
    expect(px[4 * (49 * w + 60)]).toBe(255);
    expect(px[4 * (51 * w + 60)]).toBe(255);
    expect(px[4 * (45 * w + 100)]).toBe(0);
    expect(px[4 * (49 * w + 100)]).toBe(0);
  });

  it('reads page images as one block of text and other images in the default mode', async () => {
    // Real (blank) encodings: a header-only PNG is refused before OCR (see imageComplete).
    const png = (width: number, height: number) => new Uint8Array(createCanvas(width, height).toBuffer('image/png'));
    const seen: (RecognizeOptions | undefined)[] = [];
    const ocr: OcrService = {
      async recognize(_image, opts) {
        seen.push(opts);
        return { words: [] };
      },
      async close() {},
    };
    await readImage(png(1700, 2200), ocr);
    await readImage(png(1500, 1000), ocr);
    expect(seen[0]?.pageSegMode).toBe(6);
    expect(seen[1]?.pageSegMode).toBeUndefined();
  });
});

describe('imageComplete (guards the native decoder, which crashes the process on cut-off uploads)', () => {
  const canvas = createCanvas(762, 1000);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 762, 1000);
  ctx.fillStyle = '#000';
  ctx.fillText('Invoice 42', 40, 40);
  const images = { png: canvas.toBuffer('image/png'), jpeg: canvas.toBuffer('image/jpeg'), webp: canvas.toBuffer('image/webp') };

  it.each(Object.entries(images))('accepts a whole %s and rejects it cut anywhere', (_kind, whole) => {
    expect(imageComplete(new Uint8Array(whole))).toBe(true);
    for (const n of [12, 33, 60, 200, Math.floor(whole.length / 2), whole.length - 1]) {
      if (n < whole.length) expect(imageComplete(new Uint8Array(whole.subarray(0, n)))).toBe(false);
    }
  });

  it('tolerates bytes after a JPEG end marker and stray bytes between its segments', () => {
    expect(imageComplete(new Uint8Array(Buffer.concat([images.jpeg, Buffer.from('trailer')])))).toBe(true);
    const app0 = 4 + images.jpeg.readUInt16BE(4);
    expect(
      imageComplete(new Uint8Array(Buffer.concat([images.jpeg.subarray(0, app0), Buffer.from([0, 0]), images.jpeg.subarray(app0)]))),
    ).toBe(true);
  });
});

/** A white PNG, with a black block at (x, y) when `block` is given. */
function whitePng(w: number, h: number, block?: { x: number; y: number }): Uint8Array {
  const c = createCanvas(w, h);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  if (block) {
    ctx.fillStyle = '#000';
    ctx.fillRect(block.x, block.y, 120, 60);
  }
  return new Uint8Array(c.toBuffer('image/png'));
}

describe('slanted images', () => {
  /** Twelve lines of three words each, rising by `slope` (dy/dx) to the right. */
  const lines = (slope: number) =>
    Array.from({ length: 12 }, (_, row) =>
      [0, 1, 2].map((k) => {
        const x0 = 300 + k * 150;
        const y0 = 200 + row * 60 + slope * (x0 + 60 - 750);
        return { text: `word${row}${k}`, x0, x1: x0 + 120, y0, y1: y0 + 24, conf: 0.9 };
      }),
    ).flat();

  it('reads a slanted image again straightened, and maps the boxes back onto the original', async () => {
    const calls: Uint8Array[] = [];
    const ocr: OcrService = {
      async recognize(image) {
        calls.push(image);
        // First reading: slanted by 0.04 (2.3°). Second reading (of the straightened image): level lines.
        return { words: lines(calls.length === 1 ? 0.04 : 0) };
      },
      async close() {},
    };
    const layout = await readImage(whitePng(1500, 1400), ocr);
    expect(calls).toHaveLength(2);
    const words = layout.pages[0]!.lines.flatMap((l) => l.words);
    expect(words).toHaveLength(36);
    // Mapped back onto the original, the boxes rise to the right again by the slant of the first reading.
    expect(skewOf(words)).toBeCloseTo(0.04, 2);
    // The straightened reading gives one line per printed line.
    expect(layout.pages[0]!.lines).toHaveLength(12);
  });

  it('reads a level image once', async () => {
    let n = 0;
    const ocr: OcrService = {
      async recognize() {
        n++;
        return { words: lines(0) };
      },
      async close() {},
    };
    await readImage(whitePng(1500, 1400), ocr);
    expect(n).toBe(1);
  });
});

describe('images the wrong way up', () => {
  /** A white image with a black block in its top-left corner (where an upright page starts its print). */
  const marked = (w: number, h: number) => whitePng(w, h, { x: 10, y: 10 });
  const text = (conf: number) =>
    Array.from({ length: 20 }, (_, i) => ({
      text: `word${i}`,
      x0: 20 + (i % 4) * 100,
      x1: 100 + (i % 4) * 100,
      y0: 100 + Math.floor(i / 4) * 40,
      y1: 120 + Math.floor(i / 4) * 40,
      conf,
    }));
  /** Reads confidently only an image whose dark block sits top left and which has the given proportions. */
  const ocrFor = (upright: (width: number, height: number) => boolean, calls: { width: number; height: number }[]): OcrService => ({
    async recognize(image) {
      const img = await decoded(image);
      const topLeftDark = img.grey(40, 30) < 128;
      calls.push({ width: img.width, height: img.height });
      return { words: topLeftDark && upright(img.width, img.height) ? text(0.9) : text(0.25) };
    },
    async close() {},
  });

  it('turns an upside-down scan round and keeps the upright reading', async () => {
    const calls: { width: number; height: number }[] = [];
    // The upload is the upright image turned by 180°: its block is bottom right.
    const layout = await readImage(
      whitePng(1400, 1000, { x: 1400 - 130, y: 1000 - 70 }),
      ocrFor(() => true, calls),
    );
    expect(calls).toHaveLength(2); // as uploaded, then turned by 180° (upright: no further turns)
    const words = layout.pages[0]!.lines.flatMap((l) => l.words);
    expect(words).toHaveLength(20);
    expect(words.every((w) => w.conf === 0.9)).toBe(true);
  });

  it('turns a sideways photo upright and swaps the page proportions', async () => {
    const calls: { width: number; height: number }[] = [];
    // Upright is landscape with the block top left; the upload is portrait (turned by 90° counter-clockwise), and
    // not page-shaped (a page scan gets its ruled lines, and this block, erased before OCR).
    const up = marked(1800, 1000);
    const { loadImage } = await import('@napi-rs/canvas');
    const img = await loadImage(Buffer.from(up));
    const c = createCanvas(1000, 1800);
    const ctx = c.getContext('2d');
    ctx.translate(0, 1800);
    ctx.rotate(-Math.PI / 2);
    ctx.drawImage(img, 0, 0);
    const layout = await readImage(
      new Uint8Array(c.toBuffer('image/png')),
      ocrFor((w, h) => w > h, calls),
    );
    expect(layout.pages[0]).toMatchObject({ width: 1800, height: 1000 });
    expect(layout.pages[0]!.lines.flatMap((l) => l.words).every((w) => w.conf === 0.9)).toBe(true);
  });

  it('does not turn an upright page, nor a blank one', async () => {
    const calls: { width: number; height: number }[] = [];
    await readImage(
      marked(1400, 1000),
      ocrFor(() => true, calls),
    );
    expect(calls).toHaveLength(1);
    const none: OcrService = { recognize: async () => ({ words: [] }), close: async () => {} };
    let n = 0;
    await readImage(whitePng(1400, 1000), { ...none, recognize: async () => (n++, { words: [] }) });
    expect(n).toBe(1);
  });
});

describe('preparation per OCR backend', () => {
  /** A 100-dpi page scan (762 × 1000) with a long rule across it at y = 500. */
  function ruledPage(): Uint8Array {
    const c = createCanvas(762, 1000);
    const ctx = c.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, 762, 1000);
    ctx.fillStyle = '#000';
    ctx.fillRect(40, 500, 680, 2);
    return new Uint8Array(c.toBuffer('image/png'));
  }
  /** An OCR service of the given backend that reports whether the rule is still in the image it is handed. */
  const seeing = (backend: 'paddle' | 'native', seen: { width: number; rule: boolean }[]): OcrService => ({
    backend: () => backend,
    async recognize(image) {
      const img = await decoded(image);
      seen.push({ width: img.width, rule: img.grey(img.width >> 1, Math.round((501 * img.height) / 1000)) < 128 });
      return { words: [] };
    },
    close: async () => {},
  });

  it('upscales a low-dpi page for both, but erases its rules only for tesseract', async () => {
    const forTesseract: { width: number; rule: boolean }[] = [];
    const forPaddle: { width: number; rule: boolean }[] = [];
    await readImage(ruledPage(), seeing('native', forTesseract));
    await readImage(ruledPage(), seeing('paddle', forPaddle));
    expect(forTesseract[0]).toEqual({ width: 1524, rule: false });
    expect(forPaddle[0]).toEqual({ width: 1524, rule: true });
  });
});
