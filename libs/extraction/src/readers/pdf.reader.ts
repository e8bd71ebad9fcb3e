import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ExtractionError } from '../engine.types.js';
import { MAX_IMAGE_PIXELS, pdfRenderScale } from './input.limits.js';
import { assertDocumentInflation, checkPdfInflation, DEFAULT_INFLATION_LIMITS, type InflationLimits } from './pdf.inflation.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Page, Word } from '../layout/layout.types.js';
import type { OcrService } from './ocr.service.js';
import { pageQuarter, type Quarter, runQuarter, turnedSize, turnTransform, turnWord } from './pdf.orientation.js';

// pdfjs is loaded lazily: importing it costs ~100 ms and text/image jobs never need it.
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PDFPageProxy = import('pdfjs-dist/types/src/display/api.js').PDFPageProxy;
type RenderParams = Parameters<PDFPageProxy['render']>[0];
let pdfjsPromise: Promise<PdfJs> | undefined;
function pdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= loadPdfjs();
  return pdfjsPromise;
}

/** Built-ins that the core-js copies bundled in pdfjs-dist's legacy build replace process-wide on Node 20. */
const POLYFILLED: [object, string][] = [
  [Array.prototype, 'push'],
  [JSON, 'parse'],
  [JSON, 'stringify'],
];
/** pdfjs's worker module: on Node it runs in this thread ("fake worker"), found through `globalThis.pdfjsWorker`. */
const PDFJS_WORKER = 'pdfjs-dist/legacy/build/pdf.worker.mjs';

/**
 * Loads pdfjs and its worker module, then puts back the native built-ins that their bundled core-js replaced:
 * on Node 20 (V8 before 12.2) core-js swaps `Array.prototype.push` for a JavaScript version (for a corner case of
 * arrays with a read-only length) and wraps JSON.parse/stringify, which slowed every `push` of the whole process,
 * field location included, several-fold. pdfjs needs none of those corner cases. The worker module is loaded here,
 * not lazily by the first `getDocument`, so that its own core-js copy is undone too.
 */
async function loadPdfjs(): Promise<PdfJs> {
  const natives = POLYFILLED.map(([owner, key]) => [owner, key, Object.getOwnPropertyDescriptor(owner, key)!] as const);
  try {
    const [lib] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import(PDFJS_WORKER)]);
    return lib;
  } finally {
    for (const [owner, key, desc] of natives) Object.defineProperty(owner, key, desc);
  }
}

export interface PdfReadOptions {
  ocr?: OcrService;
  maxPages?: number;
  signal?: AbortSignal;
  /** Bounds on the bytes the PDF's streams inflate to (default DEFAULT_INFLATION_LIMITS); beyond them `decompression_limit`. */
  inflation?: InflationLimits;
}

/** Reads a PDF: text layer with positions per page; pages without text are rendered and OCRed. */
export async function readPdf(bytes: Uint8Array, opts: PdfReadOptions = {}): Promise<DocLayout> {
  const pdf = await openPdfText(bytes, opts);
  await pdf.close();
  return pdf.layout;
}

