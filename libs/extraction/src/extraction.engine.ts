import { MAX_ARTIFACT_BYTES } from '@docket/contracts';
import {
  ExtractionError,
  type ExtractionEngine,
  type ExtractionInput,
  type ExtractionOptions,
  type ExtractionOutput,
  type ExtractionSchema,
  type FieldDef,
  type FieldMeta,
} from './engine.types.js';
import { inferContext, setDocLocales } from './document.context.js';
import { LOCALE_PACKS } from './locales/locale.registry.js';
import { isRequired, validateField } from './field.validator.js';
import type { DocLayout, Line, Word } from './layout/layout.types.js';
import { findNumbers, type DocContext } from './parsers/value.parser.js';
import { reconcileAmounts, sumTaxRates, taxBetween } from './locate/amount.reconciler.js';
import { numberBesideDate } from './locate/number.beside.date.js';
import { box, locateByLabel, type Candidate, type Located } from './locate/field.locator.js';
import { conceptTokens, labelSpec, matchSpan, wordConcepts } from './locate/label.matcher.js';
import { isLabelPiece, schemaLabels } from './locate/form.label.js';
import { locateFormFields } from './locate/form.locator.js';
import { addresseeBlock, footerIssuer, locateBySemantics, paidTotal, payeeIssuer, withRounding } from './locate/semantic.fallback.js';
import { acceptableString, enforceConstraints } from './locate/constraints.js';
import { extractTable } from './locate/table.extractor.js';
import { isLowResPage, readImage } from './readers/image.reader.js';
import { assertImagePixels, underDeadline } from './readers/input.limits.js';
import {
  createOcrService,
  DEFAULT_OCR_LANGUAGES,
  OCR_LANGUAGES,
  parseOcrLanguages,
  type OcrEngineMode,
  type OcrLanguage,
  type OcrService,
} from './readers/ocr.service.js';
import { hasWidePicture, openPdfText, type PdfText } from './readers/pdf.reader.js';
import { DEFAULT_INFLATION_LIMITS, type InflationLimits } from './readers/pdf.inflation.js';
import { readCsv, readHtml, readText } from './readers/text.reader.js';
import { isTiff, readTiff } from './readers/tiff.reader.js';
import { fillDefaultCurrency } from './render/currency.fill.js';
import { calibrateFields } from './scores/confidence.calibrator.js';
import { countDocumentPages, firstPages } from './page.count.js';
import { renderMarkdown } from './render/markdown.renderer.js';
import { sniffType, type DocKind } from './type.sniffer.js';
import { einvoiceOfAttachments, parseEInvoice } from './einvoice/einvoice.parser.js';
import { extractEInvoice } from './einvoice/einvoice.extractor.js';
import { applyMemory } from './memory/memory.apply.js';
import { learnFromLayout } from './memory/exemplar.builder.js';
import type { LayoutExemplarData } from './memory/memory.types.js';

/** Largest input the engine reads by default (the shared 50 MiB limit, also checked at submit); the worker checks it with a HEAD before downloading. */
export const DEFAULT_MAX_INPUT_BYTES = MAX_ARTIFACT_BYTES;

