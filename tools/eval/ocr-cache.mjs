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
  // A PaddleOCR reading depends on the decoder code too (its models are pinned by the lockfile): its key carries the
  // hash of the built module, so a decoder change is never scored on stale readings.
  const paddleCode = createHash('sha256').update(readFileSync(join(repo, 'libs/extraction/dist/readers/paddle.ocr.js'))).digest('hex').slice(0, 16);
  mkdirSync(dir, { recursive: true });
  // The backend a call really runs on (PaddleOCR reads every page segmentation mode the same way); readers ask it too.
  const backendOf = (opts = {}) => ocr.resolveOcrBackend(opts.engine ?? options.engine ?? 'auto', opts.languages?.length ? opts.languages : (options.languages ?? defaultLangs));
  return {
    backend: backendOf,
    async recognize(image, opts = {}) {
      const backend = backendOf(opts);
      const key = createHash('sha256')
        .update(image)
        .update(JSON.stringify([backend === 'tesseract.js' ? 'wasm' : backend === 'paddle' ? `paddle-${paddleCode}-${process.env.DOCKET_PADDLE_MODELS ?? 'default'}` : backend, opts.languages ?? process.env.OCR_LANGUAGES ?? 'default', backend === 'paddle' ? 'any' : (opts.pageSegMode ?? 'default')]))
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