/** The PDF's page count, from its page tree only: no page is read. */
export async function pdfPageCount(
  bytes: Uint8Array,
  limits: InflationLimits = DEFAULT_INFLATION_LIMITS,
  maxPages = Infinity,
): Promise<number> {
  // Counting opens the page tree, which may sit in object streams: the streams are measured first, as for reading.
  const inflated = await checkPdfInflation(bytes, limits, maxPages);
  const doc = await openPdf(await pdfjs(), bytes);
  try {
    assertDocumentInflation(inflated, limits, Math.min(doc.numPages, maxPages));
    return doc.numPages;
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** A PDF read as by `readPdf`, its document still open for a second look at its pictures; close it when done. */
export interface PdfText {
  layout: DocLayout;
  /**
   * The layout plus the text of pictures pasted into the text layer (a letterhead or company block as an image):
   * only the first and last page are searched (letterheads and company footers live there; finding pictures costs
   * a parse of the page's drawing operations), only wide pictures in their top or bottom band are OCRed, and only
   * the picture's own region is rendered. Pages that came from OCR are left alone. The open document's parsed
   * fonts and objects are reused: reopening it cost as much as the text layer of those pages again.
   */
  withPictureText(opts: { ocr: OcrService; signal?: AbortSignal }): Promise<DocLayout>;
  /** The document's embedded files (its `EmbeddedFiles` name tree: where Factur-X / ZUGFeRD keep their XML). */
  attachments(): Promise<PdfAttachment[]>;
  close(): Promise<void>;
}

export interface PdfAttachment {
  filename: string;
  content: Uint8Array;
}

/** The embedded files of an open document; none when its name tree is missing or unreadable. */
async function attachmentsOf(doc: PdfDoc): Promise<PdfAttachment[]> {
  const found = (await doc.getAttachments().catch(() => null)) as Record<string, { filename?: string; content?: Uint8Array }> | null;
  return Object.values(found ?? {})
    .filter((a) => a?.content instanceof Uint8Array && typeof a.filename === 'string')
    .map((a) => ({ filename: a.filename!, content: a.content! }));
}

/** Reads a PDF like `readPdf` and keeps its document open for `withPictureText`. */
export async function openPdfText(bytes: Uint8Array, opts: PdfReadOptions = {}): Promise<PdfText> {
  const lib = await pdfjs();
  const limits = opts.inflation ?? DEFAULT_INFLATION_LIMITS;
  const maxPages = opts.maxPages ?? Infinity;
  // Streams are inflated (counted, not kept) before pdfjs sees them: pdfjs inflates a stream whole, whatever its size.
  const inflated = await checkPdfInflation(bytes, limits, maxPages, opts.signal);
  const doc = await openPdf(lib, bytes);
  try {
    assertDocumentInflation(inflated, limits, Math.min(doc.numPages, maxPages));
    const layout = await readLayout(lib, doc, bytes, opts);
    return {
      layout,
      withPictureText: (o) => addPictureText(lib, doc, bytes, layout, o),
      attachments: () => attachmentsOf(doc),
      close: () => doc.destroy().catch(() => undefined),
    };
  } catch (e) {
    await doc.destroy().catch(() => undefined);
    throw e;
  }
}

/** The text layer of every page (up to `maxPages`) of an open document; pages without one are OCRed. */
async function readLayout(lib: PdfJs, doc: PdfDoc, bytes: Uint8Array, opts: PdfReadOptions): Promise<DocLayout> {
  const pages: Page[] = [];
  const n = Math.min(doc.numPages, opts.maxPages ?? Infinity);
  for (let p = 1; p <= n; p++) {
    if (opts.signal?.aborted) throw new ExtractionError('extraction_timeout', 'extraction was aborted');
    const page = await doc.getPage(p);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const runs = content.items.flatMap((item) =>
      'str' in item && item.str.trim() ? [{ item, tx: lib.Util.transform(viewport.transform, item.transform) }] : [],
    );
    const quarter = pageQuarter(runs.map((r) => ({ tx: r.tx, chars: r.item.str.length })));
    const size = turnedSize(quarter, viewport.width, viewport.height);
    const words: Word[] = [];
    for (const { item, tx: printed } of runs) {
      const tx = quarter ? turnTransform(quarter, viewport.width, viewport.height, printed) : printed;
      const width = Math.abs(item.width) * (viewport.scale ?? 1);
      words.push(...(runQuarter(tx) === 0 ? runWords(item.str, tx, width, item.height) : crossRunWords(item.str, tx, width, item.height)));
    }
    if (!words.length && opts.ocr) pages.push(await ocrPdfPage(page, p, viewport.width, viewport.height, opts.ocr, bytes));
    else pages.push({ ...buildPage(p, size.width, size.height, words), ...(quarter ? { turned: quarter } : {}) });
    page.cleanup();
  }
  return { pages };
}

/** The words of one text run: split at spaces, with x in proportion to the characters so gaps inside a run still part cells. */
function runWords(str: string, tx: readonly number[], width: number, height: number): Word[] {
  const fontH = Math.hypot(tx[2], tx[3]) || Math.abs(height) || 10;
  const [x, base] = [tx[4], tx[5]];
  const per = str.length ? width / str.length : 0;
  return [...str.matchAll(/\S+/g)].flatMap((m) =>
    gluedLabelParts(m[0]).map(([text, at]) => ({
      text,
      x0: x + (m.index! + at) * per,
      x1: x + (m.index! + at + text.length) * per,
      y0: base - fontH * 0.8,
      y1: base + fontH * 0.2,
      conf: 1,
    })),
  );
}

/**
 * A label printed onto its amount without a space, "Total:£64.50" or "Net:1,250.00", read as two words. (Only an
 * amount, with a currency sign or decimals: "Client:7" stays one word, a label with its code.)
 */
const GLUED_LABEL = /^(\p{L}[\p{L}.]*:)(?=\p{Sc}|[-\d][\d.,' ]*[.,]\d)(.+)$/u;

function gluedLabelParts(token: string): [string, number][] {
  const m = GLUED_LABEL.exec(token);
  return m
    ? [
        [m[1]!, 0],
        [m[2]!, m[1]!.length],
      ]
    : [[token, 0]];
}

/** `PdfText.withPictureText` on an open document. */
async function addPictureText(
  lib: PdfJs,
  doc: PdfDoc,
  bytes: Uint8Array,
  layout: DocLayout,
  opts: { ocr: OcrService; signal?: AbortSignal },
): Promise<DocLayout> {
  const last = layout.pages[layout.pages.length - 1]?.number ?? 0;
  const pages: Page[] = [];
  for (const old of layout.pages) {
    if (old.ocr || (old.number !== 1 && old.number !== last) || old.number > doc.numPages) {
      pages.push(old);
      continue;
    }
    if (opts.signal?.aborted) throw new ExtractionError('extraction_timeout', 'extraction was aborted');
    const page = await doc.getPage(old.number);
    const words = old.lines.flatMap((l) => l.words);
    const viewport = page.getViewport({ scale: 1 });
    const printedWords = old.turned ? words.map((w) => turnWord(w, (4 - old.turned!) as Quarter, old.width, old.height)) : words;
    const found = await ocrTextImages(lib, page, viewport, printedWords, opts.ocr, bytes);
    const extra = old.turned ? found.map((w) => turnWord(w, old.turned!, viewport.width, viewport.height)) : found;
    pages.push(extra.length ? buildPage(old.number, old.width, old.height, [...words, ...extra]) : old);
    page.cleanup();
  }
  return { ...layout, pages };
}

type PdfDoc = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

async function openPdf(lib: PdfJs, bytes: Uint8Array): Promise<PdfDoc> {
  try {
    // pdfjs detaches the buffer it is given, so hand it a copy: the caller still owns `bytes`.
    const task = lib.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      stopAtErrors: false,
      // Images embedded in a page are decoded when it is rendered: larger ones are skipped, not decoded (ADR 0008).
      maxImageSize: MAX_IMAGE_PIXELS,
    });
    return await task.promise;
  } catch (e) {
    const name = (e as { name?: string })?.name ?? '';
    if (name === 'PasswordException') throw new ExtractionError('encrypted_file', 'the PDF is password-protected');
    throw new ExtractionError('corrupt_file', `the PDF cannot be parsed (${(e as Error)?.message ?? e})`);
  }
}

type Matrix = [number, number, number, number, number, number];
type Viewport = ReturnType<PDFPageProxy['getViewport']>;

/**
 * Cheap pre-check on the raw bytes: does the file hold any wide raster image (image XObjects are streams,
 * which PDF never puts inside compressed object streams, so their dictionaries are plain text)? Saves
 * parsing every page's drawing operations for the many documents without one.
 */
export function hasWidePicture(bytes: Uint8Array): boolean {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  for (const m of text.matchAll(/\/Subtype\s*\/Image\b/g)) {
    const dict = text.slice(Math.max(0, m.index! - 400), m.index! + 400);
    const w = Number(/\/Width\s+(\d+)/.exec(dict)?.[1] ?? 0);
    const h = Number(/\/Height\s+(\d+)/.exec(dict)?.[1] ?? 0);
    if (w >= 300 && h > 0 && w >= h * 2) return true;
  }
  return false;
}

/** Smallest share of the page an embedded image must cover to be read: logos stay below it. */
const MIN_IMAGE_AREA = 0.03;

/**
 * Boxes (viewport units) of the large raster images painted on a page, from its operator list: the current
 * transformation matrix is tracked through save/restore, transform and form XObjects; an image fills the
 * unit square of the matrix in effect when it is painted.
 */
async function imageBoxes(lib: PdfJs, page: PDFPageProxy, viewport: Viewport): Promise<[number, number, number, number][]> {
  const { fnArray, argsArray } = await page.getOperatorList();
  const OPS = lib.OPS;
  const identity: Matrix = [1, 0, 0, 1, 0, 0];
  let ctm: Matrix = identity;
  const stack: Matrix[] = [];
  const out: [number, number, number, number][] = [];
  const pageArea = viewport.width * viewport.height;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i];
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? identity;
    else if (fn === OPS.transform && args) ctm = lib.Util.transform(ctm, args as Matrix) as Matrix;
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      if (Array.isArray(args?.[0]) && (args[0] as number[]).length === 6) ctm = lib.Util.transform(ctm, args[0] as Matrix) as Matrix;
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? identity;
    else if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject) {
      const m = lib.Util.transform(viewport.transform, ctm) as Matrix;
      const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]];
      const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]];
      const b: [number, number, number, number] = [
        Math.max(0, Math.min(...xs)),
        Math.max(0, Math.min(...ys)),
        Math.min(viewport.width, Math.max(...xs)),
        Math.min(viewport.height, Math.max(...ys)),
      ];
      if ((b[2] - b[0]) * (b[3] - b[1]) >= pageArea * MIN_IMAGE_AREA) out.push(b);
    }
  }
  return out;
}

