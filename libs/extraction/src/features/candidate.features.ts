import type { DataType } from '../engine.types.js';
import type { DocLayout } from '../layout/layout.types.js';

/**
 * The evidence the candidate scorer (scores/candidate.scorer.ts) weighs for one (field, candidate value) pair, one
 * named number each. Generic only: nothing names a word, a language or a layout.
 *
 * | feature | meaning |
 * |---|---|
 * | `label_score` | how well the label near the value matches the field's label (label.matcher, 0..1) |
 * | `label_exact` | 1 when that match is (almost) exact (≥ 0.95) |
 * | `confidence` | the locator's own confidence: label × value-type fit × OCR confidence |
 * | `rank` | the locator's order among the field's candidates (0 = its best), / 8 |
 * | `field_candidates` | log(1 + candidates of the field) |
 * | `first_page`, `last_page` | the value is on the document's first / last page |
 * | `y`, `x` | the value's top-left corner, as a share of the page's height / width |
 * | `shared_value` | log(1 + candidates of other fields holding the same value) |
 * | `totals_slot` | the value was read in a totals block (right-aligned amounts under a table) |
 * | `delivery` | the value was read under a delivery heading |
 * | `extreme_amount` | for amounts: the largest of the field's candidates; for dates: the earliest |
 * | `latest` | the value stands last on the document among the field's candidates |
 * | `type_string`, `type_number`, `type_date`, `type_currency` | the field's data type |
 */
export const CANDIDATE_FEATURES = [
  'label_score', 'label_exact', 'confidence', 'rank', 'field_candidates', 'first_page', 'last_page', 'y', 'x', 'shared_value',
  'totals_slot', 'delivery', 'extreme_amount', 'latest', 'type_string', 'type_number', 'type_date', 'type_currency',
] as const;

/** A label match at least this good counts as exact. */
const EXACT_LABEL = 0.95;
/** The locator keeps at most this many candidates per field. */
const MAX_RANK = 8;

/** What the feature function needs of a candidate (field.locator's Candidate). */
export interface RankedCandidate {
  value: unknown;
  confidence: number;
  labelScore: number;
  page: number;
  bbox: readonly [number, number, number, number];
  slot: string;
  delivery?: boolean;
}

/** One field's candidates with the document's other candidates: the context of each feature vector. */
export interface CandidateContext {
  doc: DocLayout;
  type: DataType;
  own: readonly RankedCandidate[];
  /** Value keys (JSON) of the other fields' candidates, with their counts. */
  otherValues: ReadonlyMap<string, number>;
}

const valueKey = (v: unknown) => JSON.stringify(v);
const amountOf = (v: unknown) => (typeof v === 'number' ? v : typeof v === 'object' && v && 'value' in v ? Number((v as { value: unknown }).value) : NaN);

/** The feature vector of the field's candidate number `rank`, in {@link CANDIDATE_FEATURES} order. */
export function candidateFeatures(ctx: CandidateContext, rank: number): number[] {
  const c = ctx.own[rank]!;
  const page = ctx.doc.pages[c.page - 1];
  const kind = ctx.type === 'number' || ctx.type === 'date' || ctx.type === 'currency' ? ctx.type : 'string';
  return [
    c.labelScore, c.labelScore >= EXACT_LABEL ? 1 : 0, c.confidence, Math.min(rank, MAX_RANK) / MAX_RANK, Math.log1p(ctx.own.length),
    c.page === 1 ? 1 : 0, c.page === ctx.doc.pages.length ? 1 : 0,
    page?.height ? c.bbox[1] / page.height : 0, page?.width ? c.bbox[0] / page.width : 0,
    Math.log1p(ctx.otherValues.get(valueKey(c.value)) ?? 0),
    c.slot.includes(':totals:') ? 1 : 0, c.delivery ? 1 : 0, extreme(ctx, c), latest(ctx.own, c),
    +(kind === 'string'), +(kind === 'number'), +(kind === 'date'), +(kind === 'currency'),
  ];
}

/** The value counts of every field's candidates but one, for {@link CandidateContext.otherValues}. */
export function valueCounts(all: readonly { key: string; value: unknown }[], except: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const c of all) if (c.key !== except) out.set(valueKey(c.value), (out.get(valueKey(c.value)) ?? 0) + 1);
  return out;
}

function extreme(ctx: CandidateContext, c: RankedCandidate): number {
  if (ctx.type === 'date' && typeof c.value === 'string') return ctx.own.every((o) => typeof o.value !== 'string' || o.value >= (c.value as string)) ? 1 : 0;
  const v = amountOf(c.value);
  if (Number.isNaN(v)) return 0;
  return ctx.own.every((o) => Number.isNaN(amountOf(o.value)) || Math.abs(amountOf(o.value)) <= Math.abs(v)) ? 1 : 0;
}

function latest(own: readonly RankedCandidate[], c: RankedCandidate): number {
  return own.every((o) => o.page < c.page || (o.page === c.page && o.bbox[1] <= c.bbox[1])) ? 1 : 0;
}
