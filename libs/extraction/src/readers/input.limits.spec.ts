import { describe, expect, it } from '@jest/globals';
import { deflateSync } from 'node:zlib';
import { createExtractionEngine } from '../extraction.engine.js';
import { compiledUserPattern } from '@docket/contracts';
import { RE2JS } from 're2js';
import { validateField } from '../field.validator.js';
import { makePdf } from '../testing/pdf.test-helper.js';
import { errorCodeOf } from '../testing/error.test-helper.js';
import type { OcrService } from './ocr.service.js';
import { imageHeaderSize, MAX_IMAGE_PIXELS, pdfRenderScale, PDF_RENDER_DPI, underDeadline } from './input.limits.js';

/** An OCR service that must never be reached: the limits refuse the input before anything is decoded. */
const unreachableOcr: OcrService = {
  recognize: () => Promise.reject(new Error('OCR must not run on refused input')),
  close: async () => undefined,
};
const engine = createExtractionEngine({ ocrService: unreachableOcr });

/** The bound for a hostile pattern on a long input. */
const REDOS_BOUND_MS = 50;
/** Memory growth allowed while refusing a bomb (decoding it would take tens of gigabytes). */
const BOUNDED_GROWTH_BYTES = 100 * 1024 * 1024;

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  return Buffer.concat([head, Buffer.from(data), Buffer.alloc(4)]); // CRC left zero: only the header is read
}

/** A complete, tiny PNG whose header claims `width` × `height` pixels (a decompression bomb's header). */
function pngClaiming(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // 8-bit greyscale
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([sig, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', new Uint8Array())]),
  );
}

describe('tenant patterns run on RE2', () => {
  it('bounds a catastrophic-backtracking pattern: ^(a+)+$ on a long non-matching value answers at once', () => {
    const field = { key: 'code', data_type: 'string' as const, validation: { regex: '^(a+)+$' } };
    expect(compiledUserPattern('^(a+)+$').re).toBeInstanceOf(RE2JS); // never the backtracking RegExp
    validateField(field, 'warm-up'); // compiles the pattern once
    // RegExp needs ~2^n steps here (28 characters: over a second; 1 000: never). RE2 is linear. The best of three
    // runs is timed so that a GC pause or a busy machine does not decide the result.
    const value = `${'a'.repeat(1_000)}!`;
    const timings: number[] = [];
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      expect(validateField(field, value)).toEqual(['value does not match ^(a+)+$']);
      timings.push(performance.now() - started);
    }
    expect(Math.min(...timings)).toBeLessThan(REDOS_BOUND_MS);
  });

  it('still matches ordinary patterns, and reports a pattern RE2 cannot run instead of running it', () => {
    expect(validateField({ key: 'n', data_type: 'string', validation: { regex: '^INV-\\d+$' } }, 'INV-1001')).toEqual([]);
    expect(validateField({ key: 'n', data_type: 'string', validation: { regex: '^(a)\\1$' } }, 'aa')).toEqual(['invalid regex ^(a)\\1$']);
  });
});

describe('pixel caps before decoding', () => {
  it('reads the pixel size from PNG headers only', () => {
    expect(imageHeaderSize(pngClaiming(100_000, 100_000))).toEqual({ width: 100_000, height: 100_000 });
  });

  it('refuses a pixel-bomb PNG with image_too_large, in bounded memory', async () => {
    const before = process.memoryUsage().rss;
    const bytes = pngClaiming(100_000, 100_000);
    expect(
      await errorCodeOf(
        engine.extract({ bytes, mimeType: 'image/png', filename: 'bomb.png' }, { fields: [{ key: 'total', data_type: 'number' }] }),
      ),
    ).toBe('image_too_large');
    expect(process.memoryUsage().rss - before).toBeLessThan(BOUNDED_GROWTH_BYTES);
    expect(100_000 * 100_000).toBeGreaterThan(MAX_IMAGE_PIXELS);
  });

  it('refuses a PDF page too large to render (no text layer) with page_too_large, in bounded memory', async () => {
    const before = process.memoryUsage().rss;
    // 14 400 points is the largest page PDF 1.7 allows without UserUnit; this one claims 200 000 × 200 000 (≈ 2.8 km).
    const bytes = await makePdf((d) => d.rect(10, 10, 100, 100).stroke(), { size: [200_000, 200_000] });
    expect(
      await errorCodeOf(
        engine.extract({ bytes, mimeType: 'application/pdf', filename: 'huge.pdf' }, { fields: [{ key: 'total', data_type: 'number' }] }),
      ),
    ).toBe('page_too_large');
    expect(process.memoryUsage().rss - before).toBeLessThan(BOUNDED_GROWTH_BYTES);
  });

  it('renders ordinary pages at 300 dpi and large ones at a lower resolution that fits the cap', () => {
    expect(pdfRenderScale(612, 792, 1)).toBe(PDF_RENDER_DPI / 72); // Letter
    const a0 = pdfRenderScale(2384, 3370, 1);
    expect(a0).toBeLessThan(PDF_RENDER_DPI / 72);
    expect(2384 * a0 * 3370 * a0).toBeLessThanOrEqual(40e6 + 1);
  });
});

describe('readers under the extraction deadline', () => {
  it('rejects with extraction_timeout when the deadline passes while a reader is still inside one step', async () => {
    const deadline = new AbortController();
    const stuck = new Promise<never>(() => undefined); // a reader that never yields a page
    const pending = errorCodeOf(underDeadline(stuck, deadline.signal));
    deadline.abort();
    expect(await pending).toBe('extraction_timeout');
  });
});
