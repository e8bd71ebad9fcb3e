import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ExtractionError } from '../engine.types.js';
import { pdfRenderScale } from './input.limits.js';
import { buildPage } from '../layout/layout.builder.js';
import type { Page } from '../layout/layout.types.js';
import type { OcrService } from './ocr.service.js';
import type { PDFPageProxy, RenderParams } from './pdf.document.js';

/** PDF pages and regions rendered to images (pdfjs + @napi-rs/canvas, else poppler's `pdftoppm`) and OCRed. */

/**
 * Renders one region (device pixels at `scale`) of a page: the viewport is shifted so that the region lands
 * on a canvas of its own size, which costs a fraction of rendering the whole page at 300 dpi. Falls back to
 * cutting the region from a whole-page rendering (which may come from `pdftoppm`).
 */
export async function renderRegion(
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
export async function ocrPdfPage(
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
