import type { DocLayout } from '../layout/layout.types.js';
import type { FieldCandidate } from '../candidates/label.candidates.js';
import { amountOf } from '../locate/constraints.js';
import { typeOneHot } from './field.confidence.features.js';

/**
 * The evidence the candidate scorer (scores/candidate.scorer.ts) weighs for one label-anchored value of one scalar
 * field, one named number each. Generic only: nothing here names a word, a language or a document.
 *
 * | feature | meaning |
 * |---|---|
 * | `label_score` | how well the printed label matches the field's label (0..1, label.matcher) |
 * | `label_behind` | the field's best label score minus this one's (0 for the best-labelled candidates) |
 * | `raw` | the locator's own confidence (label match × value-type fit × OCR confidence) |
 * | `raw_behind` | the best raw confidence among the field's candidates of the same label score minus this one's |
 * | `rank` | position in the field's list as the label order gives it, over the list's length (0 = first) |
 * | `first` | 1 for the field's first candidate in label order |
 * | `alone` | 1 when the field has one candidate |
 * | `right_of_label` | 1 when the value starts right of its label's left edge by more than a tenth of the page (beside, not under) |
 * | `page_first`, `page_last` | the value is on the document's first / last page |
 * | `y_rel`, `x_rel` | the value's top and left edge over the page's height and width |
 * | `later` | for numbers and amounts: share of the field's candidates printed before this one (reading order) |
 * | `largest` | for numbers and amounts: 1 when no other candidate of the field is larger |
 * | `repeats` | other candidates (of any field) with the same value, capped at 3, over 3 |
 * | `shared_slot` | 1 when another field's candidate reads the same printed value |
 * | `delivery` | read under a delivery heading |
 * | `words` | a string value's word count, capped at 8, over 8 (0 for other types) |
 * | `type_*` | the field's data type (boolean counts as string) |
 * | `scanned` | the page was read by OCR |
 */
export const CANDIDATE_FEATURES = [
  'label_score',
  'label_behind',
  'raw',
  'raw_behind',
  'rank',
  'first',
  'alone',
  'right_of_label',
  'page_first',
  'page_last',
  'y_rel',
  'x_rel',
  'later',
  'largest',
  'repeats',
  'shared_slot',
  'delivery',
  'words',
  'type_string',
  'type_number',
  'type_date',
  'type_currency',
  'scanned',
] as const;

/** A value this far (share of the page width) right of its label's left edge is read beside the label. */
const BESIDE_LABEL_SHARE = 0.1;
/** Repeats of a value counted at most this many times. */
const REPEATS_CAP = 3;
/** Words of a string value counted at most this many times. */
const WORDS_CAP = 8;
/** Two label scores or confidences closer than this are equal. */
const SAME_SCORE = 1e-6;

/** Same printed value, whatever its type: amounts by their number, others by their text. */
function valueKey(v: unknown): string {
  if (v && typeof v === 'object' && 'value' in v) return String((v as { value: unknown }).value);
  return typeof v === 'string' ? v.toLowerCase().replace(/\s+/g, ' ').trim() : String(v);
}

/** The feature vectors of every candidate, in `cands` order (each field's candidates in their label order). */
export function candidateFeatures(doc: DocLayout, cands: readonly FieldCandidate[]): number[][] {
  const byField = new Map<string, FieldCandidate[]>();
  for (const fc of cands) byField.set(fc.f.key, [...(byField.get(fc.f.key) ?? []), fc]);
  const valueCount = new Map<string, number>();
  const slotFields = new Map<string, Set<string>>();
  for (const { f, c } of cands) {
    const k = valueKey(c.value);
    valueCount.set(k, (valueCount.get(k) ?? 0) + 1);
    slotFields.set(c.slot, (slotFields.get(c.slot) ?? new Set()).add(f.key));
  }
  const lastPage = Math.max(1, ...doc.pages.map((p) => p.number));
  return cands.map((fc) => {
    const list = byField.get(fc.f.key)!;
    return [
      ...labelPart(fc, list),
      ...placePart(doc, fc, lastPage),
      ...amountPart(fc, list),
      Math.min(REPEATS_CAP, valueCount.get(valueKey(fc.c.value))! - 1) / REPEATS_CAP,
      +(fc.c.slot !== '' && slotFields.get(fc.c.slot)!.size > 1),
      +!!fc.c.delivery,
      typeof fc.c.value === 'string' ? Math.min(WORDS_CAP, fc.c.value.split(/\s+/).length) / WORDS_CAP : 0,
      ...typeOneHot(fc.f.data_type),
      +isScannedPage(doc, fc.c.page),
    ];
  });
}

/** label_score, label_behind, raw, raw_behind, rank, first, alone. */
function labelPart({ c }: FieldCandidate, list: readonly FieldCandidate[]): number[] {
  const bestLabel = Math.max(...list.map((o) => o.c.labelScore));
  const sameLabel = list.filter((o) => Math.abs(o.c.labelScore - c.labelScore) < SAME_SCORE);
  const bestRaw = Math.max(...sameLabel.map((o) => o.c.confidence));
  const rank = list.findIndex((o) => o.c === c);
  return [
    c.labelScore,
    bestLabel - c.labelScore,
    c.confidence,
    bestRaw - c.confidence,
    rank / list.length,
    +(rank === 0),
    +(list.length === 1),
  ];
}

/** right_of_label, page_first, page_last, y_rel, x_rel. */
function placePart(doc: DocLayout, { c }: FieldCandidate, lastPage: number): number[] {
  const page = doc.pages.find((p) => p.number === c.page);
  const w = page?.width || 1;
  const h = page?.height || 1;
  const beside = c.labelX !== undefined && c.bbox[0] - c.labelX > BESIDE_LABEL_SHARE * w;
  return [+beside, +(c.page === 1), +(c.page === lastPage), c.bbox[1] / h, c.bbox[0] / w];
}

/** later, largest: for number and amount fields (0 otherwise). */
function amountPart({ f, c }: FieldCandidate, list: readonly FieldCandidate[]): number[] {
  if (f.data_type !== 'number' && f.data_type !== 'currency') return [0, 0];
  const before = list.filter((o) => o.c.page < c.page || (o.c.page === c.page && o.c.bbox[1] < c.bbox[1] - SAME_SCORE)).length;
  const v = amountOf(c.value);
  const largest = v !== undefined && list.every((o) => (amountOf(o.c.value) ?? -Infinity) <= v);
  return [list.length > 1 ? before / (list.length - 1) : 0, +largest];
}

function isScannedPage(doc: DocLayout, page: number): boolean {
  return !!doc.pages.find((p) => p.number === page)?.ocr;
}
