import type { FieldDef, FieldMeta } from '../engine.types.js';
import type { Located } from './field.locator.js';
import { amountOf, conceptsOfField, MAX_ALTERNATIVES, place, REPICK_CONFIDENCE, slotOf, SUM_TOLERANCE } from './constraints.js';
import type { PageLookups } from './constraints.fields.js';

// Net + tax = total and Σ line items = net, between the chosen summary amounts and their label candidates.

type Role = 'total' | 'net' | 'tax';

function roleOf(f: FieldDef): Role | undefined {
  if (f.data_type !== 'number' && f.data_type !== 'currency') return undefined;
  const c = conceptsOfField(f);
  if (['id', 'number', 'rate', 'price', 'quantity', 'unit'].some((x) => c.has(x))) return undefined;
  if (c.has('net')) return 'net';
  if (c.has('tax')) return 'tax';
  if (c.has('total')) return 'total';
  return undefined;
}

/** The line-item amounts' sum of the first table field with an amount/total column, if it has rows. */
export function lineItemsSum(fields: FieldDef[], result: Record<string, unknown>): number | undefined {
  for (const f of fields) {
    if (f.data_type !== 'table' || !Array.isArray(result[f.key]) || !(result[f.key] as unknown[]).length) continue;
    const col = (f.fields ?? []).find((s) => {
      if (s.data_type !== 'number' && s.data_type !== 'currency') return false;
      const c = conceptsOfField(s);
      return (c.has('amount') || c.has('total')) && !c.has('price') && !c.has('quantity') && !c.has('unit') && !c.has('tax');
    });
    if (!col) continue;
    let sum = 0;
    for (const r of result[f.key] as Record<string, unknown>[]) {
      const v = amountOf(r[col.key]);
      if (v === undefined) return undefined;
      sum += v;
    }
    return Math.round(sum * 100) / 100;
  }
  return undefined;
}

/**
 * Net + tax = total decides between competing summary amounts: when the chosen three do not add up and the label
 * candidates hold a triple that does, that triple is taken (changing as few of the chosen fields as possible, then
 * by label strength). Without such a triple, Σ line items = net decides between competing net amounts (never against
 * a chosen triple that adds up).
 */
export function reconcileTotals(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  printed: PageLookups['amount'],
): void {
  const byRole: Partial<Record<Role, FieldDef>> = {};
  for (const f of fields) {
    const r = roleOf(f);
    if (r && !byRole[r]) byRole[r] = f;
  }
  const { net, tax, total } = byRole;
  const at: Amounts = { alternatives, result, meta };
  if (net && tax && total) {
    const [n, x, t] = [current(at, net), current(at, tax), current(at, total)];
    const consistent = n !== undefined && x !== undefined && t !== undefined && Math.abs(n + x - t) <= SUM_TOLERANCE;
    // Chosen amounts that add up stand: line items priced with tax (a shop's gross prices) sum to a gross
    // subtotal, which must not replace a net amount that net + tax = total confirms.
    if (consistent) return;
    if (repickTriple(at, net, tax, total)) return;
    if (printedSumAsTotal(at, total, [n, x, t], printed)) return;
  }
  lineItemsDecide(at, fields, { net, tax, total });
}

/** The chosen amounts and each field's label candidates, best first. */
interface Amounts {
  alternatives: Map<string, Located[]>;
  result: Record<string, unknown>;
  meta: Record<string, FieldMeta>;
}

/** The amount chosen for field `f`. */
function current({ result }: Amounts, f: FieldDef | undefined): number | undefined {
  return f ? amountOf(result[f.key]) : undefined;
}

/** Field `f`'s label candidates that hold an amount, at most MAX_ALTERNATIVES. */
function pool({ alternatives }: Amounts, f: FieldDef): Located[] {
  return (alternatives.get(f.key) ?? []).filter((c) => amountOf(c.value) !== undefined).slice(0, MAX_ALTERNATIVES);
}

/** Takes the label candidates' net/tax/total triple that adds up and keeps two of the chosen values; true if it did. */
function repickTriple(at: Amounts, net: FieldDef, tax: FieldDef, total: FieldDef): boolean {
  // Each field's label candidates, marked when they print the value already chosen.
  const opts = (f: FieldDef) => {
    const cur = current(at, f);
    return pool(at, f).map((c) => ({
      c,
      v: amountOf(c.value)!,
      kept: cur !== undefined && Math.abs(amountOf(c.value)! - cur) <= SUM_TOLERANCE,
    }));
  };
  const [on, ox, ot] = [opts(net), opts(tax), opts(total)];
  let best: { n: (typeof on)[number]; x: (typeof on)[number]; t: (typeof on)[number]; score: number } | undefined;
  for (const a of on)
    for (const b of ox)
      for (const c of ot) {
        if (Math.abs(a.v + b.v - c.v) > SUM_TOLERANCE || c.v <= 0 || b.v < 0) continue;
        const slots = new Set([slotOf(a.c), slotOf(b.c), slotOf(c.c)]);
        if (slots.size < 3) continue;
        const kept = [a, b, c].filter((o) => o.kept).length;
        // Two of the three chosen values must stand: one chosen amount plus two re-picked ones add up by chance too often.
        if (kept < 2) continue;
        const score = kept * 10 + a.c.confidence + b.c.confidence + c.c.confidence;
        if (!best || score > best.score) best = { n: a, x: b, t: c, score };
      }
  if (!best) return false;
  for (const [f, o] of [
    [net, best.n],
    [tax, best.x],
    [total, best.t],
  ] as const)
    if (!o.kept) place(at.result, at.meta, f, o.c, o.c.confidence * REPICK_CONFIDENCE);
  return true;
}

/** Takes net + tax as printed on the document for a missing or too small total; true if it did. */
function printedSumAsTotal(at: Amounts, total: FieldDef, [n, x, t]: (number | undefined)[], printed: PageLookups['amount']): boolean {
  // No label candidate completes the sum, and the chosen total is missing or less than net + tax (a total line whose
  // label the vocabulary does not know as a total, "Amount due", left the net amount or nothing): the amount net +
  // tax printed on the document is the total.
  if (n !== undefined && x !== undefined && x > 0 && (t === undefined || t < n + x - SUM_TOLERANCE)) {
    const hit = printed(total, Math.round((n + x) * 100) / 100);
    if (hit) {
      place(at.result, at.meta, total, hit, hit.confidence);
      return true;
    }
  }
  return false;
}

/** Σ line items = net decides between the net amount's label candidates. */
function lineItemsDecide(at: Amounts, fields: FieldDef[], { net, tax, total }: Partial<Record<Role, FieldDef>>): void {
  // Σ line items = net (or the total when the schema asks for no net amount and no tax was printed).
  const sum = lineItemsSum(fields, at.result);
  const target = net ?? (tax && current(at, tax) ? undefined : total);
  if (sum === undefined || !target) return;
  const cur = current(at, target);
  if (cur !== undefined && Math.abs(cur - sum) <= SUM_TOLERANCE) return;
  const hit = pool(at, target).find((c) => Math.abs(amountOf(c.value)! - sum) <= SUM_TOLERANCE);
  if (hit && cur !== undefined) place(at.result, at.meta, target, hit, hit.confidence * REPICK_CONFIDENCE);
}
