/**
 * Item lists printed without a header row ("Cloud Backup ‖ $0.01" line after line): when no header names
 * the columns, the columns are read off the data itself. Only strong evidence counts — a run of several lines
 * with a description on the left and amounts right-aligned at the same x on the right — so that a document
 * without such a list still gets no rows.
 */
import type { FieldDef } from '../engine.types.js';
import { segments } from '../layout/layout.builder.js';
import type { DocLayout, Line } from '../layout/layout.types.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { splitCountInText } from './table.cells.js';
import { lineItemRoles } from './table.roles.js';

export interface HeaderlessTable {
  rows: Record<string, unknown>[];
  page: number;
  bbox: [number, number, number, number];
}

/** A decimal amount alone in its cell, with an optional currency sign or code: "$4.11", "1.234,50 EUR", "(12.00)". */
const AMOUNT = /^(?:[A-Z]{3}\s?)?[(\-–]?[$€£¥]?\s?\d{1,3}(?:[.,'\s]?\d{3})*[.,]\d{2}\)?(?:\s?[A-Z]{3})?$/;

interface Candidate {
  line: Line;
  /** Left edge of the description. */
  x0: number;
  /** Right edge of the last amount (amounts are right-aligned). */
  x1: number;
  text: string;
  amounts: string[];
}

/** A line reading "description ‖ amount [‖ amount …]": words on the left, only amounts after them. */
function candidate(line: Line): Candidate | undefined {
  const segs = segments(line, 1.2);
  if (segs.length < 2) return undefined;
  const [first, ...rest] = segs;
  if (!/\p{L}{2,}/u.test(first!.text) || AMOUNT.test(first!.text.trim())) return undefined;
  if (!rest.every((s) => AMOUNT.test(s.text.trim()))) return undefined;
  return { line, x0: first!.x0, x1: rest[rest.length - 1]!.x1, text: first!.text, amounts: rest.map((s) => s.text.trim()) };
}

/**
 * Runs of candidate lines: same number of amounts, last amounts right-aligned within a line height, no wide
 * vertical gap. A stray mark on its own line overlapping the previous one (an OCR'd footnote star) is skipped.
 */
function runs(lines: Line[]): Candidate[][] {
  const out: Candidate[][] = [];
  let cur: Candidate[] = [];
  const close = () => {
    if (cur.length) out.push(cur);
    cur = [];
  };
  for (const line of lines) {
    const c = candidate(line);
    const last = cur[cur.length - 1];
    const lh = last ? last.line.y1 - last.line.y0 : 0;
    if (!c) {
      if (last && line.y0 < last.line.y1 && !/\p{L}{2,}|\d/u.test(line.text)) continue;
      close();
      continue;
    }
    if (last && (c.amounts.length !== last.amounts.length || Math.abs(c.x1 - last.x1) > lh * 1.5 || c.line.y0 - last.line.y1 > lh * 3))
      close();
    cur.push(c);
  }
  close();
  return out;
}

/**
 * Items of a run: lines printed at the outermost indent. Lines indented under an item ("Charges", "VAT") are
 * its breakdown, not items; a totals line at the outer indent ends the list.
 */
function items(run: Candidate[], lh: number, isStop: (l: Line) => boolean): Candidate[] {
  const outer = Math.min(...run.map((c) => c.x0));
  const out: Candidate[] = [];
  for (const c of run) {
    if (c.x0 > outer + lh * 0.5) continue;
    if (isStop(c.line)) break;
    out.push(c);
  }
  return out;
}

/**
 * The longest run of at least three items on any page, mapped to the schema: the description to the first
 * text column, the amounts right to left onto the number columns (the line total is the last column).
 */
export function headerlessItems(
  doc: DocLayout,
  field: FieldDef,
  ctx: DocContext,
  isStop: (l: Line) => boolean,
): HeaderlessTable | undefined {
  const cols = field.fields ?? [];
  const text = cols.find((c) => c.data_type === 'string');
  const numbers = cols.filter((c) => c.data_type === 'number' || c.data_type === 'currency');
  if (!text || numbers.length === 0) return undefined;
  let best: { page: number; items: Candidate[] } | undefined;
  for (const page of doc.pages) {
    for (const run of runs(page.lines)) {
      if (run.length < 3 || run[0]!.amounts.length > numbers.length) continue;
      const lh = Math.min(...run.map((c) => c.line.y1 - c.line.y0));
      const found = items(run, lh, isStop);
      if (found.length >= 3 && found.length > (best?.items.length ?? 0)) best = { page: page.number, items: found };
    }
  }
  if (!best) return undefined;
  // The cells as printed, the amounts in the last number columns; then a count printed in the text ("2 x … @ 3.00").
  const printed = best.items.map((c) => {
    const row: Record<string, string> = { [text.key]: c.text };
    const targets = numbers.slice(numbers.length - c.amounts.length);
    c.amounts.forEach((a, i) => (row[targets[i]!.key] = a));
    return row;
  });
  const { quantity, price, amount } = lineItemRoles(cols);
  if (quantity) splitCountInText(printed, { description: text.key, quantity, price, amount }, ctx);
  const rows = printed.map((cells) => {
    const row: Record<string, unknown> = {};
    for (const [k, raw] of Object.entries(cells)) {
      const f = cols.find((c) => c.key === k)!;
      const v = f === text ? cleanString(raw) : findTyped(raw, f.data_type, ctx)[0]?.value;
      if (v !== undefined && v !== '') row[k] = v;
    }
    return row;
  });
  const ls = best.items.map((c) => c.line);
  return {
    rows,
    page: best.page,
    bbox: [
      Math.min(...ls.map((l) => l.x0)),
      Math.min(...ls.map((l) => l.y0)),
      Math.max(...ls.map((l) => l.x1)),
      Math.max(...ls.map((l) => l.y1)),
    ],
  };
}
