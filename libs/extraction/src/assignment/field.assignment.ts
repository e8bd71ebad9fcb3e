import type { ExtractionOptions, FieldDef, FieldMeta } from '../engine.types.js';
import type { DocLayout, Line } from '../layout/layout.types.js';
import { findNumbers, type DocContext } from '../parsers/value.parser.js';
import { findVatIds } from '../parsers/identifier.parser.js';
import { textWithOffsets, wordsIn } from '../locate/field.values.js';
import type { FieldCandidate } from '../candidates/label.candidates.js';
import type { Located } from '../locate/field.locator.js';
import { schemaLabels, isLabelPiece } from '../locate/form.label.js';
import { conceptTokens } from '../locate/label.matcher.js';
import { acceptableString } from '../locate/constraints.js';
import { enforceConstraints } from '../locate/constraints.fields.js';
import { reconcileAmounts, sumTaxRates, taxBetween } from '../locate/amount.reconciler.js';
import { lineItemsSum } from '../locate/constraints.totals.js';
import { numberBesideDate } from '../locate/number.beside.date.js';
import { addresseeBlock, footerIssuer, locateBySemantics, paidTotal, payeeIssuer, withRounding } from '../locate/semantic.fallback.js';
import { extractTable } from '../locate/table.extractor.js';
import { fillDefaultCurrency } from '../render/currency.fill.js';
import { calibrateFields } from '../scores/confidence.calibrator.js';
import { applyMemory } from '../memory/memory.apply.js';
import type { LabelChoice } from './label.choice.js';
import { locatedAt, round } from './located.js';

/** Confidence of a party name re-picked from the page after the first pick named the other party. */
const REPICK_PARTY_CONFIDENCE = 0.35;
/** Confidence of a total found as the printed sum of the chosen net and tax amounts. */
const PRINTED_SUM_CONFIDENCE = 0.6;
/** Two amounts within this of each other are the same printed amount (a cent's rounding). */
const SAME_AMOUNT = 0.005;

export interface Assignment {
  result: Record<string, unknown>;
  meta: Record<string, FieldMeta>;
  /** What the account's layout memory contributed, when it did. */
  memory?: ReturnType<typeof applyMemory>;
}

/**
 * The assignment stage: tables, each scalar field's chosen value (or its fallback reading), then the cross-field
 * constraints over all of them, calibrated confidence, and the account's layout memory.
 */
export function assignFields(
  doc: DocLayout,
  fields: FieldDef[],
  ctx: DocContext,
  cands: FieldCandidate[],
  choice: LabelChoice,
  opts: ExtractionOptions,
): Assignment {
  const result: Record<string, unknown> = {};
  const meta: Record<string, FieldMeta> = {};
  assignEach(doc, fields, ctx, choice, result, meta);
  crossField(doc, fields, ctx, cands, choice.used, result, meta);
  fillDefaultCurrency(fields, result, opts.defaultCurrency);
  if (!opts.rawConfidence) calibrateFields(fields, meta, isScanned(doc));
  // (After calibration: a net amount derived from the total and the tax is never surer than they are.)
  reconcileAmounts(fields, result, meta);
  // A remembered layout of the account (ADR 0014) outranks the engine's reading where its anchors are found.
  const memory = applyMemory(doc, fields, result, meta, opts.memory, ctx);
  if (memory) fillDefaultCurrency(fields, result, opts.defaultCurrency);
  return { result, meta, ...(memory ? { memory } : {}) };
}

/** The schema's other table fields: rivals for the header lines that a table's sections would be printed under. */
function otherTables(fields: FieldDef[], field: FieldDef): FieldDef[] {
  return fields.filter((t) => t !== field && t.data_type === 'table');
}

/** Each field in schema order (the result keeps it): a table's rows, or a scalar's chosen value or fallback reading. */
function assignEach(
  doc: DocLayout,
  fields: FieldDef[],
  ctx: DocContext,
  { chosen, used }: LabelChoice,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
) {
  const labels = schemaLabels(fields);
  const takenHeaders = new Set<string>();
  for (const f of fields) {
    if (f.data_type === 'table') {
      const t = extractTable(doc, f, ctx, takenHeaders, otherTables(fields, f));
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
}

/**
 * Cross-field constraints (net + tax = total, Σ line items = net, due ≥ issue date, seller ≠ buyer), each field's
 * label candidates in choice order as the alternatives; then the amounts and the number the constraints imply (the net
 * amount derived from total − tax is added after calibration, in assignFields).
 */
function crossField(
  doc: DocLayout,
  fields: FieldDef[],
  ctx: DocContext,
  cands: FieldCandidate[],
  used: Set<string>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
) {
  const alternatives = new Map<string, Located[]>();
  for (const { f, c } of cands) alternatives.set(f.key, [...(alternatives.get(f.key) ?? []), c]);
  // (One tax line per rate summed first: net + the rates' sum = total is then the consistency the constraints keep.)
  const amount = (f: FieldDef, value: number) => printedAmount(doc, ctx, f, value);
  sumTaxRates(doc, fields, result, meta, ctx, { amount, itemsSum: lineItemsSum(fields, result) });
  enforceConstraints(fields, alternatives, result, meta, used, {
    party: (f, not) => repickParty(doc, f, not),
    amount,
    footerIssuer: () => footerIssuer(doc)?.name,
    taxIds: () => printedTaxIds(doc),
  });
  taxBetween(doc, fields, result, meta, ctx);
  numberBesideDate(doc, fields, result, meta, ctx);
}

/** Every VAT number printed on the document, boxed by the words that print it, as a located value. */
function printedTaxIds(doc: DocLayout): Located[] {
  return doc.pages.flatMap((p) =>
    p.lines.flatMap((l) => {
      const { text, starts } = textWithOffsets(l.words);
      return findVatIds(text).map((v) =>
        locatedAt(wordsIn(l.words, starts, v.index, v.value.length), p.number, v.value, TAX_ID_PRINTED_CONFIDENCE),
      );
    }),
  );
}
/** The confidence of a tax id taken from the page without a label candidate. */
const TAX_ID_PRINTED_CONFIDENCE = 0.5;

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

/** A document read by OCR: some of its words carry a confidence below 1 (text layers give 1). */
function isScanned(doc: DocLayout): boolean {
  return doc.pages.some((p) => p.lines.some((l) => l.words.some((w) => w.conf < 1)));
}