/**
 * Text inside large images of a page that also has a text layer (a letterhead or a company block pasted in
 * as a picture): each such image region is cut from the 300-dpi rendering and OCRed; words that overlap
 * the text layer (an image behind real text) are dropped. Pages without large images in their top or bottom
 * band cost nothing extra.
 */
async function ocrTextImages(
  lib: PdfJs,
  page: PDFPageProxy,
  viewport: Viewport,
  textWords: Word[],
  ocr: OcrService,
  bytes: Uint8Array,
): Promise<Word[]> {
  let boxes: [number, number, number, number][];
  try {
    boxes = await imageBoxes(lib, page, viewport);
  } catch {
    return [];
  }
  // An image mostly covered by text-layer words is a background or a scan with its own text layer.
  const covered = (b: [number, number, number, number]) =>
    textWords.filter((w) => w.x0 >= b[0] && w.x1 <= b[2] && w.y0 >= b[1] && w.y1 <= b[3]).length;
  // Letterheads and company footers pasted as pictures sit in the top or bottom quarter of the page;
  // pictures in the body are charts and photos, whose OCR costs seconds and adds only noise.
  const band = viewport.height * 0.25;
  // Blocks of text are wide and flat; square-ish pictures are logos, charts and photos.
  const wide = (b: [number, number, number, number]) => b[2] - b[0] >= (b[3] - b[1]) * 2.5;
  boxes = boxes.filter((b) => covered(b) < 3 && wide(b) && (b[3] <= band * 1.2 || b[1] >= viewport.height - band * 1.2)).slice(0, 2);
  if (!boxes.length) return [];
  const scale = pdfRenderScale(viewport.width, viewport.height, page.pageNumber);
  const out: Word[] = [];
  try {
    for (const b of boxes) {
      const [x, y, w, h] = [b[0] * scale, b[1] * scale, (b[2] - b[0]) * scale, (b[3] - b[1]) * scale].map(Math.round) as [
        number,
        number,
        number,
        number,
      ];
      if (w < 8 || h < 8) continue;
      const res = await ocr.recognize(await renderRegion(page, scale, [x, y, w, h], bytes));
      for (const word of res.words) {
        if (word.conf < 0.5) continue;
        const mapped = {
          ...word,
          x0: (word.x0 + x) / scale,
          x1: (word.x1 + x) / scale,
          y0: (word.y0 + y) / scale,
          y1: (word.y1 + y) / scale,
        };
        if (
          textWords.some(
            (t) => Math.min(t.x1, mapped.x1) > Math.max(t.x0, mapped.x0) && Math.min(t.y1, mapped.y1) > Math.max(t.y0, mapped.y0),
          )
        )
          continue;
        out.push(mapped);
      }
    }
  } catch {
    // Rendering or OCR of a picture is best effort: the text layer alone still makes a document.
    return [];
  }
  return out;
}

