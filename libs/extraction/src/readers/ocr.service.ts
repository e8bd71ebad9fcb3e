import { Counter } from 'prom-client';
import type { Word } from '../layout/layout.types.js';
import { PaddleOcr } from './paddle.ocr.js';
import { OcrProcessPool, ocrProcessScript } from './ocr.threads.js';
import { bundledTessdata, hasNativeTesseract, NativeOcr, nativeTesseractLanguages, PSM, WasmOcr } from './ocr.tesseract.js';

export interface OcrResult {
  words: Word[];
  width?: number;
  height?: number;
}

export interface OcrService {
  recognize(image: Uint8Array, opts?: RecognizeOptions): Promise<OcrResult>;
  close(): Promise<void>;
  /** The backend a recognize() call with these options runs on (readers prepare images for it); unknown when absent. */
  backend?(opts?: RecognizeOptions): OcrBackend;
}

/**
 * OCR engine: 'tesseract.js' (always available, offline), 'native' (the `tesseract` binary, used when it is on
 * PATH and has every requested language, else tesseract.js), 'paddle' (PaddleOCR on onnxruntime-node, for
 * English/ASCII text; documents read in other languages go to tesseract, whose models have their accents) or
 * 'auto' (the measured best, DEFAULT_AUTO_ENGINE; see docs/adr/0006-ocr-engines.md).
 */
export const OCR_ENGINE_MODES = ['auto', 'native', 'tesseract.js', 'paddle'] as const;
export type OcrEngineMode = (typeof OCR_ENGINE_MODES)[number];

/** What the OCR call really runs on. */
export type OcrBackend = 'native' | 'tesseract.js' | 'paddle';

/**
 * The engine 'auto' stands for, chosen by field F1 on the wide development sets (docs/quality.md): PaddleOCR reads
 * more of the receipts' and forms' values than tesseract in both its builds.
 */
export const DEFAULT_AUTO_ENGINE: 'paddle' | 'native' = 'paddle';

/** Languages PaddleOCR's bundled recognition model covers without losing characters (printable ASCII). */
const PADDLE_LANGUAGES: ReadonlySet<OcrLanguage> = new Set(['eng']);

