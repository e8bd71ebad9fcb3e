import { deflateSync } from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import { errorCodeOf } from '../testing/error.test-helper.js';
import { contentStreamBomb, imageStreamBomb, objectStreamBomb, pdfFile } from '@docket/testing';
import { checkPdfInflation, flateLayers, inflatedSize } from './pdf.inflation.js';

const MIB = 1024 * 1024;
/** Small limits, so that small bombs pass them: 2 MiB a stream, 1 MiB a page. */
const LIMITS = { maxStreamBytes: 2 * MIB, maxBytesPerPage: 1 * MIB };
/** Inflated size of the bombs here: ten times the stream limit. */
const BOMB_BYTES = 20 * MIB;
const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string' as const }] };

describe('PDF inflation limits', () => {
  const engine = createExtractionEngine({ pdfInflation: LIMITS });
  const extract = (bytes: Uint8Array) => engine.extract({ bytes, mimeType: 'application/pdf', filename: 'bomb.pdf' }, SCHEMA);

  it.each([
    ['a Flate content stream', contentStreamBomb],
    ['a Flate image stream', imageStreamBomb],
    ['an object stream', objectStreamBomb],
  ])('fails a PDF with %s inflating beyond the stream limit with decompression_limit', async (_name, bomb) => {
    expect(await errorCodeOf(extract(await bomb(BOMB_BYTES)))).toBe('decompression_limit');
  });

  it('answers a second check of the same bytes from the first, against the second budget', async () => {
    const bytes = await contentStreamBomb(Math.round(1.5 * MIB));
    const limits = { maxStreamBytes: 2 * MIB, maxBytesPerPage: 0 };
    const total = await checkPdfInflation(bytes, limits, 1);
    expect(total).toBeGreaterThan(MIB);
    expect(await checkPdfInflation(bytes, limits, 1)).toBe(total);
    // A tighter stream limit is a new check, which refuses the same bytes.
    await expect(checkPdfInflation(bytes, { maxStreamBytes: MIB, maxBytesPerPage: 0 }, 1)).rejects.toMatchObject({
      code: 'decompression_limit',
    });
  });

  it('still reads the same documents within the limits', async () => {
    const out = await extract(await contentStreamBomb(MIB));
    expect(out.result).toEqual({ invoice_number: 'BOMB-1' });
    expect((await extract(await objectStreamBomb(MIB))).result).toEqual({ invoice_number: 'BOMB-1' });
  });

  it('bounds the whole document by pages: many streams each within the stream limit, together beyond the budget', async () => {
    const stream = deflateSync(Buffer.alloc(1.5 * MIB, 0x20));
    const streams = Array.from({ length: 4 }, () => ({ dict: '/Filter /FlateDecode', data: stream }));
    // one page: 2 MiB + 1 × 1 MiB = 3 MiB allowed; four 1.5 MiB content streams are 6 MiB
    const pdf = pdfFile([
      { dict: '<< /Type /Catalog /Pages 2 0 R >>' },
      { dict: '<< /Type /Pages /Kids [3 0 R] /Count 1 >>' },
      { dict: '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents [4 0 R 5 0 R 6 0 R 7 0 R] >>' },
      ...streams,
    ]);
    await expect(checkPdfInflation(pdf, LIMITS, 200)).resolves.toBe(6 * MIB); // within the budget of 200 pages…
    expect(await errorCodeOf(extract(pdf))).toBe('decompression_limit'); // …not of the one page it has
  });

  it('counts chained Flate filters through both decodings and stops at the cap', async () => {
    expect(flateLayers('/Filter [/FlateDecode /FlateDecode] /Length 9')).toBe(2);
    expect(flateLayers('/Filter [/FlateDecode /DCTDecode]')).toBe(1);
    expect(flateLayers('/Filter /DCTDecode')).toBe(0);
    const twice = deflateSync(deflateSync(Buffer.alloc(8 * MIB)));
    expect(await inflatedSize(twice, 2, 100 * MIB)).toBe(8 * MIB);
    expect(await inflatedSize(twice, 2, MIB)).toBeLessThan(2 * MIB);
    const small = deflateSync(Buffer.alloc(4 * MIB)); // a few KB: counted in one synchronous call
    expect(await inflatedSize(small, 1, 8 * MIB)).toBe(4 * MIB);
    expect(await inflatedSize(small, 1, MIB)).toBeGreaterThan(MIB);
    expect(await inflatedSize(small.subarray(0, small.length / 2), 1, 8 * MIB)).toBeGreaterThan(0); // truncated: what inflated
  });
});
