/**
 * The extraction engine's public contract. The worker depends on this interface only, so the engine
 * behind it can be replaced without touching any service.
 */
import type { LayoutExemplar, LayoutExemplarData, MemoryNote } from './memory/memory.types.js';

export type { FieldAnchor, LayoutExemplar, LayoutExemplarData, LayoutFingerprint, MemoryNote, PageBox } from './memory/memory.types.js';

export type DataType = 'string' | 'number' | 'date' | 'currency' | 'table' | 'boolean';

export interface FieldValidation {
  regex?: string;
  min_value?: number;
  max_value?: number;
  required?: boolean;
}

export interface FieldDef {
  key: string;
  label?: string;
  data_type: DataType;
  required?: boolean;
  description?: string;
  validation?: FieldValidation;
  /** Column definitions of a `table` field. */
  fields?: FieldDef[];
}

export interface ExtractionSchema {
  fields: FieldDef[];
}

export interface ExtractionInput {
  bytes: Uint8Array;
  /** MIME type the client declared (artifact_type). */
  mimeType: string;
  filename: string;
}

export interface ExtractionOptions {
  /** Template setting; default 0.7. */
  confidenceThreshold?: number;
  /**
   * Template setting `ocr_engine`: `default` (the engine's own choice: the native `tesseract` binary when on PATH,
   * else tesseract.js), `tesseract` (the native binary; tesseract.js when the binary or one of the OCR languages
   * is missing) or `tesseract.js`. Other values are treated as `default`.
   */
  ocrEngine?: string;
  /** OCR languages of this job, e.g. `eng+deu` (supported: eng, deu, fra, nld); default: the engine's. */
  ocrLanguages?: string | readonly string[];
  /**
   * Locale packs to apply besides the language packs (e.g. `['ms-MY']`), as a template may set them; unset, the
   * country packs are detected from the document. Unknown ids are ignored.
   */
  locales?: readonly string[];
  /**
   * Template setting `default_currency` (ISO 4217): the currency of an amount whose currency is printed nowhere on the
   * document. Unset, such an amount is returned as `{ value, currency: null }`; the engine never guesses a code.
   */
  defaultCurrency?: string;
  /**
   * Report the locator's own field confidences instead of the calibrated probabilities (`npm run train` fits the
   * calibrator on them). Off in production.
   */
  rawConfidence?: boolean;
  /**
   * Training hook (`npm run train`, never set in production): called once per field location with each scalar field's
   * label candidates, their feature vectors, and the values the assignment returned.
   */
  candidateTrace?: (trace: CandidateTrace) => void;
  /**
   * Pages read, from the first (a job whose wallet covers only these, ADR 0005); never more than the engine's own
   * limit. `pages` of the output counts the pages read.
   */
  maxPages?: number;
  /** The account whose share of the process's compiled-pattern cache `validation.regex` patterns are charged to. */
  patternOwner?: string;
  /**
   * The account's layout exemplars (ADR 0014): when the document matches one, the values at its anchors are preferred
   * and the output's `memory` names it. Unset or empty: no layout memory.
   */
  memory?: readonly LayoutExemplar[];
  signal?: AbortSignal;
}

/** What {@link ExtractionOptions.candidateTrace} receives: per scalar field, its candidates in choice order. */
export interface CandidateTrace {
  fields: { key: string; candidates: { value: unknown; features: number[] }[] }[];
  result: Record<string, unknown>;
}

/** Provenance and quality of one extracted field, kept beside the result (never inside it). */
export interface FieldMeta {
  confidence: number;
  page?: number;
  /** [x0, y0, x1, y1] in page units (PDF points or image pixels), origin top-left. */
  bbox?: [number, number, number, number];
  /** Validation messages; empty when valid. */
  errors: string[];
  /**
   * Where the value came from: `embedded_xml` when an e-invoice's own data gave it (a Factur-X / ZUGFeRD PDF's
   * attached XML, or an XRechnung / UBL / CII upload; `page` and `bbox` then show where the page prints it), `page`
   * for a field of such a document that the data does not carry, `memory` for a value read where a remembered layout
   * (ADR 0014) prints it. Absent: read from the page.
   */
  provenance?: 'page' | 'embedded_xml' | 'memory';
}

export interface ExtractionOutput {
  /** Exactly `{ <field key>: value }` (spec §2.3); fields not found are absent. */
  result: Record<string, unknown>;
  fields: Record<string, FieldMeta>;
  confidence: number;
  needsReview: boolean;
  /** Pages processed, for billing. */
  pages: number;
  /** Markdown rendering of the document, for the `md` download. */
  markdown: string;
  /** The kind the document declares itself to be (an e-invoice's data says `invoice`); the `auto` template then needs no guess. */
  documentKind?: 'invoice';
  /** The layout exemplar whose anchors gave some fields (ADR 0014); absent when none matched. */
  memory?: MemoryNote;
}

export interface ExtractionEngine {
  extract(input: ExtractionInput, schema: ExtractionSchema, options?: ExtractionOptions): Promise<ExtractionOutput>;
  /**
   * The pages `extract` would read (the document's pages, up to the engine's limit) without reading any: the job's
   * hold is re-sized to them first (ADR 0005). Throws the same coded errors as `extract` for unreadable input.
   */
  countPages(input: ExtractionInput): Promise<number>;
  /**
   * What a document whose values a person confirmed teaches about its layout (ADR 0014): its fingerprint and where each
   * field's value stands. `values` are the confirmed result (`{ <field key>: value }`). Throws like `extract`.
   */
  learnLayout?(
    input: ExtractionInput,
    schema: ExtractionSchema,
    values: Record<string, unknown>,
    options?: ExtractionOptions,
  ): Promise<LayoutExemplarData>;
}

export type ExtractionErrorCode =
  | 'unsupported_type'
  | 'corrupt_file'
  | 'encrypted_file'
  | 'empty_file'
  | 'file_too_large'
  | 'image_too_large'
  | 'page_too_large'
  | 'decompression_limit'
  | 'required_field_missing'
  | 'extraction_timeout'
  | 'extraction_failed';

/** A coded job failure. The job's `error` becomes `<code>: <message>`. The engine throws nothing else. */
export class ExtractionError extends Error {
  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}
