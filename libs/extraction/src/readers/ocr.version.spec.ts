import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from '@jest/globals';
import { ocrCodeHash, ocrReadingVersion } from './ocr.version.js';

type CacheKey = (image: Uint8Array, backend: string, opts: object, version: string) => string;
// The evaluation tools' OCR cache (plain ESM outside the library, loaded by URL: no project imports it statically).
const OCR_CACHE_MODULE = new URL('../../../../tools/eval/ocr-cache.mjs', import.meta.url).href;
const cacheKey = ((await import(OCR_CACHE_MODULE)) as { ocrCacheKey: CacheKey }).ocrCacheKey;
const image = new TextEncoder().encode('an invented page image');

describe('OCR reading version (the evaluation cache key)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'docket-ocr-version-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('changes the cache key when the tesseract binary changes version', () => {
    const before = ocrReadingVersion('native', { nativeVersion: () => 'tesseract 5.3.0' });
    const after = ocrReadingVersion('native', { nativeVersion: () => 'tesseract 5.5.1' });
    expect(before).not.toBe(after);
    expect(cacheKey(image, 'native', {}, before)).not.toBe(cacheKey(image, 'native', {}, after));
  });

  it('changes the cache key of every backend when the OCR code changes', () => {
    const codeDir = pathToFileURL(`${dir}/`);
    const ext = import.meta.url.endsWith('.ts') ? '.ts' : '.js';
    writeFileSync(join(dir, `ocr.service${ext}`), 'export const reading = 1;');
    const before = ocrCodeHash(codeDir);
    const versions = (['native', 'tesseract.js', 'paddle'] as const).map((b) =>
      ocrReadingVersion(b, { codeDir, nativeVersion: () => 'tesseract 5.3.0' }),
    );
    writeFileSync(join(dir, `ocr.service${ext}`), 'export const reading = 2;');
    expect(ocrCodeHash(codeDir)).not.toBe(before);
    (['native', 'tesseract.js', 'paddle'] as const).forEach((b, i) => {
      const now = ocrReadingVersion(b, { codeDir, nativeVersion: () => 'tesseract 5.3.0' });
      expect(cacheKey(image, b, {}, versions[i]!)).not.toBe(cacheKey(image, b, {}, now));
    });
  });

  it("names tesseract.js's version in its readings' version", () => {
    expect(ocrReadingVersion('tesseract.js')).toMatch(/tesseract\.js@\d+\.\d+\.\d+/);
  });
});
