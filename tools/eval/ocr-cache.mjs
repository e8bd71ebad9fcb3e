// The engine's own OCR service behind a disk cache keyed by what decides the reading (evaluation and debugging only:
// the product never caches OCR). Directory: $DOCKET_OCR_CACHE, else $TMPDIR/docket-ocr-cache.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export async function cachedOcr(repo, options = {}) {
  const dir = resolve(process.env.DOCKET_OCR_CACHE ?? join(tmpdir(), 'docket-ocr-cache'));
  const ocr = await import(pathToFileURL(join(repo, 'libs/extraction/dist/readers/ocr.service.js')).href);
  const inner = ocr.createOcrService({ engine: 'auto', ...options });
  const backend = ocr.hasNativeTesseract() ? 'native' : 'wasm';
  mkdirSync(dir, { recursive: true });
  return {
    async recognize(image, opts = {}) {
      const key = createHash('sha256')
        .update(image)
        .update(JSON.stringify([backend, opts.engine ?? 'auto', opts.languages ?? process.env.OCR_LANGUAGES ?? 'default', opts.pageSegMode ?? 'default']))
        .digest('hex');
      const file = join(dir, `${key}.json`);
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
      const res = await inner.recognize(image, opts);
      writeFileSync(file, JSON.stringify(res));
      return res;
    },
    close: () => inner.close(),
  };
}
