import type { FieldDef, FieldMeta } from '../engine.types.js';
import type { DocLayout, Line } from '../layout/layout.types.js';
import { lineIndexAt } from '../layout/layout.builder.js';
import { findNumbers, type DocContext } from '../parsers/value.parser.js';
import { conceptTokens } from './label.matcher.js';
import type { Located } from './field.locator.js';
import { place, SUM_TOLERANCE } from './constraints.js';

type Role = 'total' | 'net' | 'tax';

/** Two amounts this close are the same printed amount (a cent's rounding); a sum of figures allows it per figure. */
const SAME_CENT = 0.006;
/** Which summary amount a number/currency field asks for, from its key and label ("Net amount", "tax_amount"). */
function roleOf(field: FieldDef): Role | undefined {
  if (field.data_type !== 'number' && field.data_type !== 'currency') return undefined;
  const c = new Set(conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`));
  // Rates, identifiers and other quantities are not summary amounts.
  if (['id', 'number', 'rate', 'price', 'quantity', 'unit'].some((x) => c.has(x))) return undefined;
  if (c.has('net')) return 'net';
  if (c.has('tax')) return 'tax';
  if (c.has('total')) return 'total';
  return undefined;
}

/** The first field of the schema asking for each summary amount. */
function summaryFields(fields: FieldDef[]): Partial<Record<Role, FieldDef>> {
  const out: Partial<Record<Role, FieldDef>> = {};
  for (const f of fields) {
    const r = roleOf(f);
    if (r && !out[r]) out[r] = f;
  }
  return out;
}

function amountOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'number') return (v as { value: number }).value;
  return undefined;
}

function withAmount(like: unknown, value: number): unknown {
  const rounded = Math.round(value * 100) / 100;
  return like && typeof like === 'object' ? { ...(like as object), value: rounded } : rounded;
}

/**
 * Invoices obey total = net + tax. When exactly one of the three summary amounts is missing and the other
 * two were printed, the net amount is derived (total − tax). Tax is not derived from total − net:
 * shipping, discounts or deposits printed between them would make a wrong tax look certain. The derived
 * value carries a lower confidence and no bounding box (it is not printed where one could point).
 */
export function reconcileAmounts(fields: FieldDef[], result: Record<string, unknown>, meta: Record<string, FieldMeta>): void {
  const { net, tax, total } = summaryFields(fields);
  if (!net || !tax || !total || result[net.key] !== undefined) return;
  const t = amountOf(result[total.key]);
  const x = amountOf(result[tax.key]);
  if (t === undefined || x === undefined || x < 0 || t <= 0 || x >= t) return;
  result[net.key] = withAmount(result[total.key], t - x);
  const conf = Math.min(meta[total.key]?.confidence ?? 0, meta[tax.key]?.confidence ?? 0) * 0.9;
  meta[net.key] = { confidence: Math.round(conf * 1000) / 1000, page: meta[total.key]?.page, errors: [] };
}

/** A summary line of one VAT rate: a tax word, a rate ("21%", "5,5 %") and an amount. */
function taxRateAmount(l: Line, ctx: DocContext): number | undefined {
  if (!/\d\s?%/.test(l.text) || !conceptTokens(l.text).includes('tax')) return undefined;
  const nums = findNumbers(l.text, ctx);
  const last = nums[nums.length - 1];
  return typeof last?.value === 'number' ? last.value : undefined;
}

/**
 * The run of one-rate tax lines around the chosen tax line (two or more), and their amounts' sum. A run that fills a
 * page's last lines goes on with the next page's first ones, and one that starts a page with the previous page's last
 * ones: a totals block broken by the page end.
 */
function rateRun(doc: DocLayout, at: FieldMeta | undefined, ctx: DocContext): { sum: number; lines: Line[] } | undefined {
  const pi = at?.bbox ? doc.pages.findIndex((p) => p.number === at.page) : -1;
  const page = doc.pages[pi];
  if (!page) return undefined;
  const k = lineIndexAt(page, at!.bbox!);
  if (k < 0 || taxRateAmount(page.lines[k]!, ctx) === undefined) return undefined;
  const isRate = (l: Line) => taxRateAmount(l, ctx) !== undefined;
  let from = k;
  let to = k;
  while (from > 0 && isRate(page.lines[from - 1]!)) from--;
  while (to + 1 < page.lines.length && isRate(page.lines[to + 1]!)) to++;
  const before = from === 0 ? trailingRun(doc.pages[pi - 1]?.lines ?? [], isRate) : [];
  const after = to === page.lines.length - 1 ? leadingRun(doc.pages[pi + 1]?.lines ?? [], isRate) : [];
  const lines = [...before, ...page.lines.slice(from, to + 1), ...after];
  if (lines.length < 2) return undefined;
  return { sum: Math.round(lines.reduce((s, l) => s + taxRateAmount(l, ctx)!, 0) * 100) / 100, lines };
}

/** The lines that open `lines` and pass `test`. */
function leadingRun(lines: readonly Line[], test: (l: Line) => boolean): Line[] {
  const n = lines.findIndex((l) => !test(l));
  return lines.slice(0, n < 0 ? lines.length : n);
}

/** The lines that end `lines` and pass `test`. */
function trailingRun(lines: readonly Line[], test: (l: Line) => boolean): Line[] {
  return leadingRun([...lines].reverse(), test).reverse();
}

/** Where the document prints an amount for a field, if it does (the last place). */
export type PrintedAmount = (f: FieldDef, value: number) => Located | undefined;

/**
 * Invoices with several VAT rates often print one line per rate ("Btw 9% … 8,98 / Btw 21% … 9,14") and no VAT
 * total: the tax amount is then the sum of those lines. The picked tax line is widened to the run of rate lines
 * around it, and the sum is kept when net + sum = total — or, when the chosen amounts do not add up (a subtotal taken
 * for the total), when the net amount (else Σ line items) plus the sum is printed on the document: that is the total.
 * A single rate line stays as it is.
 */
export function sumTaxRates(
  doc: DocLayout,
  fields: FieldDef[],
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  ctx: DocContext,
  printed?: { amount: PrintedAmount; itemsSum: number | undefined },
): void {
  const { net, tax, total } = summaryFields(fields);
  if (!net || !tax || !total) return;
  const [n, x, t] = [net, tax, total].map((f) => amountOf(result[f.key]));
  const at = meta[tax.key];
  if (x === undefined || (n !== undefined && t !== undefined && Math.abs(n + x - t) <= SUM_TOLERANCE)) return;
  const run = rateRun(doc, at, ctx);
  if (!run) return;
  const sumOk = n !== undefined && t !== undefined && Math.abs(n + run.sum - t) <= SUM_TOLERANCE;
  const base = n ?? printed?.itemsSum;
  const totalLine = !sumOk && base !== undefined ? printed?.amount(total, Math.round((base + run.sum) * 100) / 100) : undefined;
  if (!sumOk && !totalLine) return;
  result[tax.key] = withAmount(result[tax.key], run.sum);
  meta[tax.key] = { confidence: Math.round(at!.confidence * 0.9 * 1000) / 1000, page: at!.page, errors: [] };
  if (totalLine) place(result, meta, total, totalLine);
}

/**
 * A tax line whose label the vocabulary does not know ("NM GRT 8.1875%", a local levy) or that the label match
 * turned down ("Item Tax": a tax word under another word) still stands between the net amount and the total, with a
 * rate or a tax word and the difference of the two: that printed amount is the tax (net + tax = total).
 */
export function taxBetween(
  doc: DocLayout,
  fields: FieldDef[],
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  ctx: DocContext,
): void {
  const { net, tax, total } = summaryFields(fields);
  if (!net || !tax || !total || result[tax.key] !== undefined) return;
  const [n, t] = [amountOf(result[net.key]), amountOf(result[total.key])];
  const [mn, mt] = [meta[net.key], meta[total.key]];
  if (n === undefined || t === undefined || !mn?.bbox || !mt?.bbox || mn.page !== mt.page || Math.abs(t) <= Math.abs(n)) return;
  const page = doc.pages.find((p) => p.number === mn.page);
  if (!page) return;
  const between = page.lines.filter((l) => l.y0 > mn.bbox![3] - 0.5 && l.y1 < mt.bbox![1] + 0.5);
  const want = Math.round((t - n) * 100) / 100;
  const hits = between.filter(
    (l) =>
      (/\d\s?%/.test(l.text) || conceptTokens(l.text).includes('tax')) &&
      findNumbers(l.text, ctx).some((x) => typeof x.value === 'number' && Math.abs(x.value - want) < SAME_CENT),
  );
  const lines = hits.length === 1 ? hits : hits.length === 0 ? breakdownColumn(between, want, ctx) : [];
  if (!lines.length) return;
  result[tax.key] = withAmount(result[total.key], want);
  meta[tax.key] = {
    confidence: Math.round(Math.min(mn.confidence, mt.confidence) * 0.8 * 1000) / 1000,
    page: page.number,
    bbox: [
      Math.min(...lines.map((l) => l.x0)),
      Math.min(...lines.map((l) => l.y0)),
      Math.max(...lines.map((l) => l.x1)),
      Math.max(...lines.map((l) => l.y1)),
    ],
    errors: [],
  };
}

/**
 * A tax breakdown table between the net amount and the total (one row per rate: rate, base, tax, gross): the rows of
 * two or more rates, when one column of their figures (the n-th figure of each row) sums to the tax `want`. Empty
 * when there is no such column.
 */
function breakdownColumn(between: Line[], want: number, ctx: DocContext): Line[] {
  const rows = between.filter((l) => /\d\s?%/.test(l.text));
  if (rows.length < 2) return [];
  const figures = rows.map((l) => findNumbers(l.text, ctx).flatMap((n) => (typeof n.value === 'number' ? [n.value] : [])));
  const width = Math.min(...figures.map((f) => f.length));
  for (let k = 0; k < width; k++) {
    const sum = figures.reduce((a, f) => a + f[k]!, 0);
    if (Math.abs(sum - want) < SAME_CENT * rows.length) return rows;
  }
  return [];
}
