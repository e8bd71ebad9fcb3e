import { ExtractionError } from '../engine.types.js';
import { MAX_IMAGE_PIXELS } from './input.limits.js';

/** pdfjs loaded once (its polyfills undone) and a PDF opened with it. */

// pdfjs is loaded lazily: importing it costs ~100 ms and text/image jobs never need it.
export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
export type PDFPageProxy = import('pdfjs-dist/types/src/display/api.js').PDFPageProxy;
export type RenderParams = Parameters<PDFPageProxy['render']>[0];
let pdfjsPromise: Promise<PdfJs> | undefined;
export function pdfjs(): Promise<PdfJs> {
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

export type PdfDoc = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

/**
 * Pictures larger than this (pixels) are left out of a document opened only for its text and drawing operations
 * (`openPdf`'s `maxImageSize`): pdfjs decodes every picture of a page whose operator list is asked for (the ruled lines
 * of table pages), which cost more than the lines themselves. Glyph bitmaps of Type 3 fonts, whose drawing pdfjs reads
 * for the font's box, are far smaller and stay.
 */
export const TEXT_ONLY_MAX_IMAGE_PIXELS = 250_000;

/** Opens a PDF; `maxImageSize`: larger pictures are left out of its pages (default: the largest decoded, ADR 0008). */
export async function openPdf(lib: PdfJs, bytes: Uint8Array, maxImageSize = MAX_IMAGE_PIXELS): Promise<PdfDoc> {
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
      maxImageSize,
    });
    return await task.promise;
  } catch (e) {
    const name = (e as { name?: string })?.name ?? '';
    if (name === 'PasswordException') throw new ExtractionError('encrypted_file', 'the PDF is password-protected');
    throw new ExtractionError('corrupt_file', `the PDF cannot be parsed (${(e as Error)?.message ?? e})`);
  }
}

/** A PDF transformation matrix [a, b, c, d, e, f]. */
export type Matrix = [number, number, number, number, number, number];

/**
 * Walks a page's drawing operations with the current transformation matrix tracked through save/restore, transform and
 * form XObjects: `visit` sees every other operation with its arguments and the matrix mapping its user space onto the
 * page's viewport (origin top-left). It returns false to stop the walk.
 */
export async function walkOperators(
  lib: PdfJs,
  page: PDFPageProxy,
  viewport: { transform: number[] },
  visit: (fn: number, args: unknown[] | null, toPage: () => Matrix) => boolean | void,
): Promise<void> {
  const { fnArray, argsArray } = await page.getOperatorList();
  const OPS = lib.OPS;
  const identity: Matrix = [1, 0, 0, 1, 0, 0];
  let ctm: Matrix = identity;
  const stack: Matrix[] = [];
  const toPage = () => lib.Util.transform(viewport.transform, ctm) as Matrix;
  for (let i = 0; i < fnArray.length; i++) {
    const fn = fnArray[i]!;
    const args = argsArray[i] as unknown[] | null;
    if (fn === OPS.save) stack.push(ctm);
    else if (fn === OPS.restore) ctm = stack.pop() ?? identity;
    else if (fn === OPS.transform && args) ctm = lib.Util.transform(ctm, args as Matrix) as Matrix;
    else if (fn === OPS.paintFormXObjectBegin) {
      stack.push(ctm);
      if (Array.isArray(args?.[0]) && (args[0] as number[]).length === 6) ctm = lib.Util.transform(ctm, args[0] as Matrix) as Matrix;
    } else if (fn === OPS.paintFormXObjectEnd) ctm = stack.pop() ?? identity;
    else if (visit(fn, args, toPage) === false) return;
  }
}
