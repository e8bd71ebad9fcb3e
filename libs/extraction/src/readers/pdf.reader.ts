import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExtractionError } from '../engine.types.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Page, Word } from '../layout/layout.types.js';
import type { OcrService } from './ocr.service.js';

// pdfjs is loaded lazily: importing it costs ~100 ms and text/image jobs never need it.
type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type PDFPageProxy = import('pdfjs-dist/types/src/display/api.js').PDFPageProxy;
type RenderParams = Parameters<PDFPageProxy['render']>[0];
let pdfjsPromise: Promise<PdfJs> | undefined;
function pdfjs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjsPromise;
}

export interface PdfReadOptions {
  ocr?: OcrService;
  maxPages?: number;
  signal?: AbortSignal;
}

/** Reads a PDF: text layer with positions per page; pages without text are rendered and OCRed. */
export async function readPdf(bytes: Uint8Array, opts: PdfReadOptions = {}): Promise<DocLayout> {
  const lib = await pdfjs();
  let doc: Awaited<ReturnType<typeof lib.getDocument>['promise']>;
  try {
    // pdfjs detaches the buffer it is given, so hand it a copy: the caller still owns `bytes`.
    const task = lib.getDocument({
      data: new Uint8Array(bytes),
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      verbosity: 0,
      stopAtErrors: false,
    });
    doc = await task.promise;
  } catch (e) {
    const name = (e as { name?: string })?.name ?? '';
    if (name === 'PasswordException') throw new ExtractionError('encrypted_file', 'the PDF is password-protected');
    throw new ExtractionError('corrupt_file', `the PDF cannot be parsed (${(e as Error)?.message ?? e})`);
  }
  try {
    const pages: Page[] = [];
    const n = Math.min(doc.numPages, opts.maxPages ?? Infinity);
    for (let p = 1; p <= n; p++) {
      if (opts.signal?.aborted) throw new ExtractionError('extraction_timeout', 'extraction was aborted');
      const page = await doc.getPage(p);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const words: Word[] = [];
      for (const item of content.items) {
        if (!('str' in item) || !item.str.trim()) continue;
        const tx = lib.Util.transform(viewport.transform, item.transform);
        const fontH = Math.hypot(tx[2], tx[3]) || Math.abs(item.height) || 10;
        const x = tx[4];
        const base = tx[5];
        const width = Math.abs(item.width) * (viewport.scale ?? 1);
        // Split a run into words with proportional x so that gaps inside a run still separate cells.
        const str = item.str;
        const per = str.length ? width / str.length : 0;
        for (const m of str.matchAll(/\S+/g)) {
          words.push({
            text: m[0],
            x0: x + m.index! * per,
            x1: x + (m.index! + m[0].length) * per,
            y0: base - fontH * 0.8,
            y1: base + fontH * 0.2,
            conf: 1,
          });
        }
      }
      const hasText = words.length > 0;
      if (!hasText && opts.ocr) {
        pages.push(await ocrPdfPage(page, p, viewport.width, viewport.height, opts.ocr, bytes));
      } else {
        pages.push(buildPage(p, viewport.width, viewport.height, words));
      }
      page.cleanup();
    }
    return { pages };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** Renders a page (pdfjs + @napi-rs/canvas, or `pdftoppm` when present) and OCRs it, scaling boxes back to points. */
async function ocrPdfPage(page: PDFPageProxy, number: number, width: number, height: number, ocr: OcrService, bytes: Uint8Array): Promise<Page> {
  const scale = 300 / 72;
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
    await page.render({ canvasContext: ctx as unknown as RenderParams['canvasContext'], canvas: canvas as unknown as RenderParams['canvas'], viewport }).promise;
    return canvas.toBuffer('image/png');
  } catch (e) {
    const viaPoppler = pdftoppm(bytes, number);
    if (viaPoppler) return viaPoppler;
    throw new ExtractionError(
      'extraction_failed',
      `page has no text layer and could not be rendered for OCR (${(e as Error)?.message ?? e})`,
    );
  }
}

/** Optional accelerator/fallback: poppler's `pdftoppm` renders one page at 300 dpi when it is on PATH. */
function pdftoppm(bytes: Uint8Array, page: number): Uint8Array | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'docket-pdf-'));
  try {
    const file = join(dir, 'in.pdf');
    writeFileSync(file, bytes);
    const r = spawnSync('pdftoppm', ['-f', String(page), '-l', String(page), '-r', '300', '-png', '-singlefile', file, join(dir, 'out')], { stdio: 'ignore', timeout: 60_000 });
    if (r.status !== 0) return undefined;
    return new Uint8Array(readFileSync(join(dir, 'out.png')));
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
