import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Word } from '../layout/layout.types.js';

export interface OcrResult {
  words: Word[];
  width?: number;
  height?: number;
}

export interface OcrService {
  recognize(image: Uint8Array): Promise<OcrResult>;
  close(): Promise<void>;
}

export interface OcrOptions {
  /** 'tesseract.js' (always available, offline), 'native' (the `tesseract` binary) or 'auto' (native when on PATH). */
  engine?: 'auto' | 'native' | 'tesseract.js';
}

/** Directory of the bundled English model; passing it explicitly keeps tesseract.js from reaching for a CDN. */
function langPath(): string {
  const req = createRequire(import.meta.url);
  return join(dirname(req.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/**
 * Page segmentation mode 4 ("one column of text of variable sizes") keeps right-aligned amounts of
 * receipts and forms that the default automatic mode (3) drops as separate noisy blocks; words still carry
 * their own boxes, so columns are rebuilt by the layout model anyway.
 */
const PSM = process.env.DOCKET_OCR_PSM ?? '4';

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

/**
 * One reusable OCR worker per engine: creating a tesseract.js worker loads a 10 MB model (~1 s), so it is
 * created on first use and kept until close().
 */
export function createOcrService(opts: OcrOptions = {}): OcrService {
  const mode = opts.engine ?? 'auto';
  const useNative = mode === 'native' || (mode === 'auto' && hasNativeTesseract());
  return useNative ? new NativeOcr() : new WasmOcr();
}

type TesseractWorker = import('tesseract.js').Worker;

class WasmOcr implements OcrService {
  private worker?: Promise<TesseractWorker>;
  // tesseract.js workers process one job at a time; chain calls so concurrent extractions queue.
  private queue: Promise<unknown> = Promise.resolve();

  private getWorker(): Promise<TesseractWorker> {
    this.worker ??= (async () => {
      const { createWorker } = await import('tesseract.js');
      const w = await createWorker('eng', 1, { langPath: langPath(), gzip: true, cacheMethod: 'none', logger: () => undefined, errorHandler: () => undefined });
      // debug_file silences tesseract's progress chatter ("Estimating resolution …") on the host's stdout.
      // debug_file is a real tesseract variable that tesseract.js's typed parameter list does not name.
      await w.setParameters({ tessedit_pageseg_mode: PSM, preserve_interword_spaces: '1', debug_file: '/dev/null' } as unknown as Parameters<TesseractWorker['setParameters']>[0]);
      return w;
    })();
    return this.worker;
  }

  recognize(image: Uint8Array): Promise<OcrResult> {
    const run = this.queue.then(async () => {
      const worker = await this.getWorker();
      const { data } = await worker.recognize(Buffer.from(image), {}, { blocks: true, text: false });
      const words: Word[] = [];
      for (const b of data.blocks ?? [])
        for (const p of b.paragraphs ?? [])
          for (const l of p.lines ?? [])
            for (const w of l.words ?? []) {
              if (!w.text?.trim()) continue;
              words.push({ text: w.text.trim(), x0: w.bbox.x0, y0: w.bbox.y0, x1: w.bbox.x1, y1: w.bbox.y1, conf: (w.confidence ?? 0) / 100 });
            }
      return { words };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    if (w) await (await w).terminate().catch(() => undefined);
  }
}

/** The `tesseract` CLI with OMP_THREAD_LIMIT=1 (its OpenMP threads make it several times slower on small machines). */
class NativeOcr implements OcrService {
  async recognize(image: Uint8Array): Promise<OcrResult> {
    const dir = mkdtempSync(join(tmpdir(), 'docket-ocr-'));
    try {
      const file = join(dir, 'page.img');
      writeFileSync(file, image);
      const tsv = await new Promise<string>((resolve, reject) => {
        const child = spawn('tesseract', [file, 'stdout', '--psm', PSM, 'tsv'], {
          env: { ...process.env, OMP_THREAD_LIMIT: '1' },
          stdio: ['ignore', 'pipe', 'ignore'],
        });
        const out: Buffer[] = [];
        child.stdout.on('data', (d: Buffer) => out.push(d));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(out).toString('utf8')) : reject(new Error(`tesseract exited ${code}`))));
      });
      return parseTsv(tsv);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  async close(): Promise<void> {}
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
