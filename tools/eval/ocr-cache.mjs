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
  const defaultLangs = ocr.parseOcrLanguages(process.env.OCR_LANGUAGES) ?? ocr.DEFAULT_OCR_LANGUAGES;
  // A reading depends on the OCR code, the backend's packages and models, and the tesseract binary's version: the key
  // carries them (ocrReadingVersion), so a reader or tesseract change is never scored on stale readings.
  const { ocrReadingVersion } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/readers/ocr.version.js')).href);
  const versions = new Map();
  const versionOf = (backend) => versions.get(backend) ?? versions.set(backend, ocrReadingVersion(backend)).get(backend);
  mkdirSync(dir, { recursive: true });
  // The backend a call really runs on (PaddleOCR reads every page segmentation mode the same way); readers ask it too.
  const backendOf = (opts = {}) =>
    ocr.resolveOcrBackend(
      opts.engine ?? options.engine ?? 'auto',
      opts.languages?.length ? opts.languages : (options.languages ?? defaultLangs),
    );
  return {
    backend: backendOf,
    async recognize(image, opts = {}) {
      const backend = backendOf(opts);
      const key = ocrCacheKey(image, backend, opts, versionOf(backend));
      const file = join(dir, `${key}.json`);
      if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
      const res = await inner.recognize(image, opts);
      writeFileSync(file, JSON.stringify(res));
      return res;
    },
    close: () => inner.close(),
  };
}

/**
 * The cache key of one reading: the image, the backend it runs on with everything else its reading depends on
 * (`version`: ocrReadingVersion), the call's languages and page segmentation mode.
 */
export function ocrCacheKey(image, backend, opts, version) {
  return createHash('sha256')
    .update(image)
    .update(
      JSON.stringify([
        version,
        backend === 'paddle' ? (process.env.DOCKET_PADDLE_MODELS ?? 'default') : '',
        opts.languages ?? process.env.OCR_LANGUAGES ?? 'default',
        backend === 'paddle' ? 'any' : (opts.pageSegMode ?? 'default'),
      ]),
    )
    .digest('hex');
}
