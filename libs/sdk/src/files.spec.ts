import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pathToFileURL } from 'node:url';
import { prepareFile, sniffType, typeFromFilename } from './files.js';

describe('prepareFile', () => {
  const pdf = Buffer.from('%PDF-1.7\n% invented test bytes\n');

  it('reads a path or a file: URL, names it after the file and types it from the extension', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docket-sdk-'));
    const path = join(dir, 'receipt-7.PNG');
    writeFileSync(path, pdf);
    expect(await prepareFile(path)).toEqual({ bytes: expect.any(Buffer), filename: 'receipt-7.PNG', contentType: 'image/png' });
    expect((await prepareFile(pathToFileURL(path))).filename).toBe('receipt-7.PNG');
  });

  it('sniffs bytes and streams without a name, and honours explicit options', async () => {
    expect(await prepareFile(pdf)).toMatchObject({ filename: 'document.pdf', contentType: 'application/pdf' });
    const streamed = await prepareFile(Readable.from([pdf.subarray(0, 5), pdf.subarray(5)]));
    expect(Buffer.from(streamed.bytes).equals(pdf)).toBe(true);
    expect(await prepareFile(new Blob([pdf]), { filename: 'notes.txt' })).toMatchObject({ contentType: 'text/plain' });
    expect(await prepareFile(pdf, { filename: 'x.bin', contentType: 'text/csv' })).toMatchObject({
      filename: 'x.bin',
      contentType: 'text/csv',
    });
  });

  it('refuses an empty file', async () => {
    await expect(prepareFile(Buffer.alloc(0))).rejects.toThrow('empty');
  });

  it('knows the engine types by magic bytes and extension', () => {
    expect(sniffType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('image/png');
    expect(sniffType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffType(Buffer.from('II*\u0000'))).toBe('image/tiff');
    expect(sniffType(Buffer.from('hello'))).toBe('application/octet-stream');
    expect(typeFromFilename('a.tif')).toBe('image/tiff');
    expect(typeFromFilename('a.unknown')).toBeUndefined();
  });
});