export interface EngineOptions {
  /** Largest accepted input in bytes (default `MAX_ARTIFACT_BYTES`, 50 MiB, also checked at submit); larger inputs fail with `file_too_large`. */
  maxBytes?: number;
  /** Pages read per document (default 200); the rest are ignored and not billed. */
  maxPages?: number;
  /**
   * Default OCR backend of jobs whose `ocrEngine` is `default` or unset: 'auto' and 'native' use the native
   * `tesseract` binary when it is on PATH and has every OCR language, else tesseract.js; 'tesseract.js' always
   * uses tesseract.js.
   */
  ocr?: OcrEngineMode;
  /** ONNX threads of the PaddleOCR engine (default 1). */
  ocrThreads?: number;
  /**
   * OCR readings at once, each in a worker thread that is terminated when its job's deadline passes (default 1; the
   * worker passes WORKER_CONCURRENCY). `ocrIsolate: false` reads in this thread instead (not stoppable); the default
   * isolates when running the built library (see createOcrService).
   */
  ocrPoolSize?: number;
  ocrIsolate?: boolean;
  /**
   * Bounds on the bytes a PDF's Flate streams inflate to: one stream (default 256 MiB) and the document, one stream's
   * bound plus this much per page read (default 32 MiB). Beyond them the job fails with `decompression_limit`.
   */
  pdfInflation?: Partial<InflationLimits>;
  /**
   * Default OCR languages, e.g. `eng+deu` or `['eng', 'deu']` (supported: eng, deu, fra, nld). Default: the
   * `OCR_LANGUAGES` environment variable, else English only. An unsupported value throws at creation.
   */
  ocrLanguages?: string | readonly string[];
  /** An OCR service to use instead of the built-in one (tests, embedding); the engine does not close it. */
  ocrService?: OcrService;
  /**
   * Read a PDF's embedded e-invoice XML (Factur-X / ZUGFeRD / XRechnung attachments) as its data (default true). The
   * evaluation (`npm run eval`) turns it off so that its scores measure the reading of the pages.
   */
  embeddedInvoices?: boolean;
}

/** Template `ocr_engine` values (and the engine's own names) → backend; `default`, unset or unknown → the engine's. */
export function ocrEngineMode(value: string | undefined): OcrEngineMode | undefined {
  switch (value) {
    case 'tesseract':
    case 'native':
      return 'native';
    case 'tesseract.js':
      return 'tesseract.js';
    case 'paddle':
      return 'paddle';
    case 'auto':
      return 'auto';
    default:
      return undefined;
  }
}