/** Languages with a bundled tesseract.js model (`@tesseract.js-data/<code>`, 4.0.0_best_int). */
export const OCR_LANGUAGES = ['eng', 'deu', 'fra', 'nld'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

/**
 * English only by default: on the scanned corpora (English receipts and invoices) adding German, French and
 * Dutch made OCR slower and no more accurate (see the extraction README); deployments with continental
 * scans opt in with `OCR_LANGUAGES=eng+deu+fra+nld`.
 */
export const DEFAULT_OCR_LANGUAGES: readonly OcrLanguage[] = ['eng'];

/**
 * Parses a language list such as `eng+deu` (tesseract's notation), `eng,deu` or `eng deu`: codes are
 * case-insensitive, duplicates dropped, order kept (the first is tesseract's primary language). Returns
 * undefined when the list is empty or names a language without a bundled model.
 */
export function parseOcrLanguages(value: string | readonly string[] | undefined | null): OcrLanguage[] | undefined {
  if (value === undefined || value === null) return undefined;
  const parts = (typeof value === 'string' ? value.split(/[+,\s]+/) : [...value])
    .map((p) => String(p).trim().toLowerCase())
    .filter(Boolean);
  if (!parts.length) return undefined;
  const out: OcrLanguage[] = [];
  for (const p of parts) {
    if (!(OCR_LANGUAGES as readonly string[]).includes(p)) return undefined;
    if (!out.includes(p as OcrLanguage)) out.push(p as OcrLanguage);
  }
  return out;
}

export interface OcrOptions {
  /** Default backend of recognize() calls without their own (default 'auto'). */
  engine?: OcrEngineMode;
  /** ONNX threads of the PaddleOCR engine (default 1; keep concurrency × threads ≤ cores). */
  threads?: number;
  /** Default languages of recognize() calls without their own (default DEFAULT_OCR_LANGUAGES). */
  languages?: readonly OcrLanguage[];
  /**
   * Read with PaddleOCR and tesseract.js in child processes (OcrProcessPool) that are killed when a reading's signal
   * aborts; the native binary is a child process, killed likewise. Default: on when running the built library (the
   * reader module is compiled JavaScript), off under the test runner, which runs the TypeScript sources.
   */
  isolate?: boolean;
  /** Reader processes reading at once (default 1; the worker passes WORKER_CONCURRENCY). */
  poolSize?: number;
}

/** Per-call overrides (per job: the template's `ocr_engine`, the job's languages). */
export interface RecognizeOptions {
  engine?: OcrEngineMode;
  languages?: readonly OcrLanguage[];
  /** Page segmentation mode of this call (tesseract `--psm`); the default is PSM. */
  pageSegMode?: number;
  /** The job's deadline: when it aborts, an isolated reading is stopped (its thread terminated, its process killed). */
  signal?: AbortSignal;
}

export interface NativeTesseractInfo {
  available: boolean;
  languages: ReadonlySet<string>;
  /** Whether the bundled models can be handed to the binary (default true). */
  bundled?: boolean;
}

/**
 * Which backend a call with these settings uses. 'paddle' (and 'auto', whose measured best is PaddleOCR) reads
 * English with PaddleOCR; any other language goes to tesseract (its English-only model would drop ä, é, ß, €).
 * Tesseract: 'native' takes the native binary only when it is present and has every requested language (a
 * production image may ship it with English only), else tesseract.js, which has all bundled models; 'tesseract.js'
 * always takes tesseract.js.
 */
export function resolveOcrBackend(
  engine: OcrEngineMode,
  languages: readonly OcrLanguage[],
  native: () => NativeTesseractInfo = () => ({
    available: hasNativeTesseract(),
    languages: nativeTesseractLanguages(),
    bundled: hasNativeTesseract() && bundledTessdata(languages) !== undefined,
  }),
): OcrBackend {
  if (engine === 'tesseract.js') return 'tesseract.js';
  const wantsPaddle = engine === 'paddle' || (engine === 'auto' && DEFAULT_AUTO_ENGINE === 'paddle');
  if (wantsPaddle && languages.every((l) => PADDLE_LANGUAGES.has(l))) return 'paddle';
  const n = native();
  // The native binary reads the bundled models (bundledTessdata), so it covers every bundled language; its own
  // language list matters only if they cannot be unpacked.
  return n.available && (n.bundled !== false || languages.every((l) => n.languages.has(l))) ? 'native' : 'tesseract.js';
}

/** tesseract.js workers kept at once (one per language set); the least recently used one is closed beyond. */
const MAX_WASM_WORKERS = 3;

/** Page images recognised, by OCR engine (prom-client's default registry; /metrics of the worker). */
export const ocrPages = new Counter({
  name: 'docket_ocr_pages_total',
  help: 'Page images recognised by OCR, by engine',
  labelNames: ['engine'],
});

export function createOcrService(opts: OcrOptions = {}): OcrService {
  const languages = opts.languages?.length ? opts.languages : DEFAULT_OCR_LANGUAGES;
  const script = (opts.isolate ?? import.meta.url.endsWith('.js')) ? ocrProcessScript() : undefined;
  if (opts.isolate && !script) throw new Error('isolated OCR needs the built library (libs/extraction/dist): run the build first');
  const pool = script
    ? new OcrProcessPool(script, { engine: opts.engine, languages, threads: opts.threads }, opts.poolSize ?? 1)
    : undefined;
  return new OcrRouter(opts.engine ?? 'auto', languages, opts.threads, pool);
}

/**
 * Routes each call to the native binary or to a tesseract.js worker for its language set. A tesseract.js
 * worker loads its models (10–15 MB each, ~1 s) on first use and is kept until close().
 */
class OcrRouter implements OcrService {
  private readonly native = new NativeOcr();
  private readonly wasm = new Map<string, WasmOcr>();
  private paddle?: PaddleOcr;

  constructor(
    private readonly engine: OcrEngineMode,
    private readonly languages: readonly OcrLanguage[],
    private readonly threads?: number,
    /** Where PaddleOCR and tesseract.js read when isolated. */
    private readonly pool?: OcrProcessPool,
  ) {}

  backend(opts: RecognizeOptions = {}): OcrBackend {
    return resolveOcrBackend(opts.engine ?? this.engine, opts.languages?.length ? opts.languages : this.languages);
  }

  async recognize(image: Uint8Array, opts: RecognizeOptions = {}): Promise<OcrResult> {
    const result = await this.recognizeOn(image, opts);
    ocrPages.inc({ engine: this.backend(opts) });
    return result;
  }

  private recognizeOn(image: Uint8Array, opts: RecognizeOptions): Promise<OcrResult> {
    const languages = opts.languages?.length ? opts.languages : this.languages;
    const psm =
      opts.pageSegMode !== undefined && Number.isInteger(opts.pageSegMode) && opts.pageSegMode >= 0 && opts.pageSegMode <= 13
        ? String(opts.pageSegMode)
        : PSM;
    const backend = resolveOcrBackend(opts.engine ?? this.engine, languages);
    if (backend === 'native') return this.native.recognize(image, languages, psm, opts.signal);
    if (this.pool) return this.pool.recognize(image, opts);
    if (backend === 'paddle') return (this.paddle ??= new PaddleOcr({ threads: this.threads })).recognize(image);
    const key = languages.join('+');
    let worker = this.wasm.get(key);
    if (worker) this.wasm.delete(key);
    else worker = new WasmOcr(languages);
    this.wasm.set(key, worker); // most recently used last
    while (this.wasm.size > MAX_WASM_WORKERS) {
      const [oldKey, old] = this.wasm.entries().next().value!;
      this.wasm.delete(oldKey);
      void old.close();
    }
    return worker.recognize(image, psm);
  }

  async close(): Promise<void> {
    const workers = [...this.wasm.values()];
    this.wasm.clear();
    await Promise.all([...workers.map((w) => w.close()), this.paddle?.close(), this.pool?.close()]);
  }
}
