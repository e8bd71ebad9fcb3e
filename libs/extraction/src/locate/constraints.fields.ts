import type { FieldDef, FieldMeta } from '../engine.types.js';
import { weightOf } from './label.matcher.js';
import type { Located } from './field.locator.js';
import { conceptsOfField, place, REPICK_CONFIDENCE, slotOf } from './constraints.js';
import { reconcileTotals } from './constraints.totals.js';
import { sellerHoldsTaxId, sellerNotBuyer, taxIdOfSeller } from './constraints.parties.js';

// The cross-field constraints (constraints.ts has the shape checks on single values): totals, dates, parties.

/** The issue date field (a date naming the invoice or just "Date") and the due date field of a schema. */
function dateFields(fields: FieldDef[]): { issue?: FieldDef; due?: FieldDef } {
  const dates = fields.filter((f) => f.data_type === 'date');
  const due = dates.find((f) => conceptsOfField(f).has('due'));
  const issue = dates.find((f) => {
    const c = conceptsOfField(f);
    return (
      f !== due &&
      !c.has('due') &&
      !c.has('delivery') &&
      !c.has('order') &&
      !c.has('payment') &&
      (c.has('invoice') || [...c].every((x) => x === 'date' || weightOf(x) < 1))
    );
  });
  return { issue, due };
}

/** A due date is never before the issue date: a due date earlier than it is replaced by a later alternative, else dropped. */
function dueNotBeforeIssue(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  used: Set<string>,
): void {
  const { issue, due } = dateFields(fields);
  if (!issue || !due) return;
  const i = result[issue.key];
  const d = result[due.key];
  if (typeof i !== 'string' || typeof d !== 'string' || d >= i) return;
  const alt = (alternatives.get(due.key) ?? []).find((c) => typeof c.value === 'string' && c.value >= i && !used.has(slotOf(c)));
  if (alt) {
    place(result, meta, due, alt, alt.confidence * REPICK_CONFIDENCE);
    return;
  }
  delete result[due.key];
  delete meta[due.key];
}

/**
 * The cross-field constraints, applied to the chosen values once every field (tables included) is located.
 * `alternatives` holds each field's label candidates best first; `used` the slots other fields claimed.
 */
export function enforceConstraints(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  used: Set<string>,
  page: PageLookups,
): void {
  reconcileTotals(fields, alternatives, result, meta, page.amount);
  dueNotBeforeIssue(fields, alternatives, result, meta, used);
  sellerNotBuyer(fields, alternatives, result, meta, page.party);
  sellerHoldsTaxId(fields, alternatives, result, meta, page.footerIssuer);
  taxIdOfSeller(fields, alternatives, result, meta, page.taxIds);
}

/** What the constraints may look up on the document itself when no label candidate satisfies them. */
export interface PageLookups {
  /** Another party's name for field `f` than `not` (normalised), from the page's layout. */
  party: (f: FieldDef, not: string) => Located | undefined;
  /** The amount `value` as printed on the document (its last printing), typed for field `f`. */
  amount: (f: FieldDef, value: number) => Located | undefined;
  /** The company the document's legal footer names (the issuer), when it has one; looked up when asked. */
  footerIssuer?: () => string | undefined;
  /** Every tax id (VAT number) printed on the document, top to bottom, page by page; looked up when asked. */
  taxIds?: () => Located[];
}
