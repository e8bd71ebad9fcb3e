import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Word } from '../layout/layout.types.js';
import type { OcrLanguage, OcrResult } from './ocr.service.js';

/** The tesseract backends: the native binary (when on PATH) and tesseract.js, both reading the bundled models. */

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
export const PSM = '4';

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

type TesseractWorker = import('tesseract.js').Worker;

export class WasmOcr {
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
export function bundledTessdata(languages: readonly OcrLanguage[]): string | undefined {
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
export class NativeOcr {
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
