import { Counter } from 'prom-client';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Word } from '../layout/layout.types.js';
import { PaddleOcr } from './paddle.ocr.js';
import { OcrProcessPool, ocrProcessScript } from './ocr.threads.js';

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

/** Directory of a bundled model; passing model files explicitly keeps tesseract.js from reaching for a CDN. */
function modelFile(lang: OcrLanguage): string {
  const req = createRequire(import.meta.url);
  return join(dirname(req.resolve(`@tesseract.js-data/${lang}/package.json`)), '4.0.0_best_int', `${lang}.traineddata.gz`);
}

/**
 * Page segmentation mode 4 ("one column of text of variable sizes") keeps right-aligned amounts of
 * receipts and forms that the default automatic mode (3) drops as separate noisy blocks; words still carry
 * their own boxes, so columns are rebuilt by the layout model anyway.
 */
const PSM = '4';

let nativeAvailable: boolean | undefined;
export function hasNativeTesseract(): boolean {
  if (nativeAvailable === undefined) {
    try {
      nativeAvailable = spawnSync('tesseract', ['--version'], { stdio: 'ignore', timeout: 5000 }).status === 0;
    } catch {
      nativeAvailable = false;
    }
  }
  return nativeAvailable;
}

let nativeLangs: Set<string> | undefined;
/** Languages the native binary has models for (`tesseract --list-langs`); empty when it is absent. */
export function nativeTesseractLanguages(): ReadonlySet<string> {
  if (nativeLangs === undefined) {
    nativeLangs = new Set();
    if (hasNativeTesseract()) {
      try {
        const r = spawnSync('tesseract', ['--list-langs'], { encoding: 'utf8', timeout: 5000 });
        // The first line is a heading ("List of available languages in …"); then one code per line.
        for (const line of `${r.stdout ?? ''}\n${r.stderr ?? ''}`.split('\n'))
          if (/^[a-z_]+$/i.test(line.trim())) nativeLangs.add(line.trim());
      } catch {
        // no languages: every call goes to tesseract.js
      }
    }
  }
  return nativeLangs;
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

/**
 * Routes each call to the native binary or to a tesseract.js worker for its language set. A tesseract.js
 * worker loads its models (10–15 MB each, ~1 s) on first use and is kept until close().
 */
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

type TesseractWorker = import('tesseract.js').Worker;

class WasmOcr {
  private worker?: Promise<TesseractWorker>;
  // tesseract.js workers process one job at a time; chain calls so concurrent extractions queue.
  private queue: Promise<unknown> = Promise.resolve();
  /** The page segmentation mode the worker is set to. */
  private psm = PSM;

  constructor(private readonly languages: readonly OcrLanguage[]) {}

  private getWorker(): Promise<TesseractWorker> {
    this.worker ??= (async () => {
      const { createWorker } = await import('tesseract.js');
      // tesseract.js reads every model from one directory (`<langPath>/<code>.traineddata.gz`), and the bundled
      // models live in one package each: link them into a temporary directory for the worker's start.
      const dir = mkdtempSync(join(tmpdir(), 'docket-tessdata-'));
      try {
        for (const l of this.languages) {
          const target = join(dir, `${l}.traineddata.gz`);
          try {
            symlinkSync(modelFile(l), target);
          } catch {
            copyFileSync(modelFile(l), target);
          }
        }
        const w = await createWorker([...this.languages], 1, {
          langPath: dir,
          gzip: true,
          cacheMethod: 'none',
          logger: () => undefined,
          errorHandler: () => undefined,
        });
        // debug_file silences tesseract's progress chatter ("Estimating resolution …") on the host's stdout.
        // debug_file is a real tesseract variable that tesseract.js's typed parameter list does not name.
        await w.setParameters({
          tessedit_pageseg_mode: PSM,
          preserve_interword_spaces: '1',
          debug_file: '/dev/null',
        } as unknown as Parameters<TesseractWorker['setParameters']>[0]);
        return w;
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    })();
    return this.worker;
  }

  recognize(image: Uint8Array, psm = PSM): Promise<OcrResult> {
    const run = this.queue.then(async () => {
      const worker = await this.getWorker();
      if (psm !== this.psm) {
        await worker.setParameters({ tessedit_pageseg_mode: psm } as unknown as Parameters<TesseractWorker['setParameters']>[0]);
        this.psm = psm;
      }
      const { data } = await worker.recognize(Buffer.from(image), {}, { blocks: true, text: false });
      const words: Word[] = [];
      for (const b of data.blocks ?? [])
        for (const p of b.paragraphs ?? [])
          for (const l of p.lines ?? [])
            for (const w of l.words ?? []) {
              if (!w.text?.trim()) continue;
              words.push({
                text: w.text.trim(),
                x0: w.bbox.x0,
                y0: w.bbox.y0,
                x1: w.bbox.x1,
                y1: w.bbox.y1,
                conf: (w.confidence ?? 0) / 100,
              });
            }
      return { words };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Terminates the worker once the calls already queued on it are done. */
  async close(): Promise<void> {
    await this.queue;
    const w = this.worker;
    this.worker = undefined;
    if (w) await (await w.catch(() => undefined))?.terminate().catch(() => undefined);
  }
}

/**
 * The bundled models unpacked for the native binary, so that both backends read with the same model
 * (tessdata "best" integer LSTM): distribution packages ship the smaller "fast" models, which misread
 * noticeably more on receipts (SROIE 0.73 vs 0.86 in docs/quality.md). Unpacked once per machine into
 * the temp directory (write to a temporary name, then rename: concurrent workers never see half a file).
 * Undefined when unpacking fails: the binary then uses its own models. Checked on every call (a few stats
 * beside seconds of OCR) rather than memoised, so a temp cleaner emptying /tmp under a long-running worker
 * only costs a re-unpack.
 */
function bundledTessdata(languages: readonly OcrLanguage[]): string | undefined {
  try {
    const dir = join(tmpdir(), 'docket-tessdata-4.0.0_best_int');
    mkdirSync(dir, { recursive: true });
    for (const l of languages) {
      const target = join(dir, `${l}.traineddata`);
      if (existsSync(target)) continue;
      const partial = `${target}.${process.pid}.part`;
      writeFileSync(partial, gunzipSync(readFileSync(modelFile(l))));
      renameSync(partial, target);
    }
    return dir;
  } catch {
    return undefined;
  }
}

/** The `tesseract` CLI with OMP_THREAD_LIMIT=1 (its OpenMP threads make it several times slower on small machines). */
class NativeOcr {
  /** Reads one image; when `signal` aborts, the binary is killed (its reading is of no use past the deadline). */
  async recognize(image: Uint8Array, languages: readonly OcrLanguage[], psm = PSM, signal?: AbortSignal): Promise<OcrResult> {
    const dir = mkdtempSync(join(tmpdir(), 'docket-ocr-'));
    try {
      const file = join(dir, 'page.img');
      writeFileSync(file, image);
      const tsv = await new Promise<string>((resolve, reject) => {
        const tessdata = bundledTessdata(languages);
        const args = [
          file,
          'stdout',
          ...(tessdata ? ['--tessdata-dir', tessdata] : []),
          '-l',
          languages.join('+'),
          '--psm',
          psm,
          '-c',
          'tessedit_create_tsv=1',
        ];
        const child = spawn('tesseract', args, {
          env: { ...process.env, OMP_THREAD_LIMIT: '1' },
          stdio: ['ignore', 'pipe', 'ignore'],
          signal,
          killSignal: 'SIGKILL',
        });
        const out: Buffer[] = [];
        child.stdout.on('data', (d: Buffer) => out.push(d));
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`tesseract exited ${code}`)),
        );
      });
      return parseTsv(tsv);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

export function parseTsv(tsv: string): OcrResult {
  const words: Word[] = [];
  let width: number | undefined;
  let height: number | undefined;
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12) continue;
    const [level, , , , , , left, top, w, h, conf] = c.map(Number) as number[];
    if (level === 1) {
      width = w;
      height = h;
    }
    const text = c.slice(11).join('\t').trim();
    if (level !== 5 || !text) continue;
    words.push({ text, x0: left!, y0: top!, x1: left! + w!, y1: top! + h!, conf: Math.max(0, conf!) / 100 });
  }
  return { words, width, height };
}
