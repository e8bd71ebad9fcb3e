import { ExtractionError } from '../engine.types.js';
import { pdfRenderScale } from './input.limits.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Page, Word } from '../layout/layout.types.js';
import type { OcrService } from './ocr.service.js';
import { walkOperators, type PdfDoc, type PdfJs, type PDFPageProxy } from './pdf.document.js';
import { type Quarter, turnWord } from './pdf.orientation.js';
import { renderRegion } from './pdf.render.js';

/** Text of pictures pasted into a text-layer PDF (a letterhead or company block as an image), found and OCRed. */

/** `PdfText.withPictureText` on an open document. */
export async function addPictureText(
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
  const out: [number, number, number, number][] = [];
  const pageArea = viewport.width * viewport.height;
  await walkOperators(lib, page, viewport, (fn, _args, toPage) => {
    if (fn !== lib.OPS.paintImageXObject && fn !== lib.OPS.paintInlineImageXObject) return;
    const m = toPage();
    const xs = [m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]];
    const ys = [m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]];
    const b: [number, number, number, number] = [
      Math.max(0, Math.min(...xs)),
      Math.max(0, Math.min(...ys)),
      Math.min(viewport.width, Math.max(...xs)),
      Math.min(viewport.height, Math.max(...ys)),
    ];
    if ((b[2] - b[0]) * (b[3] - b[1]) >= pageArea * MIN_IMAGE_AREA) out.push(b);
  });
  return out;
}

/** A picture holding this many text-layer words or more is a background or a scan with its own text layer. */
const MAX_COVERED_WORDS = 3;
/** Letterheads and company footers sit in this share of the page's height at its top or bottom… */
const PICTURE_BAND = 0.25;
/** …a picture reaching at most this many band heights into the page. */
const PICTURE_BAND_SLACK = 1.2;
/** A block of text as a picture is at least this many times as wide as it is high. */
const MIN_TEXT_PICTURE_ASPECT = 2.5;
/** Pictures read per page at most. */
const MAX_PICTURES_PER_PAGE = 2;
/** Narrower or lower regions (device pixels) are not rendered. */
const MIN_PICTURE_PX = 8;
/** OCR words of a picture read below this confidence are left out. */
const MIN_PICTURE_WORD_CONF = 0.5;

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
  const band = viewport.height * PICTURE_BAND;
  // Blocks of text are wide and flat; square-ish pictures are logos, charts and photos.
  const wide = (b: [number, number, number, number]) => b[2] - b[0] >= (b[3] - b[1]) * MIN_TEXT_PICTURE_ASPECT;
  boxes = boxes
    .filter(
      (b) =>
        covered(b) < MAX_COVERED_WORDS &&
        wide(b) &&
        (b[3] <= band * PICTURE_BAND_SLACK || b[1] >= viewport.height - band * PICTURE_BAND_SLACK),
    )
    .slice(0, MAX_PICTURES_PER_PAGE);
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
      if (w < MIN_PICTURE_PX || h < MIN_PICTURE_PX) continue;
      const res = await ocr.recognize(await renderRegion(page, scale, [x, y, w, h], bytes));
      out.push(...pictureWords(res.words, x, y, scale, textWords));
    }
  } catch {
    // Rendering or OCR of a picture is best effort: the text layer alone still makes a document.
    return [];
  }
  return out;
}

/** A picture region's OCR words in page units, without the unsure ones and those lying over text-layer words. */
function pictureWords(words: Word[], x: number, y: number, scale: number, textWords: Word[]): Word[] {
  const out: Word[] = [];
  for (const word of words) {
    if (word.conf < MIN_PICTURE_WORD_CONF) continue;
    const mapped = {
      ...word,
      x0: (word.x0 + x) / scale,
      x1: (word.x1 + x) / scale,
      y0: (word.y0 + y) / scale,
      y1: (word.y1 + y) / scale,
    };
    if (
      textWords.some((t) => Math.min(t.x1, mapped.x1) > Math.max(t.x0, mapped.x0) && Math.min(t.y1, mapped.y1) > Math.max(t.y0, mapped.y0))
    )
      continue;
    out.push(mapped);
  }
  return out;
}