/** The engine's default OCR languages: the option, else `OCR_LANGUAGES`, else English; a bad value throws. */
export function resolveOcrLanguages(value: string | readonly string[] | undefined = process.env.OCR_LANGUAGES): readonly OcrLanguage[] {
  if (value === undefined || (typeof value === 'string' && !value.trim())) return DEFAULT_OCR_LANGUAGES;
  const langs = parseOcrLanguages(value);
  if (!langs) throw new Error(`OCR languages must be a '+'-separated list of ${OCR_LANGUAGES.join(', ')} (got '${String(value)}')`);
  return langs;
}

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
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_INPUT_BYTES;
  const maxPages = options.maxPages ?? 200;
  const inflation: InflationLimits = { ...DEFAULT_INFLATION_LIMITS, ...options.pdfInflation };
  const languages = resolveOcrLanguages(options.ocrLanguages);
  let ocr: OcrService | undefined;
  const getOcr = () =>
    options.ocrService ??
    (ocr ??= createOcrService({
      engine: options.ocr ?? 'auto',
      languages,
      threads: options.ocrThreads,
      poolSize: options.ocrPoolSize,
      isolate: options.ocrIsolate,
    }));

  /** The shared OCR service seen through one job's settings (template `ocr_engine`, job languages). */
  function jobOcr(opts: ExtractionOptions): OcrService {
    const engine = ocrEngineMode(opts.ocrEngine);
    let langs: OcrLanguage[] | undefined;
    const given = opts.ocrLanguages;
    if (given !== undefined && given !== null && (typeof given === 'string' ? given.trim() : given.length)) {
      langs = parseOcrLanguages(opts.ocrLanguages);
      if (!langs)
        throw new ExtractionError(
          'extraction_failed',
          `unsupported OCR languages '${String(opts.ocrLanguages)}' (supported: ${OCR_LANGUAGES.join(', ')})`,
        );
    }
    return {
      recognize: (image, o) => getOcr().recognize(image, { ...o, engine, languages: langs, signal: opts.signal }),
      backend: (o) => getOcr().backend?.({ ...o, engine, languages: langs }) ?? 'tesseract.js',
      close: async () => undefined,
    };
  }

  /** Pages one job reads: its own cap (the pages its wallet covers), within the engine's. */
  const jobMaxPages = (opts: ExtractionOptions) => Math.max(1, Math.min(maxPages, opts.maxPages ?? maxPages));

  async function read(kind: DocKind, bytes: Uint8Array, opts: ExtractionOptions): Promise<DocLayout> {
    const signal = opts.signal;
    switch (kind) {
      case 'image':
        if (isTiff(bytes)) return readTiff(bytes, jobOcr(opts), { maxPages: jobMaxPages(opts), signal });
        assertImagePixels(bytes); // before anything decodes it (TIFF pages are checked by their reader)
        return readImage(bytes, jobOcr(opts));
      case 'csv':
        return readCsv(bytes);
      case 'html':
        return readHtml(bytes);
      default:
        return firstPages(readText(bytes), jobMaxPages(opts));
    }
  }

  return {
    async extract(input: ExtractionInput, schema: ExtractionSchema, opts: ExtractionOptions = {}): Promise<ExtractionOutput> {
      try {
        checkInput(input);
        if (opts.signal?.aborted) throw new ExtractionError('extraction_timeout', 'extraction was aborted');
        const kind = sniffType(input.mimeType, input.bytes, input.filename);
        // An XRechnung / UBL / CII upload is its own data: nothing to read from pages.
        if (kind === 'xml') return extractEInvoice(parseEInvoice(input.bytes), schema, opts);
        // A PDF stays open until its pictures are known to be needed or not (a second look reuses its parsed fonts).
        const pdf =
          kind === 'pdf'
            ? await underDeadline(
                openPdfText(input.bytes, { ocr: jobOcr(opts), maxPages: jobMaxPages(opts), signal: opts.signal, inflation }),
                opts.signal,
              )
            : undefined;
        try {
          // A hybrid PDF (Factur-X / ZUGFeRD): the fields come from its XML, placed on and checked against its pages.
          const einvoice = pdf && options.embeddedInvoices !== false ? einvoiceOfAttachments(await pdf.attachments()) : undefined;
          if (einvoice)
            return extractEInvoice(einvoice, schema, opts, { doc: pdf!.layout, output: pageReading(pdf!.layout, schema, opts) });
          return await extractRead(
            kind,
            input,
            pdf?.layout ?? (await underDeadline(read(kind, input.bytes, opts), opts.signal)),
            schema,
            opts,
            pdf,
          );
        } finally {
          await pdf?.close();
        }
      } catch (e) {
        if (e instanceof ExtractionError) throw e;
        throw new ExtractionError('extraction_failed', (e as Error)?.message ?? String(e));
      }
    },
    async countPages(input: ExtractionInput): Promise<number> {
      try {
        checkInput(input);
        return Math.min(
          maxPages,
          await countDocumentPages(sniffType(input.mimeType, input.bytes, input.filename), input.bytes, inflation, maxPages),
        );
      } catch (e) {
        if (e instanceof ExtractionError) throw e;
        throw new ExtractionError('extraction_failed', (e as Error)?.message ?? String(e));
      }
    },
    async learnLayout(input, schema, values, opts: ExtractionOptions = {}): Promise<LayoutExemplarData> {
      try {
        checkInput(input);
        const kind = sniffType(input.mimeType, input.bytes, input.filename);
        // An e-invoice's fields come from its data: there is no layout to learn.
        if (kind === 'xml') return learnFromLayout({ pages: [] }, [], {}, inferContext({ pages: [] }));
        const pdf =
          kind === 'pdf'
            ? await underDeadline(
                openPdfText(input.bytes, { ocr: jobOcr(opts), maxPages: jobMaxPages(opts), signal: opts.signal, inflation }),
                opts.signal,
              )
            : undefined;
        try {
          const doc = pdf?.layout ?? (await underDeadline(read(kind, input.bytes, opts), opts.signal));
          if (opts.locales?.length)
            setDocLocales(
              doc,
              opts.locales.filter((id) => LOCALE_PACKS.has(id)),
            );
          return learnFromLayout(doc, schema?.fields ?? [], values ?? {}, inferContext(doc));
        } finally {
          await pdf?.close();
        }
      } catch (e) {
        if (e instanceof ExtractionError) throw e;
        throw new ExtractionError('extraction_failed', (e as Error)?.message ?? String(e));
      }
    },
    async close() {
      const o = ocr;
      ocr = undefined;
      await o?.close();
    },
  };

  /** Input every job must have: bytes, not empty, within the size limit. */
  function checkInput(input: ExtractionInput): void {
    if (!input || !(input.bytes instanceof Uint8Array)) throw new ExtractionError('extraction_failed', 'input bytes missing');
    if (input.bytes.byteLength === 0) throw new ExtractionError('empty_file', 'the file is empty');
    if (input.bytes.byteLength > maxBytes) throw new ExtractionError('file_too_large', `the file is larger than ${maxBytes} bytes`);
  }

  /** Field location on a read document, with the second readings that scans and PDFs with pictures may need. */
  async function extractRead(
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
      const sparse = extractCounted(
        await underDeadline(readImage(input.bytes, jobOcr(opts), 1, { sparse: true }), opts.signal),
        schema,
        opts,
      );
      return betterReading(first, sparse).output;
    }
    // Pictures inside a text-layer PDF (a company block pasted as an image) are read only when the text layer
    // left scalar fields unanswered: OCR costs ~1 s a picture, and most documents never need it.
    if (pdf && unanswered && hasWidePicture(input.bytes)) {
      const richer = await underDeadline(pdf.withPictureText({ ocr: jobOcr(opts), signal: opts.signal }), opts.signal);
      if (wordCount(richer) > wordCount(doc)) return extractFromLayout(richer, schema, opts);
    }
    if (failure !== undefined) throw failure;
    return first!.output;
  }
}

