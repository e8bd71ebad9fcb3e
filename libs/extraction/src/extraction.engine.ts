import { ExtractionError, type ExtractionInput, type ExtractionOptions } from './engine.types.js';
import type { DocketExtractionEngine, EngineOptions } from './engine.options.js';
import { inferContext } from './document.context.js';
import { applyLocales, pageReading } from './document.extraction.js';
import { underDeadline } from './readers/input.limits.js';
import { createJobReader } from './readers/job.reader.js';
import { extractRead } from './second.readings.js';
import { countDocumentPages } from './page.count.js';
import { sniffType, type DocKind } from './type.sniffer.js';
import { einvoiceOfAttachments, parseEInvoice } from './einvoice/einvoice.parser.js';
import { extractEInvoice } from './einvoice/einvoice.extractor.js';
import { learnFromLayout } from './memory/exemplar.builder.js';
import { tablePages } from './locate/table.extractor.js';

// The engine wires the stages (docs/adr and ../shared/design/EXTRACTION.md): read (readers/) → layout (layout/) →
// candidates (candidates/, locate/) → scores (scores/) → assignment (assignment/) → validation (validation/) → render.
export type { DocketExtractionEngine, EngineOptions } from './engine.options.js';
export { DEFAULT_MAX_INPUT_BYTES, ocrEngineMode, resolveOcrLanguages } from './readers/job.reader.js';
export { betterReading, extractFromLayout, type CountedExtraction } from './document.extraction.js';

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
          // Ruled lines separate a table's rows and columns: read only on the pages a table of the schema is printed on.
          const ruled = pdf ? tablePages(doc, schema?.fields ?? []) : [];
          if (pdf && ruled.length) await underDeadline(pdf.withRules(ruled, opts.signal), opts.signal);
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
