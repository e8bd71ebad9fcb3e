import { inferContext } from '../document.context.js';
import {
  ExtractionError,
  type ExtractionOptions,
  type ExtractionOutput,
  type ExtractionSchema,
  type FieldDef,
  type FieldMeta,
} from '../engine.types.js';
import { isRequired, validateField } from '../field.validator.js';
import type { DocLayout } from '../layout/layout.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import {
  AMOUNT_CONCEPTS,
  DATE_CONCEPTS,
  type ConceptValue,
  type EInvoice,
  type InvoiceConcept,
  type LineConcept,
} from './einvoice.types.js';
import { renderEInvoiceMarkdown } from './einvoice.markdown.js';
import { findOnPage, squash, unionOnFirstPage, type MatchKind, type PagePlace } from './page.match.js';
import { headerConceptOf, lineColumnsOf } from './schema.concepts.js';

/** Confidence of a value taken from the invoice's own data. */
const DATA_CONFIDENCE = 0.99;
/** …and of one the printed page contradicts (the data still answers; the field needs a look). */
const DISPUTED_CONFIDENCE = 0.5;

/** The printed pages of a hybrid PDF: their layout and the page-only reading of the same schema (to compare with). */
export interface PrintedPages {
  doc: DocLayout;
  /** The page-only extraction; undefined when it found nothing (e.g. a required field missing from the pages). */
  output?: ExtractionOutput;
}

/** One field's answer. */
interface Answer {
  value: unknown;
  meta: FieldMeta;
  disputed?: boolean;
}

/** A concept's value shaped for the field's data type (a currency field gets the invoice's currency). */
function typed(f: FieldDef, concept: InvoiceConcept | LineConcept, v: ConceptValue, currency: string | undefined): unknown {
  if (f.data_type === 'currency') return typeof v === 'number' ? { value: v, currency: currency ?? null } : undefined;
  if (f.data_type === 'number') return typeof v === 'number' ? v : undefined;
  if (f.data_type === 'date') return DATE_CONCEPTS.has(concept as InvoiceConcept) ? v : undefined;
  return typeof v === 'number' && AMOUNT_CONCEPTS.has(concept) ? undefined : String(v);
}

function matchKind(f: FieldDef): MatchKind {
  return f.data_type === 'date' ? 'date' : f.data_type === 'number' || f.data_type === 'currency' ? 'amount' : 'text';
}

const amountOf = (v: unknown) => (typeof v === 'object' && v && 'value' in v ? Number((v as { value: unknown }).value) : Number(v));

/** The page's reading agrees with the data: same amount (sign aside), same date, or one text containing the other. */
export function agrees(f: FieldDef, page: unknown, data: unknown): boolean {
  const kind = matchKind(f);
  if (kind === 'amount') return Math.abs(Math.abs(amountOf(page)) - Math.abs(amountOf(data))) < 0.005;
  if (kind === 'date') return page === data;
  const [a, b] = [squash(String(page)), squash(String(data))];
  return a === b || (a.length >= 3 && b.includes(a)) || (b.length >= 3 && a.includes(b));
}

/** The page's reading equals one of the XML's other header values of the field's kind. */
function otherDatum(f: FieldDef, printed: unknown, inv: EInvoice): boolean {
  const amount = matchKind(f) === 'amount';
  return Object.values(inv.header).some((v) => (typeof v === 'number') === amount && agrees(f, printed, v));
}

const shown = (v: unknown) => (typeof v === 'object' && v && 'value' in v ? String((v as { value: unknown }).value) : String(v));

/** A scalar field answered from the data, placed on the page and checked against the page's own reading. */
function scalarAnswer(
  f: FieldDef,
  inv: EInvoice,
  pages: PrintedPages | undefined,
  ctx: DocContext | undefined,
  currency?: string,
): Answer | undefined {
  const concept = headerConceptOf(f);
  const raw = concept ? inv.header[concept] : undefined;
  const value = concept && raw !== undefined ? typed(f, concept, raw, currency) : undefined;
  if (value === undefined) return pageAnswer(f, pages);
  const place =
    pages && ctx
      ? findOnPage(pages.doc, ctx, matchKind(f), f.data_type === 'currency' ? amountOf(value) : (raw as ConceptValue))
      : undefined;
  const printed = pages?.output?.result[f.key];
  // (A page reading that is another of the XML's values is the page reader confusing fields, not a printed discrepancy.)
  const disputed = !place && printed !== undefined && !agrees(f, printed, value) && !otherDatum(f, printed, inv);
  const errors = disputed ? [`the printed page reads ${shown(printed)} where the invoice's embedded XML says ${shown(value)}`] : [];
  return {
    value,
    disputed,
    meta: { confidence: disputed ? DISPUTED_CONFIDENCE : DATA_CONFIDENCE, ...placed(place), errors, provenance: 'embedded_xml' },
  };
}