/** The page-only reading of a hybrid PDF, to compare its XML with; undefined when it found nothing it could return. */
function pageReading(doc: DocLayout, schema: ExtractionSchema, opts: ExtractionOptions): ExtractionOutput | undefined {
  try {
    return extractFromLayout(doc, schema, opts);
  } catch {
    return undefined;
  }
}

/** Printed-label similarity from which a form label's value overrides the concept-based candidates. */
const FORM_LABEL_MIN = 0.85;

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

function extractCounted(doc: DocLayout, schema: ExtractionSchema, opts: ExtractionOptions = {}): CountedExtraction {
  const threshold = opts.confidenceThreshold ?? 0.7;
  if (opts.locales?.length)
    setDocLocales(
      doc,
      opts.locales.filter((id) => LOCALE_PACKS.has(id)),
    );
  const ctx = inferContext(doc);
  const fields = schema?.fields ?? [];
  const result: Record<string, unknown> = {};
  const meta: Record<string, FieldMeta> = {};

  // Scalar fields: gather label-anchored candidates, then assign greedily so that one printed value
  // is claimed by the field whose label matches it best ("Date:" → invoice date, not due date).
  // A short string "value" that is itself another field's label ("TESTED:  REPORTED:") is a neighbour label.
  const specs = fields.map((f) => ({ key: f.key, spec: labelSpec(f.label, f.key) }));
  // So is a string that reads like another field's whole printed label, OCR errors aside.
  const labels = schemaLabels(fields);
  const isOtherLabel = (f: FieldDef, v: unknown) =>
    typeof v === 'string' &&
    ((v.split(/\s+/).length <= 4 &&
      specs.some((o) => o.key !== f.key && (matchSpan(wordConcepts(v.split(/\s+/)), o.spec)?.score ?? 0) >= 0.9)) ||
      (f.data_type === 'string' && isLabelPiece(v, labels, f.label, false)));
  const cands = fields
    .filter((f) => f.data_type !== 'table')
    .flatMap((f) =>
      locateByLabel(doc, f, ctx)
        .filter((c) => !isOtherLabel(f, c.value))
        .slice(0, 8)
        .map((c) => ({ f, c })),
    );
  // Equal amounts labels: the later one is the document's summary (section subtotals come before it).
  const later = (a: { f: FieldDef; c: Located }, b: { f: FieldDef; c: Located }) =>
    a.f.data_type === 'number' || a.f.data_type === 'currency' ? b.c.page - a.c.page || b.c.bbox[1] - a.c.bbox[1] : 0;
  cands.sort(
    (a, b) =>
      b.c.labelScore - a.c.labelScore || (Math.abs(b.c.confidence - a.c.confidence) > 1e-6 ? b.c.confidence - a.c.confidence : later(a, b)),
  );
  const used = new Set<string>();
  const chosen = new Map<string, Located>();
  for (const { f, c } of cands) {
    if (chosen.has(f.key)) continue;
    const slot = `${c.page}:${Math.round(c.bbox[0])}:${Math.round(c.bbox[1])}`;
    // An exact label match may share its value with another field asking for the same thing.
    if (used.has(slot) && c.labelScore < 0.95) continue;
    // Among equally good labels, prefer the best value (first in confidence order) of the same label score.
    used.add(slot);
    chosen.set(f.key, c);
  }
  // Labels printed verbatim on the page (forms: the label is the question as printed) anchor their value
  // directly, with the schema's other labels as the value's boundaries.
  let printedLabels = 0;
  // (Not when an identifier's "answer" is other fields' labels without a figure: "Number" over a stacked
  // "Date" / "Due" column of labels.)
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const labelsForId = (f: FieldDef, v: unknown) =>
    typeof v === 'string' &&
    !/\d/.test(v) &&
    conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`).some((x) => x === 'number' || x === 'id') &&
    isOtherLabel(f, v);
  for (const [key, c] of locateFormFields(doc, fields, ctx))
    if (c.labelScore >= FORM_LABEL_MIN && !labelsForId(byKey.get(key)!, c.value)) {
      chosen.set(key, c);
      printedLabels++;
    }
  billedNotDelivered(doc, fields, chosen);
  const takenHeaders = new Set<string>();
  for (const f of fields) {
    if (f.data_type === 'table') {
      const t = extractTable(doc, f, ctx, takenHeaders);
      if (t) {
        result[f.key] = t.rows;
        meta[f.key] = { confidence: round(t.confidence), page: t.page, bbox: t.bbox, errors: [] };
      }
      continue;
    }
    let fallback = chosen.has(f.key) ? undefined : locateBySemantics(doc, f, ctx, used);
    // (A fallback string obeys the value shapes too: no printed label, no legal form alone as a name.)
    if (
      fallback &&
      typeof fallback.value === 'string' &&
      (!acceptableString(f, fallback.value) || isLabelPiece(fallback.value, labels, f.label, false))
    )
      fallback = undefined;
    const c = paidTotal(doc, f, withRounding(doc, f, chosen.get(f.key) ?? fallback));
    if (c) {
      result[f.key] = c.value;
      meta[f.key] = { confidence: round(c.confidence), page: c.page, bbox: c.bbox.map(round) as FieldMeta['bbox'], errors: [] };
    }
  }

  // Cross-field constraints (net + tax = total, Σ line items = net, due ≥ issue date, seller ≠ buyer), each field's
  // label candidates in assignment order as the alternatives.
  const alternatives = new Map<string, Located[]>();
  for (const { f, c } of cands) alternatives.set(f.key, [...(alternatives.get(f.key) ?? []), c]);
  // (One tax line per rate summed first: net + the rates' sum = total is then the consistency the constraints keep.)
  sumTaxRates(doc, fields, result, meta, ctx);
  enforceConstraints(fields, alternatives, result, meta, used, {
    party: (f, not) => repickParty(doc, f, not),
    amount: (f, value) => printedAmount(doc, ctx, f, value),
  });

  taxBetween(doc, fields, result, meta, ctx);
  numberBesideDate(doc, fields, result, meta, ctx);
  reconcileAmounts(fields, result, meta);
  fillDefaultCurrency(fields, result, opts.defaultCurrency);
  if (!opts.rawConfidence) calibrateFields(fields, meta, isScanned(doc));
  // A remembered layout of the account (ADR 0014) outranks the engine's reading where its anchors are found.
  const memory = applyMemory(doc, fields, result, meta, opts.memory, ctx);
  if (memory) fillDefaultCurrency(fields, result, opts.defaultCurrency);

  // Validation after extraction; failures stay visible in the meta and force review.
  let invalid = false;
  const missingRequired: FieldDef[] = [];
  for (const f of fields) {
    const errors = validateField(f, result[f.key], opts.patternOwner);
    if (errors.length) {
      invalid = true;
      meta[f.key] = { ...(meta[f.key] ?? { confidence: 0 }), errors };
    }
    if (isRequired(f) && result[f.key] === undefined) missingRequired.push(f);
  }
  const found = Object.keys(result).length;
  if (missingRequired.length && found === 0) {
    throw new ExtractionError('required_field_missing', `required field(s) not found: ${missingRequired.map((f) => f.key).join(', ')}`);
  }
  // Document confidence: mean over schema fields that were found, scaled by the share of required fields found.
  const confs = Object.values(result).length ? Object.keys(result).map((k) => meta[k]!.confidence) : [];
  const required = fields.filter(isRequired);
  const reqShare = required.length ? (required.length - missingRequired.length) / required.length : 1;
  const confidence = round(confs.length ? (confs.reduce((a, b) => a + b, 0) / confs.length) * reqShare : 0);
  const needsReview = invalid || missingRequired.length > 0 || confidence < threshold;
  return {
    output: {
      result,
      fields: meta,
      confidence,
      needsReview,
      pages: doc.pages.length,
      markdown: renderMarkdown(doc),
      ...(memory ? { memory } : {}),
    },
    printedLabels,
  };
}

/** Confidence of a party name re-picked from the page after the first pick named the other party. */
const REPICK_PARTY_CONFIDENCE = 0.35;

/** Another reading of a party for `f` whose name is not `not` (normalised): the issuer found elsewhere, or the addressee. */
function repickParty(doc: DocLayout, f: FieldDef, not: string): Located | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  const seller = conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`).includes('seller');
  const picks = seller ? [payeeIssuer(doc), footerIssuer(doc)] : [addresseeBlock(doc)];
  for (const p of picks) {
    if (!p || norm(p.name) === not || !acceptableString(f, p.name)) continue;
    return locatedAt(p.line.words, p.line.page, p.name, REPICK_PARTY_CONFIDENCE);
  }
  return undefined;
}