/**
 * Renders one region (device pixels at `scale`) of a page: the viewport is shifted so that the region lands
 * on a canvas of its own size, which costs a fraction of rendering the whole page at 300 dpi. Falls back to
 * cutting the region from a whole-page rendering (which may come from `pdftoppm`).
 */
async function renderRegion(
  page: PDFPageProxy,
  scale: number,
  [x, y, w, h]: [number, number, number, number],
  bytes: Uint8Array,
): Promise<Buffer> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const canvas = createCanvas(w, h);
  const ctx = canvas.getContext('2d');
  try {
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, w, h);
    const viewport = page.getViewport({ scale, offsetX: -x, offsetY: -y });
    await page.render({
      canvasContext: ctx as unknown as RenderParams['canvasContext'],
      canvas: canvas as unknown as RenderParams['canvas'],
      viewport,
    }).promise;
  } catch {
    const whole = await loadImage(Buffer.from(await renderPage(page, scale, page.pageNumber, bytes)));
    ctx.drawImage(whole, x, y, w, h, 0, 0, w, h);
  }
  return canvas.toBuffer('image/png');
}

/** Renders a page (pdfjs + @napi-rs/canvas, or `pdftoppm` when present) and OCRs it, scaling boxes back to points. */
async function ocrPdfPage(
  page: PDFPageProxy,
  number: number,
  width: number,
  height: number,
  ocr: OcrService,
  bytes: Uint8Array,
): Promise<Page> {
  const scale = pdfRenderScale(width, height, number); // refuses an absurd page before rendering it
  const png = await renderPage(page, scale, number, bytes);
  const res = await ocr.recognize(png);
  const words = res.words.map((w) => ({ ...w, x0: w.x0 / scale, x1: w.x1 / scale, y0: w.y0 / scale, y1: w.y1 / scale }));
  return buildPage(number, width, height, words, true);
}

