import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ExtractionError } from '../engine.types.js';
import type { OcrOptions, OcrResult, RecognizeOptions } from './ocr.service.js';

/** What the pool's threads are started with: the OCR service settings (plain data, cloned into each thread). */
export type OcrThreadSettings = Omit<OcrOptions, 'isolate' | 'poolSize'>;

/** A reading in a thread, answered by `ocr.thread`. */
interface Reply {
  result?: OcrResult;
  error?: string;
}

interface Task {
  image: Uint8Array;
  opts: Omit<RecognizeOptions, 'signal'>;
  resolve(r: OcrResult): void;
  reject(e: unknown): void;
}

interface Slot {
  worker: Worker;
  task?: Task;
}

/**
 * The compiled thread module (`ocr.thread.js` beside this one when built; under the test runner, which runs the
 * TypeScript sources, the library's `dist` build), or undefined when it has not been built.
 */
export function ocrThreadScript(): URL | undefined {
  const here = fileURLToPath(import.meta.url);
  const built = here.endsWith('.ts') ? here.replace(/([/\\])src([/\\]readers[/\\])ocr\.threads\.ts$/, '$1dist$2ocr.thread.js') : here.replace(/ocr\.threads\.js$/, 'ocr.thread.js');
  return existsSync(built) ? pathToFileURL(built) : undefined;
}

/**
 * OCR readings in worker threads that can be stopped: a reading whose job's deadline passes (its signal aborts) has
 * its thread terminated, which stops the reading and releases its core at once (a promise race alone left the OCR
 * running to its end). Each thread keeps its own OCR service (models load once per thread, not per page); at most
 * `size` threads read at once, further readings wait their turn; a terminated thread is replaced on the next reading.
 */
export class OcrThreadPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private closed = false;

  constructor(
    private readonly script: URL,
    private readonly settings: OcrThreadSettings,
    private readonly size: number,
  ) {}

  /** Threads alive (idle or reading). */
  get threads(): number {
    return this.slots.size;
  }

  recognize(image: Uint8Array, opts: RecognizeOptions = {}): Promise<OcrResult> {
    const { signal, ...rest } = opts;
    if (signal?.aborted) return Promise.reject(timeout());
    if (this.closed) return Promise.reject(new Error('the OCR service is closed'));
    return new Promise<OcrResult>((resolve, reject) => {
      // The listener goes when the reading settles: a job's signal sees one reading per page.
      const onAbort = () => this.abort(task);
      const settled = () => signal?.removeEventListener('abort', onAbort);
      const task: Task = {
        image, opts: rest,
        resolve: (r) => (settled(), resolve(r)),
        reject: (e) => (settled(), reject(e)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  /** Terminates every thread; readings in progress or waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new Error('the OCR service is closed'));
    await Promise.all([...this.slots].map((s) => this.stop(s, new Error('the OCR service is closed'))));
  }

  /** Hands waiting readings to idle threads, starting threads up to the pool's size. */
  private pump(): void {
    while (this.queue.length) {
      const slot = [...this.slots].find((s) => !s.task) ?? (this.slots.size < this.size ? this.start() : undefined);
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      slot.worker.ref(); // a reading in progress keeps the process alive; an idle thread does not
      slot.worker.postMessage({ image: task.image, opts: task.opts });
    }
  }

  private start(): Slot {
    const worker = new Worker(this.script, { workerData: this.settings });
    const slot: Slot = { worker };
    worker.unref();
    worker.on('message', (reply: Reply) => this.settle(slot, reply));
    worker.on('error', (e) => this.lose(slot, e));
    worker.on('exit', (code) => this.lose(slot, new Error(`the OCR thread exited (${code})`)));
    this.slots.add(slot);
    return slot;
  }

  private settle(slot: Slot, reply: Reply): void {
    const task = slot.task;
    slot.task = undefined;
    slot.worker.unref();
    if (task) {
      if (reply.result) task.resolve(reply.result);
      else task.reject(new Error(reply.error ?? 'OCR failed'));
    }
    this.pump();
  }

  /** A thread that died (crash, out of memory): its reading fails, the next reading starts a new thread. */
  private lose(slot: Slot, e: unknown): void {
    if (!this.slots.delete(slot)) return;
    slot.task?.reject(e);
    slot.task = undefined;
    this.pump();
  }

  /** The deadline of a reading passed: drop it from the queue, or terminate the thread reading it. */
  private abort(task: Task): void {
    const waiting = this.queue.indexOf(task);
    if (waiting >= 0) {
      this.queue.splice(waiting, 1);
      task.reject(timeout());
      return;
    }
    const slot = [...this.slots].find((s) => s.task === task);
    if (slot) void this.stop(slot, timeout());
  }

  private async stop(slot: Slot, reason: unknown): Promise<void> {
    this.slots.delete(slot);
    slot.task?.reject(reason);
    slot.task = undefined;
    await slot.worker.terminate();
    this.pump();
  }
}

function timeout(): ExtractionError {
  return new ExtractionError('extraction_timeout', 'extraction took longer than its deadline');
}
