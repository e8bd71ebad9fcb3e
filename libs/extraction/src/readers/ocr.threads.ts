import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fork, type ChildProcess } from 'node:child_process';
import { ExtractionError } from '../engine.types.js';
import type { OcrOptions, OcrResult, RecognizeOptions } from './ocr.service.js';

/** What the pool's reader processes are started with: the OCR service settings (plain data, passed as JSON). */
export type OcrThreadSettings = Omit<OcrOptions, 'isolate' | 'poolSize'>;

/** A reading in a reader process, answered by `ocr.thread`. */
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
  child: ChildProcess;
  task?: Task;
}

/**
 * The compiled reader-process module (`ocr.thread.js` beside this one when built; under the test runner, which runs
 * the TypeScript sources, the library's `dist` build), or undefined when it has not been built.
 */
export function ocrProcessScript(): URL | undefined {
  const here = fileURLToPath(import.meta.url);
  const built = here.endsWith('.ts')
    ? here.replace(/([/\\])src([/\\]readers[/\\])ocr\.threads\.ts$/, '$1dist$2ocr.thread.js')
    : here.replace(/ocr\.threads\.js$/, 'ocr.thread.js');
  return existsSync(built) ? pathToFileURL(built) : undefined;
}

/**
 * OCR readings in child processes that can be stopped: a reading whose job's deadline passes (its signal aborts) has
 * its process killed, which stops the reading and releases its core at once (a promise race alone left the OCR
 * running to its end). Processes, not worker threads: terminating a thread inside an onnxruntime (PaddleOCR) run
 * aborts the whole process ("terminate called after throwing an instance of 'Napi::Error'"); a killed child takes
 * nothing with it. Each process keeps its own OCR service (models load once per process, not per page); at most
 * `size` processes read at once, further readings wait their turn; a killed process is replaced on the next reading.
 */
export class OcrProcessPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Task[] = [];
  private closed = false;

  constructor(
    private readonly script: URL,
    private readonly settings: OcrThreadSettings,
    private readonly size: number,
  ) {}

  /** Reader processes alive (idle or reading). */
  get processes(): number {
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
        image,
        opts: rest,
        resolve: (r) => (settled(), resolve(r)),
        reject: (e) => (settled(), reject(e)),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(task);
      this.pump();
    });
  }

  /** Kills every reader process; readings in progress or waiting fail. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new Error('the OCR service is closed'));
    await Promise.all([...this.slots].map((s) => this.stop(s, new Error('the OCR service is closed'))));
  }

  /** Hands waiting readings to idle processes, starting processes up to the pool's size. */
  private pump(): void {
    while (this.queue.length) {
      const slot = [...this.slots].find((s) => !s.task) ?? (this.slots.size < this.size ? this.start() : undefined);
      if (!slot) return;
      const task = this.queue.shift()!;
      slot.task = task;
      hold(slot.child, true); // a reading in progress keeps this process alive; an idle reader does not
      slot.child.send({ image: task.image, opts: task.opts });
    }
  }

  private start(): Slot {
    // (Structured-clone serialisation carries the page bytes as bytes; the reader inherits this process's Node flags,
    // e.g. a memory limit or an `--import` hook.)
    const child = fork(fileURLToPath(this.script), [JSON.stringify(this.settings)], {
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const slot: Slot = { child };
    hold(child, false);
    child.on('message', (reply: Reply) => this.settle(slot, reply));
    child.on('error', (e) => this.lose(slot, e));
    child.on('exit', (code, sig) => this.lose(slot, new Error(`the OCR reader process exited (${code ?? sig})`)));
    this.slots.add(slot);
    return slot;
  }

  private settle(slot: Slot, reply: Reply): void {
    const task = slot.task;
    slot.task = undefined;
    hold(slot.child, false);
    if (task) {
      if (reply.result) task.resolve(reply.result);
      else task.reject(new Error(reply.error ?? 'OCR failed'));
    }
    this.pump();
  }

  /** A reader process that died (crash, out of memory): its reading fails, the next reading starts a new one. */
  private lose(slot: Slot, e: unknown): void {
    if (!this.slots.delete(slot)) return;
    slot.task?.reject(e);
    slot.task = undefined;
    this.pump();
  }

  /** The deadline of a reading passed: drop it from the queue, or kill the process reading it. */
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
    const exited = new Promise<void>((resolve) =>
      slot.child.exitCode !== null || slot.child.signalCode !== null ? resolve() : slot.child.once('exit', () => resolve()),
    );
    hold(slot.child, true); // waiting for its exit keeps this process alive (an idle reader is unreferenced)
    slot.child.kill('SIGKILL');
    await exited;
    this.pump();
  }
}

/** Whether a reader process (and its message channel) keeps this process alive: only while it reads. */
function hold(child: ChildProcess, busy: boolean): void {
  const channel = child.channel as { ref?(): void; unref?(): void } | null | undefined;
  if (busy) (child.ref(), channel?.ref?.());
  else (child.unref(), channel?.unref?.());
}

function timeout(): ExtractionError {
  return new ExtractionError('extraction_timeout', 'extraction took longer than its deadline');
}
