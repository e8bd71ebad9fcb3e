import {
  ExtractionError,
  type ExtractionEngine,
  type ExtractionInput,
  type ExtractionOptions,
  type ExtractionOutput,
  type ExtractionSchema,
} from './engine.types.js';
import type { EngineOptions } from './engine.options.js';
import { inferContext, setDocLocales } from './document.context.js';
import { LOCALE_PACKS } from './locales/locale.registry.js';
import type { DocLayout } from './layout/layout.types.js';
import { labelCandidates, otherLabelTest } from './candidates/label.candidates.js';
import { chooseByLabels } from './assignment/label.choice.js';
import { assignFields } from './assignment/field.assignment.js';
import { validateDocument } from './validation/document.validation.js';
import { isLowResPage, readImage } from './readers/image.reader.js';
import { underDeadline } from './readers/input.limits.js';
import { createJobReader, type JobReader } from './readers/job.reader.js';
import { hasWidePicture, type PdfText } from './readers/pdf.reader.js';
import { isTiff } from './readers/tiff.reader.js';
import { countDocumentPages } from './page.count.js';
import { renderMarkdown } from './render/markdown.renderer.js';
import { inPrintedFrame } from './render/printed.frame.js';
import { sniffType, type DocKind } from './type.sniffer.js';
import { einvoiceOfAttachments, parseEInvoice } from './einvoice/einvoice.parser.js';
import { extractEInvoice } from './einvoice/einvoice.extractor.js';
import { learnFromLayout } from './memory/exemplar.builder.js';
import type { LayoutExemplarData } from './memory/memory.types.js';

// The engine wires the stages (docs/adr and ../shared/design/EXTRACTION.md): read (readers/) → layout (layout/) →
// candidates (candidates/, locate/) → scores (scores/) → assignment (assignment/) → validation (validation/) → render.
export type { EngineOptions } from './engine.options.js';
export { DEFAULT_MAX_INPUT_BYTES, ocrEngineMode, resolveOcrLanguages } from './readers/job.reader.js';

/** The engine plus optional cleanup: close() terminates the OCR worker so the process can exit. */
export interface DocketExtractionEngine extends ExtractionEngine {
  learnLayout(
    input: ExtractionInput,
    schema: ExtractionSchema,
    values: Record<string, unknown>,
    options?: ExtractionOptions,
  ): Promise<LayoutExemplarData>;
  close(): Promise<void>;
}

export function createExtractionEngine(options: EngineOptions = {}): DocketExtractionEngine {
  const reader = createJobReader(options);
  /** A file's pages: a PDF stays open (its pictures may be read later); any other kind is read whole. */
  const open = async (kind: DocKind, input: ExtractionInput, opts: ExtractionOptions) => {
    const pdf = kind === 'pdf' ? await reader.openPdf(input.bytes, opts) : undefined;
    return { pdf, doc: pdf?.layout ?? (await underDeadline(reader.read(kind, input.bytes, opts), opts.signal)) };
  };
  return {
    extract: (input, schema, opts = {}) =>
      failingClearly(async () => {
        reader.checkInput(input);
        if (opts.signal?.aborted) throw new ExtractionError('extraction_timeout', 'extraction was aborted');
        const kind = sniffType(input.mimeType, input.bytes, input.filename);
        // An XRechnung / UBL / CII upload is its own data: nothing to read from pages.
        if (kind === 'xml') return extractEInvoice(parseEInvoice(input.bytes), schema, opts);
        const { pdf, doc } = await open(kind, input, opts);
        try {
          // A hybrid PDF (Factur-X / ZUGFeRD): the fields come from its XML, placed on and checked against its pages.
          const einvoice = pdf && options.embeddedInvoices !== false ? einvoiceOfAttachments(await pdf.attachments()) : undefined;
          if (einvoice) return extractEInvoice(einvoice, schema, opts, { doc, output: pageReading(doc, schema, opts) });
          return await extractRead(reader, kind, input, doc, schema, opts, pdf);
        } finally {
          await pdf?.close();
        }
      }),
    countPages: (input) =>
      failingClearly(async () => {
        reader.checkInput(input);
        const kind = sniffType(input.mimeType, input.bytes, input.filename);
        return Math.min(reader.maxPages, await countDocumentPages(kind, input.bytes, reader.inflation, reader.maxPages));
      }),
    learnLayout: (input, schema, values, opts = {}) =>
      failingClearly(async () => {
        reader.checkInput(input);
        const kind = sniffType(input.mimeType, input.bytes, input.filename);
        // An e-invoice's fields come from its data: there is no layout to learn.
        if (kind === 'xml') return learnFromLayout({ pages: [] }, [], {}, inferContext({ pages: [] }));
        const { pdf, doc } = await open(kind, input, opts);
        try {
          applyLocales(doc, opts);
          return learnFromLayout(doc, schema?.fields ?? [], values ?? {}, inferContext(doc));
        } finally {
          await pdf?.close();
        }
      }),
    close: () => reader.close(),
  };
}