/** Confidence of a buyer read from the unlabelled address window in place of a delivery address. */
const BILLED_CONFIDENCE = 0.4;

/**
 * A buyer read under a delivery heading ("Ship to", "Lieferadresse") when the address window holds another party's
 * unlabelled block: the party billed is the window's (the delivery address is where the goods go).
 */
function billedNotDelivered(doc: DocLayout, fields: FieldDef[], chosen: Map<string, Located>): void {
  for (const f of fields) {
    const c: Candidate | undefined = chosen.get(f.key) as Candidate | undefined;
    if (!c?.delivery || typeof c.value !== 'string') continue;
    const billed = addresseeBlock(doc);
    if (!billed || billed.name === c.value || !acceptableString(f, billed.name)) continue;
    chosen.set(f.key, locatedAt(billed.words, billed.line.page, billed.name, BILLED_CONFIDENCE));
  }
}

/** Confidence of a total found as the printed sum of the chosen net and tax amounts. */
const PRINTED_SUM_CONFIDENCE = 0.6;
/** Two amounts within this of each other are the same printed amount (a cent's rounding). */
const SAME_AMOUNT = 0.005;

/** The last printing of an amount on the document (totals come after the lines they sum), typed for field `f`. */
function printedAmount(doc: DocLayout, ctx: DocContext, f: FieldDef, value: number): Located | undefined {
  let last: Line | undefined;
  for (const p of doc.pages)
    for (const l of p.lines)
      if (findNumbers(l.text, ctx).some((n) => n.quality === 1 && Math.abs((n.value as number) - value) < SAME_AMOUNT)) last = l;
  if (!last) return undefined;
  return locatedAt(
    last.words,
    last.page,
    f.data_type === 'currency' ? { value, currency: ctx.currency ?? null } : value,
    PRINTED_SUM_CONFIDENCE,
  );
}

/** A value found on the page outside the label candidates, boxed by the words it was read from. */
function locatedAt(ws: readonly Word[], page: number, value: unknown, confidence: number): Located {
  return { value, confidence, page, bbox: box(ws), slot: '' };
}

/** A document read by OCR: some of its words carry a confidence below 1 (text layers give 1). */
function isScanned(doc: DocLayout): boolean {
  return doc.pages.some((p) => p.lines.some((l) => l.words.some((w) => w.conf < 1)));
}

function wordCount(doc: DocLayout): number {
  return doc.pages.reduce((n, p) => n + p.lines.reduce((m, l) => m + l.words.length, 0), 0);
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