function placed(place: PagePlace | undefined): Pick<FieldMeta, 'page' | 'bbox'> {
  return place ? { page: place.page, bbox: place.bbox } : {};
}

/** A field the data does not carry: the page's own answer, if any. */
function pageAnswer(f: FieldDef, pages: PrintedPages | undefined): Answer | undefined {
  const out = pages?.output;
  if (!out || out.result[f.key] === undefined) return undefined;
  return { value: out.result[f.key], meta: { ...out.fields[f.key]!, errors: [], provenance: 'page' } };
}

/** A line-items table from the data's lines: one row per line, the columns the schema names; placed by its descriptions. */
function tableAnswer(
  f: FieldDef,
  inv: EInvoice,
  pages: PrintedPages | undefined,
  ctx: DocContext | undefined,
  currency?: string,
): Answer | undefined {
  const columns = lineColumnsOf(f);
  if (!columns || !inv.lines.length) return pageAnswer(f, pages);
  const defs = new Map((f.fields ?? []).map((c) => [c.key, c]));
  const rows = inv.lines
    .map((line) => {
      const row: Record<string, unknown> = {};
      for (const [key, concept] of columns) {
        const v = line[concept];
        const t = v === undefined ? undefined : typed(defs.get(key)!, concept, v, currency);
        if (t !== undefined) row[key] = t;
      }
      return row;
    })
    .filter((r) => Object.keys(r).length > 0);
  if (!rows.length) return pageAnswer(f, pages);
  const place =
    pages && ctx
      ? unionOnFirstPage(inv.lines.map((l) => (l.description ? findOnPage(pages.doc, ctx, 'text', l.description) : undefined)))
      : undefined;
  return { value: rows, meta: { confidence: DATA_CONFIDENCE, ...placed(place), errors: [], provenance: 'embedded_xml' } };
}

/**
 * The extraction of an e-invoice from its own data: every schema field that names an invoice concept (CII / UBL mapped
 * to EN 16931's terms) is answered from the XML with provenance `embedded_xml`; on a hybrid PDF (`pages`) the value's
 * printed place is its page and box, fields the XML does not carry come from the page, and a value the page prints
 * differently (the page's reading disagrees and the XML's value is printed nowhere) names the field in its `errors`
 * and sets `needsReview`.
 */
export function extractEInvoice(
  inv: EInvoice,
  schema: ExtractionSchema,
  opts: ExtractionOptions = {},
  pages?: PrintedPages,
): ExtractionOutput {
  const ctx = pages ? inferContext(pages.doc) : undefined;
  const fields = schema?.fields ?? [];
  const result: Record<string, unknown> = {};
  const meta: Record<string, FieldMeta> = {};
  // (The invoice's currency, else the template's `default_currency`: an XML without BT-5 is not valid EN 16931, but may arrive.)
  const currency = (inv.header.currency as string | undefined) ?? opts.defaultCurrency;
  let review = false;
  for (const f of fields) {
    const a = f.data_type === 'table' ? tableAnswer(f, inv, pages, ctx, currency) : scalarAnswer(f, inv, pages, ctx, currency);
    if (!a) continue;
    result[f.key] = a.value;
    meta[f.key] = a.meta;
    review ||= Boolean(a.disputed);
  }
  return finish(fields, result, meta, review, opts, {
    pages: pages?.output?.pages ?? pages?.doc.pages.length ?? 1,
    markdown: pages?.output?.markdown ?? renderEInvoiceMarkdown(inv),
  });
}

/** Validation, required fields and the document's confidence, as for a page reading. */
function finish(
  fields: FieldDef[],
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  disputed: boolean,
  opts: ExtractionOptions,
  doc: { pages: number; markdown: string },
): ExtractionOutput {
  let invalid = false;
  const missing: string[] = [];
  for (const f of fields) {
    const errors = validateField(f, result[f.key], opts.patternOwner);
    if (errors.length) {
      invalid = true;
      meta[f.key] = { ...(meta[f.key] ?? { confidence: 0 }), errors: [...(meta[f.key]?.errors ?? []), ...errors] };
    }
    if (isRequired(f) && result[f.key] === undefined) missing.push(f.key);
  }
  const keys = Object.keys(result);
  if (missing.length && keys.length === 0)
    throw new ExtractionError('required_field_missing', `required field(s) not found: ${missing.join(', ')}`);
  const required = fields.filter(isRequired).length;
  const share = required ? (required - missing.length) / required : 1;
  const mean = keys.length ? keys.reduce((s, k) => s + meta[k]!.confidence, 0) / keys.length : 0;
  const confidence = Math.round(mean * share * 1000) / 1000;
  const needsReview = disputed || invalid || missing.length > 0 || confidence < (opts.confidenceThreshold ?? 0.7);
  return { result, fields: meta, confidence, needsReview, pages: doc.pages, markdown: doc.markdown, documentKind: 'invoice' };
}
