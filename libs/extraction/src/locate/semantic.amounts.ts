import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Line } from '../layout/layout.types.js';
import { findNumbers, type DocContext } from '../parsers/value.parser.js';
import { conceptTokens } from './label.matcher.js';
import type { Located } from './field.locator.js';
import { vocabularyOf } from '../document.context.js';
import { CURRENCY_MARK_SOURCE } from '../locales/locale.registry.js';
import type { Vocabulary } from '../locales/locale.vocabulary.js';

/**
 * Receipts: cash tendered less the change given is the amount paid, i.e. the total. When a line above the cash line
 * prints exactly that amount and the total chosen by its label differs, the paid amount wins (a "Total GST" or
 * "Total incl. 6% GST" line read as the total does not add up with the cash and change).
 */
export function paidTotal(doc: DocLayout, f: FieldDef, c: Located | undefined): Located | undefined {
  if (!c || !isGrandTotalField(f)) return c;
  const paid = paidFromChange(
    doc.pages.flatMap((p) => p.lines),
    vocabularyOf(doc),
  );
  const value = typeof c.value === 'number' ? c.value : (c.value as { value?: unknown } | null)?.value;
  if (!paid || (typeof value === 'number' && Math.abs(Math.abs(value) - paid.v) < PAID_TOLERANCE)) return c;
  return {
    ...c,
    value: typeof c.value === 'number' ? paid.v : { ...(c.value as object), value: paid.v },
    page: paid.l.page,
    bbox: [paid.l.x0, paid.l.y0, paid.l.x1, paid.l.y1],
  };
}
/** An amount field asking for the grand total (total, not net, not tax). */
export function isGrandTotalField(f: FieldDef): boolean {
  if (f.data_type !== 'number' && f.data_type !== 'currency') return false;
  const concepts = conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`);
  return concepts.includes('total') && !concepts.includes('net') && !concepts.includes('tax');
}
/** Cash less change equals the total to the cent. */
const PAID_TOLERANCE = 0.005;

/** The largest amount printed, looked for on summary lines first. */
export function largestAmount(lines: Line[], ctx: DocContext): { l: Line; v: number } | undefined {
  // Amounts on a summary line (total, due, amount, payment …) first: a table quantity may be larger.
  const summary = lines.filter((l) => conceptTokens(l.text).some((c) => c === 'total' || c === 'due' || c === 'amount' || c === 'payment'));
  let best: { l: Line; v: number } | undefined;
  for (const pool of [summary, lines]) {
    for (const l of pool)
      for (const n of findNumbers(l.text, ctx))
        if (n.quality === 1 && (!best || Math.abs(n.value as number) > Math.abs(best.v))) best = { l, v: n.value as number };
    if (best) break;
  }
  return best;
}

/** A rounding adjustment under a rounding adjustment is followed at most this many times. */
const MAX_ROUNDING_DEPTH = 2;
/** A rounding adjustment or discount is printed within this many lines under the total. */
const UNDER_TOTAL_LINES = 3;
/** A rounding adjustment (or a rounded total's difference) is less than this (ten cents). */
const ROUNDING_LIMIT = 0.1;
/**
 * Cash totals are rounded to the smallest coin after the total is printed ("Total 22.91 / Rounding Adj -0.01"):
 * when a line right under the chosen total is such an adjustment (a few cents), the amount paid is the sum, and a
 * rounded total printed there (within ten cents) is taken as it is. A rounded total chosen by its label is left
 * as it is (the adjustment then lies above it).
 */
export function withRounding(doc: DocLayout, f: FieldDef, c: Located | undefined, depth = 0): Located | undefined {
  if (!c || depth > MAX_ROUNDING_DEPTH || !isGrandTotalField(f)) return c;
  const value = typeof c.value === 'number' ? c.value : (c.value as { value?: unknown } | null)?.value;
  if (typeof value !== 'number') return c;
  const page = doc.pages.find((p) => p.number === c.page);
  if (!page) return c;
  const mid = (c.bbox[1] + c.bbox[3]) / 2;
  const k = page.lines.findIndex((l) => l.y0 <= mid && l.y1 >= mid);
  if (k < 0) return c;
  const withValue = (v: number, l?: Line): Located => ({
    ...c,
    value: typeof c.value === 'number' ? v : { ...(c.value as object), value: v },
    ...(l ? { bbox: [l.x0, l.y0, l.x1, l.y1] as Located['bbox'] } : {}),
  });
  const v = vocabularyOf(doc);
  const summary = totalAboveTaxSummary(page.lines, k, v);
  if (summary) return withRounding(doc, f, withValue(Math.sign(value || 1) * summary.v, summary.l), depth + 1);
  const net = totalAfterDiscount(page.lines, k, value, v);
  if (net) return withRounding(doc, f, withValue(net.v, net.l), depth + 1);
  for (const l of page.lines.slice(k + 1, k + 1 + UNDER_TOTAL_LINES)) {
    if (!v.party.rounding.test(l.text)) continue;
    // A rounded total printed under the exact one ("Total 22.93 / Rounded Total 22.95") is the amount paid.
    if (v.party.amountToPay.test(l.text)) {
      const t = /(\d[\d,]*)[.,](\d{2})\s*\W*$/.exec(l.text);
      const rounded = t ? Number(t[1]!.replace(/,/g, '')) + Number(t[2]) / 100 : NaN;
      if (Math.abs(rounded - Math.abs(value)) < ROUNDING_LIMIT) return withValue(Math.sign(value || 1) * rounded);
      continue;
    }
    // "Rounding", "Rounding Adj.", "Round Adjustment" (OCR: "Rour ding Adjustment"): the amount read leniently,
    // "-0.01", "-,01", "(0.02)", "0.03-".
    const m = /(\(?)(-?)\s*(\d{0,2})[.,](\d{2})(\)?)(-?)\s*\W*$/.exec(l.text);
    if (!m) return c;
    const sign = m[2] || m[6] || (m[1] && m[5]) ? -1 : 1;
    const adj = sign * (Number(m[3] || '0') + Number(m[4]) / 100);
    if (Math.abs(adj) >= ROUNDING_LIMIT || adj === 0) continue;
    return withValue(Math.round((value + adj) * 100) / 100);
  }
  return c;
}

/** An amount ending a line, with an optional currency mark before it (sign, integer part, cents captured). */
const TRAILING_AMOUNT = new RegExp(`(-?)\\s*(?:${CURRENCY_MARK_SOURCE}|[$€£])?\\s*(-?)(\\d[\\d,]*)[.,](\\d{2})\\s*-?\\W{0,2}$`, 'iu');

/** The amount ending a line ("TOTAL (RM) 36.00", "RM 24.50", "-0.70", "(1.20)"), if it ends with one. */
function trailingAmount(t: string): number | undefined {
  const m = TRAILING_AMOUNT.exec(t.trim());
  if (!m) return undefined;
  const v = Number(m[3]!.replace(/,/g, '')) + Number(m[4]) / 100;
  return m[1] || m[2] ? -v : v;
}

// A tax breakdown table's header ("GST Summary  Amount(RM)  Tax(RM)", "VAT analysis", "Tax Code"): the packs' tax and
// summary words.

/** A tax breakdown's header is looked for within this many lines above the chosen total. */
const TAX_SUMMARY_REACH = 5;
/** The document's total is looked for within this many lines above a tax breakdown or a cash line. */
const TOTAL_REACH = 12;
/**
 * The total row of a tax breakdown printed under the receipt ("GST Summary / SR @ 6% 33.96 2.04 / TOTAL 33.96
 * 2.04") sums base and tax, not the amount paid: the last total line above that table is the document's total.
 */
function totalAboveTaxSummary(lines: Line[], k: number, vocab: Vocabulary): { l: Line; v: number } | undefined {
  const header = lines
    .slice(Math.max(0, k - TAX_SUMMARY_REACH), k)
    .reverse()
    .findIndex((l) => vocab.party.taxSummary.test(l.text));
  if (header < 0) return undefined;
  const h = k - 1 - header;
  for (let j = h - 1; j >= Math.max(0, h - TOTAL_REACH); j--) {
    const t = lines[j]!.text;
    const cs = conceptTokens(t.replace(/[\d.,]+/g, ' '));
    if (!cs.includes('total') && !cs.includes('due')) continue;
    if (cs.some((x) => x === 'net' || x === 'tax' || x === 'quantity' || x === 'description' || x === 'discount')) continue;
    const v = trailingAmount(t);
    if (v !== undefined && v > 0) return { l: lines[j]!, v };
  }
  return undefined;
}

/** The total after a discount is printed within this many lines under the discount. */
const NET_TOTAL_REACH = 2;
/** The total after a discount equals the total less the discount to the cent (with float slack). */
const DISCOUNT_TOLERANCE = 0.011;
/**
 * A discount printed under the total, then a total line again ("TOTAL 7.00 / DISCOUNT 0.70 / NETT TOTAL 6.30"):
 * the amount paid is that later line, when it is the total less the discount.
 */
function totalAfterDiscount(lines: Line[], k: number, value: number, vocab: Vocabulary): { l: Line; v: number } | undefined {
  for (let j = k + 1; j < Math.min(lines.length, k + 1 + UNDER_TOTAL_LINES); j++) {
    if (!vocab.party.discountLine.test(lines[j]!.text)) continue;
    // A deposit or prepayment deducted after the total ("Less deposit received") leaves the total as it is: the
    // balance below it is what remains to pay, not the document's total.
    if (vocab.party.depositWord.test(lines[j]!.text)) return undefined;
    const d = trailingAmount(lines[j]!.text);
    if (d === undefined || d === 0) return undefined;
    for (const l of lines.slice(j + 1, j + 1 + NET_TOTAL_REACH)) {
      if (!vocab.party.amountToPay.test(l.text)) continue;
      const v = trailingAmount(l.text);
      if (v !== undefined && Math.abs(v - (value - Math.abs(d))) < DISCOUNT_TOLERANCE) return { l, v };
    }
    return undefined;
  }
  return undefined;
}

// The cash-tendered and change lines' words come from the locale packs (`tendered`, `change`).

/** The change line is printed within this many lines under the cash line. */
const CHANGE_REACH = 2;
/**
 * "CASH 50.00 / CHANGE 33.04": the amount paid is 16.96; the last line above the cash line printing exactly that
 * amount is the total, whatever its label reads (an OCR-garbled "T otal").
 */
export function paidFromChange(lines: Line[], vocab: Vocabulary): { l: Line; v: number } | undefined {
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!vocab.tendered.test(lines[i]!.text)) continue;
    const cash = trailingAmount(lines[i]!.text);
    const ch = lines.slice(i + 1, i + 1 + CHANGE_REACH).find((l) => vocab.change.test(l.text));
    const change = ch ? trailingAmount(ch.text) : undefined;
    if (cash === undefined || change === undefined || change < 0 || change >= cash) continue;
    const v = Math.round((cash - change) * 100) / 100;
    for (let j = i - 1; j >= Math.max(0, i - TOTAL_REACH); j--) {
      const a = trailingAmount(lines[j]!.text);
      if (a !== undefined && Math.abs(a - v) < PAID_TOLERANCE) return { l: lines[j]!, v };
    }
  }
  return undefined;
}