async function renderPage(page: PDFPageProxy, scale: number, number: number, bytes: Uint8Array): Promise<Uint8Array> {
  try {
    const viewport = page.getViewport({ scale });
    const { createCanvas } = await import('@napi-rs/canvas');
    const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    // @napi-rs/canvas implements the 2D context pdf.js draws with; its types are not the DOM's.
    await page.render({
      canvasContext: ctx as unknown as RenderParams['canvasContext'],
      canvas: canvas as unknown as RenderParams['canvas'],
      viewport,
    }).promise;
    return canvas.toBuffer('image/png');
  } catch (e) {
    const viaPoppler = await pdftoppm(bytes, number, scale);
    if (viaPoppler) return viaPoppler;
    throw new ExtractionError(
      'extraction_failed',
      `page has no text layer and could not be rendered for OCR (${(e as Error)?.message ?? e})`,
    );
  }
}

/** Longest a `pdftoppm` rendering may take before it is killed. */
const PDFTOPPM_TIMEOUT_MS = 60_000;
const execFileAsync = promisify(execFile);

/**
 * Optional fallback: poppler's `pdftoppm` renders one page (at the resolution `scale` stands for) when it is
 * on PATH. Asynchronous (the worker's event loop keeps heartbeating) and killed after PDFTOPPM_TIMEOUT_MS.
 */
async function pdftoppm(bytes: Uint8Array, page: number, scale: number): Promise<Uint8Array | undefined> {
  let dir: string | undefined;
  try {
    dir = await mkdtemp(join(tmpdir(), 'docket-pdf-'));
    const file = join(dir, 'in.pdf');
    await writeFile(file, bytes);
    const dpi = String(Math.round(scale * 72));
    await execFileAsync('pdftoppm', ['-f', String(page), '-l', String(page), '-r', dpi, '-png', '-singlefile', file, join(dir, 'out')], {
      timeout: PDFTOPPM_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    return new Uint8Array(await readFile(join(dir, 'out.png')));
  } catch {
    return undefined;
  } finally {
    if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * The words of a run printed across the page's reading direction (a column header set up the sheet on an upright
 * page): each word boxed where it is printed, one above the other, so that they join no line of the upright text.
 */
function crossRunWords(str: string, tx: readonly number[], width: number, height: number): Word[] {
  const fontH = Math.hypot(tx[2], tx[3]) || Math.abs(height) || 10;
  const len = Math.hypot(tx[0], tx[1]) || 1;
  // Baseline direction u and the glyphs' up direction (u turned a quarter anticlockwise on the page, y down).
  const [ux, uy] = [tx[0] / len, tx[1] / len];
  const [vx, vy] = [uy, -ux];
  const per = str.length ? width / str.length : 0;
  return [...str.matchAll(/\S+/g)].map((m) => {
    const along = [m.index! * per, (m.index! + m[0].length) * per];
    const across = [fontH * 0.8, -fontH * 0.2];
    const xs = along.flatMap((a) => across.map((c) => tx[4] + ux * a + vx * c));
    const ys = along.flatMap((a) => across.map((c) => tx[5] + uy * a + vy * c));
    return { text: m[0], x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys), conf: 1 };
  });
}
