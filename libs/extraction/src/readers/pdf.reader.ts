import { ExtractionError } from '../engine.types.js';
import { assertDocumentInflation, checkPdfInflation, DEFAULT_INFLATION_LIMITS, type InflationLimits } from './pdf.inflation.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Page, Word } from '../layout/layout.types.js';
import type { OcrService } from './ocr.service.js';
import { openPdf, pdfjs, TEXT_ONLY_MAX_IMAGE_PIXELS, type PdfDoc, type PdfJs } from './pdf.document.js';
import { pageQuarter, runQuarter, turnedSize, turnTransform } from './pdf.orientation.js';
import { addPictureText } from './pdf.pictures.js';
import { addRules } from './pdf.rules.js';
import { ocrPdfPage } from './pdf.render.js';
import { fontFamilyOf, runWords } from './pdf.words.js';
import { joinAccentedRuns } from './pdf.accents.js';
import { crossWords, type CrossRun } from './pdf.rotated.js';

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
  /** Adds the ruled lines of the text-layer pages `pages` to the layout (`Page.rules`): table borders, for table fields. */
  withRules(pages: readonly number[], signal?: AbortSignal): Promise<void>;
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
  // Text and ruled lines are read from the document with its large pictures left out (never decoded); what is
  // rendered (pages without text, pictures pasted into the text layer) from the whole document, opened when needed.
  const doc = await openPdf(lib, bytes, TEXT_ONLY_MAX_IMAGE_PIXELS);
  let whole: Promise<PdfDoc> | undefined;
  const wholeDoc = () => (whole ??= openPdf(lib, bytes));
  const close = async () => {
    await doc.destroy().catch(() => undefined);
    if (whole) await (await whole.catch(() => undefined))?.destroy().catch(() => undefined);
  };
  try {
    assertDocumentInflation(inflated, limits, Math.min(doc.numPages, maxPages));
    const layout = await readLayout(lib, doc, wholeDoc, bytes, opts);
    return {
      layout,
      withPictureText: async (o) => addPictureText(lib, await wholeDoc(), bytes, layout, o),
      withRules: (pages, signal) => addRules(lib, doc, layout, pages, signal),
      attachments: () => attachmentsOf(doc),
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}

/**
 * The text layer of every page (up to `maxPages`) of an open document; pages without one are rendered from
 * `wholeDoc` (the document with its pictures) and OCRed.
 */
async function readLayout(
  lib: PdfJs,
  doc: PdfDoc,
  wholeDoc: () => Promise<PdfDoc>,
  bytes: Uint8Array,
  opts: PdfReadOptions,
): Promise<DocLayout> {
  const pages: Page[] = [];
  const n = Math.min(doc.numPages, opts.maxPages ?? Infinity);
  for (let p = 1; p <= n; p++) {
    if (opts.signal?.aborted) throw new ExtractionError('extraction_timeout', 'extraction was aborted');
    const page = await doc.getPage(p);
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const runs = joinAccentedRuns(
      content.items.flatMap((item) =>
        'str' in item && item.str.trim()
          ? [
              {
                str: item.str,
                tx: lib.Util.transform(viewport.transform, item.transform),
                width: Math.abs(item.width) * (viewport.scale ?? 1),
                height: item.height,
                fontName: item.fontName,
              },
            ]
          : [],
      ),
    );
    const quarter = pageQuarter(runs.map((r) => ({ tx: r.tx, chars: r.str.length })));
    const size = turnedSize(quarter, viewport.width, viewport.height);
    const words: Word[] = [];
    const across: CrossRun[] = [];
    for (const { str, tx: printed, width, height, fontName } of runs) {
      const tx = quarter ? turnTransform(quarter, viewport.width, viewport.height, printed) : printed;
      const family = fontFamilyOf(content.styles[fontName]?.fontFamily);
      if (runQuarter(tx) === 0) words.push(...runWords(str, tx, width, height, family));
      else across.push({ str, tx, width, height });
    }
    words.push(...crossWords(across));
    if (!words.length && opts.ocr) pages.push(await ocrWholePage(await wholeDoc(), p, viewport.width, viewport.height, opts.ocr, bytes));
    else pages.push({ ...buildPage(p, size.width, size.height, words), ...(quarter ? { turned: quarter } : {}) });
    page.cleanup();
  }
  return { pages };
}

/** `ocrPdfPage` on page `p` of the whole document. */
async function ocrWholePage(doc: PdfDoc, p: number, width: number, height: number, ocr: OcrService, bytes: Uint8Array): Promise<Page> {
  const page = await doc.getPage(p);
  try {
    return await ocrPdfPage(page, p, width, height, ocr, bytes);
  } finally {
    page.cleanup();
  }
}