/** Every failure leaves the engine as an ExtractionError with a stable code. */
async function failingClearly<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ExtractionError) throw e;
    throw new ExtractionError('extraction_failed', (e as Error)?.message ?? String(e));
  }
}

/** Field location on a read document, with the second readings that scans and PDFs with pictures may need. */
async function extractRead(
  reader: JobReader,
  kind: DocKind,
  input: ExtractionInput,
  doc: DocLayout,
  schema: ExtractionSchema,
  opts: ExtractionOptions,
  pdf: PdfText | undefined,
): Promise<ExtractionOutput> {
  let first: CountedExtraction | undefined;
  let failure: unknown;
  try {
    first = extractCounted(doc, schema, opts);
  } catch (e) {
    failure = e;
  }
  const unanswered = (schema?.fields ?? []).some((f) => f.data_type !== 'table' && first?.output.result[f.key] === undefined);
  // A low-resolution page scan that left fields unanswered is read a second time as sparse text (the small
  // printed labels of forms come out better that way); the reading whose labels anchored more answers wins.
  if (kind === 'image' && unanswered && first && !isTiff(input.bytes) && isLowResPage(input.bytes)) {
    const sparse = await underDeadline(readImage(input.bytes, reader.jobOcr(opts), 1, { sparse: true }), opts.signal);
    return betterReading(first, extractCounted(sparse, schema, opts)).output;
  }
  // Pictures inside a text-layer PDF (a company block pasted as an image) are read only when the text layer
  // left scalar fields unanswered: OCR costs ~1 s a picture, and most documents never need it.
  if (pdf && unanswered && hasWidePicture(input.bytes)) {
    const richer = await underDeadline(pdf.withPictureText({ ocr: reader.jobOcr(opts), signal: opts.signal }), opts.signal);
    if (wordCount(richer) > wordCount(doc)) return extractFromLayout(richer, schema, opts);
  }
  if (failure !== undefined) throw failure;
  return first!.output;
}

/** The page-only reading of a hybrid PDF, to compare its XML with; undefined when it found nothing it could return. */
function pageReading(doc: DocLayout, schema: ExtractionSchema, opts: ExtractionOptions): ExtractionOutput | undefined {
  try {
    return extractFromLayout(doc, schema, opts);
  } catch {
    return undefined;
  }
}

/** Runs field location, validation and scoring on an already-read document. */
export function extractFromLayout(doc: DocLayout, schema: ExtractionSchema, opts: ExtractionOptions = {}): ExtractionOutput {
  return extractCounted(doc, schema, opts).output;
}

/** An extraction and how many fields were answered from their label as printed on the page (forms). */
export interface CountedExtraction {
  output: ExtractionOutput;
  printedLabels: number;
}

/**
 * Which of two readings of one page to keep: the one whose printed labels anchored more answers (the OCR
 * read the form's questions), then the more confident one.
 */
export function betterReading(a: CountedExtraction, b: CountedExtraction): CountedExtraction {
  if (a.printedLabels !== b.printedLabels) return a.printedLabels > b.printedLabels ? a : b;
  return b.output.confidence > a.output.confidence ? b : a;
}

/** The stages after reading: candidates → choice by label → assignment under constraints → validation. */
function extractCounted(doc: DocLayout, schema: ExtractionSchema, opts: ExtractionOptions = {}): CountedExtraction {
  applyLocales(doc, opts);
  const ctx = inferContext(doc);
  const fields = schema?.fields ?? [];
  const cands = labelCandidates(doc, fields, ctx);
  const choice = chooseByLabels(doc, fields, ctx, cands, otherLabelTest(fields));
  const { result, meta, memory } = assignFields(doc, fields, ctx, cands, choice, opts);
  const { confidence, needsReview } = validateDocument(fields, result, meta, opts);
  inPrintedFrame(doc, meta);
  const output = { result, fields: meta, confidence, needsReview, pages: doc.pages.length, markdown: renderMarkdown(doc) };
  return { output: { ...output, ...(memory ? { memory } : {}) }, printedLabels: choice.printedLabels };
}

/** The job's locale packs, when it names any, decide the document's vocabulary. */
function applyLocales(doc: DocLayout, opts: ExtractionOptions): void {
  if (opts.locales?.length)
    setDocLocales(
      doc,
      opts.locales.filter((id) => LOCALE_PACKS.has(id)),
    );
}

function wordCount(doc: DocLayout): number {
  return doc.pages.reduce((n, p) => n + p.lines.reduce((m, l) => m + l.words.length, 0), 0);
}
