import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Line, Rule, Word } from '../layout/layout.types.js';
import { makeLine } from '../layout/layout.builder.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { parseNumber } from '../parsers/number.parser.js';
import { gridTable, isPositional } from './table.grid.js';
import { headerlessItems } from './table.headerless.js';
import { mergeBands, type RowBand } from './table.bands.js';
import { groupRows, isDiscountBand } from './table.rows.js';
import { columnRules, regroupByRules } from './table.ruled.js';
import { isStopLine } from './table.body.js';
import { gutterColumns } from './table.columns.js';
import { findHeaders, isTaken, pageHint } from './table.header.js';
import { asStrongAs, EMPTY_CELL_MARK, namesMoney, type Header } from './table.model.js';
import { tableParts, type TablePart } from './table.pages.js';
import { withTrailingColumn } from './table.trailing.js';
import { lineItemCells, preferWordyText, reconcileArithmetic, stripItemCode } from './table.roles.js';
import { figureColumns, lineCells, type PartColumns } from './table.wordcells.js';

export { findHeaders } from './table.header.js';
export { stripItemCode } from './table.roles.js';

export interface TableResult {
  rows: Record<string, unknown>[];
  confidence: number;
  page: number;
  bbox: [number, number, number, number];
}

type Box = [number, number, number, number];

/** Cell placeholders for "none" / "not available": an empty cell's mark (EMPTY_CELL_MARK), or a colon alone. */
const isPlaceholder = (t: string) => EMPTY_CELL_MARK.test(t) || t === ':';

/** Dot leaders run from a row label to its figures ("Revenue ........ 12,480"): this many dots or more ending a cell. */
const LEADER = /\s*(?:[.·…](?:\s?)){4,}$/u;

/** Confidence of a table read off the cells' alignment alone. */
const GRID_CONFIDENCE = 0.6;

/** Line items (priced rows): a number column named price or amount. */
function isLineItems(field: FieldDef): boolean {
  return (field.fields ?? []).some((c) => c.data_type !== 'string' && namesMoney(c));
}

/**
 * The pages a table of the schema may lie on: each page printing a header of a table field, and the page after it
 * (where the table may go on). The ruled lines of those pages are worth reading.
 */
export function tablePages(doc: DocLayout, fields: readonly FieldDef[]): number[] {
  const pages = new Set<number>();
  for (const f of fields)
    if (f.data_type === 'table' && !isPositional(f)) for (const h of findHeaders(doc, f)) pages.add(h.page).add(h.page + 1);
  return [...pages].sort((a, b) => a - b);
}

/** Extracts a table field: rows under each matching header, continued across pages, stopping at totals. */
/**
 * `taken` holds headers already used by earlier table fields of the schema, so that two fields with the
 * same columns (one table printed twice, or a table per page) get distinct tables, in document order.
 */
/**
 * `rivals`: the schema's other table fields. A copy of the header further down the page starts a section of this table
 * (a table printed in sections, each under its own copy of the header, is one table) unless a rival names that header
 * line at least as well: then it heads the rival's table (two fields with the same columns get a copy each).
 */
export function extractTable(
  doc: DocLayout,
  field: FieldDef,
  ctx: DocContext,
  taken: Set<string> = new Set(),
  rivals: readonly FieldDef[] = [],
): TableResult | undefined {
  // Columns named by position only: no header to look for, the cells' alignment gives the columns.
  if (isPositional(field)) {
    const t = gridTable(doc, field, ctx, taken, pageHint(field));
    return t ? { ...t, confidence: GRID_CONFIDENCE } : undefined;
  }
  const found = findHeaders(doc, field);
  const headers = found.filter((h) => !isTaken(h, taken));
  if (!headers.length) return headerlessTable(doc, field, ctx, taken);
  const { best, chosen, headerStarts } = chooseHeaders(headers, rivalClaims(doc, rivals));
  for (const key of rivalStarts(doc, rivals, headers)) headerStarts.add(key);
  // Line items (priced rows) end at the totals; in other tables a "Total" row is a row like any other.
  const lineItems = isLineItems(field);
  const parts = tableParts({ doc, field, chosen, found, lineItems, headerStarts, taken }).map((p) => withTrailingColumn(p, field));
  const rows: Record<string, unknown>[] = [];
  let bbox: Box | undefined;
  let figuresFirst = false;
  parts.forEach((part) => {
    const read = partRows(part, ctx, figuresFirst);
    figuresFirst = read.figuresFirst;
    if (rows.length) carryOver(rows[rows.length - 1]!, read.carried);
    for (const r of read.rows) rows.push(r);
    if (read.bbox) bbox = growBox(bbox, read.bbox);
  });
  if (!rows.length) return undefined;
  return { rows, confidence: Math.min(1, 0.5 + 0.5 * best.score), page: best.page, bbox: bbox ?? [0, 0, 0, 0] };
}

/** No header names the columns: an item list printed without one is read off its aligned amounts. */
function headerlessTable(doc: DocLayout, field: FieldDef, ctx: DocContext, taken: Set<string>): TableResult | undefined {
  if (!isLineItems(field) || taken.has('headerless')) return undefined;
  const t = headerlessItems(doc, field, ctx, isStopLine);
  if (!t) return undefined;
  taken.add('headerless');
  return { ...t, confidence: 0.5 };
}

/**
 * The headers whose bodies make the table: the best header, later ones with its columns on later pages (and, when the
 * table is `alone` of its columns in the schema, below it on its page: sections under repeated headers), and the
 * header lines that start another table (ending a body). `claimed` scores the header lines the schema's other tables
 * name (`page:line` → best score).
 */
function chooseHeaders(headers: Header[], claimed: readonly Header[]): { best: Header; chosen: Header[]; headerStarts: Set<string> } {
  // Keep the best header (earliest among near-equal ones) and any later header with the same columns.
  const top = Math.max(...headers.map((h) => h.score));
  // (Among near-equal headers, the one placing more of the schema's columns, named or guessed between its captions.)
  const placed = (h: Header) => h.columns.filter((c) => c.field).length;
  const near = headers.filter((h) => h.score >= top - 0.05);
  const keyOf = (h: Header) => h.columns.map((c) => c.field?.key ?? '').join(',');
  const top1 = firstInReadingOrder(near.filter((h) => placed(h) === Math.max(...near.map(placed))));
  // (The same header on an earlier page, about as good, starts the table: a repeat that scores higher on a later page
  // continues it, and the first page's items are the table's too.)
  const earlier = headers.filter((h) => h.page < top1.page && keyOf(h) === keyOf(top1) && asStrongAs(h, top1));
  const best = earlier.length ? firstInReadingOrder(earlier) : top1;
  // (A section's header is about as good as the first, naming as many columns: not a data row naming a column.)
  const strong = (h: Header) => asStrongAs(h, best);
  const ours = (h: Header) => claimed.every((r) => !sharesLines(r, h) || r.score < h.score);
  const section = (h: Header) => h.page === best.page && h.lineIndex > best.lineIndex && strong(h) && ours(h);
  // (A header on a later page goes on with this table unless the schema's other table names that line better.)
  const later = (h: Header) => (h.page > best.page && ours(h)) || section(h);
  const chosen = headers.filter((h) => h === best || (keyOf(h) === keyOf(best) && later(h)));
  // Only a header about as good as the chosen one, naming as many columns, starts another table; weak matches inside the body
  // (a data row that happens to name a column) do not end it.
  const headerStarts = new Set(headers.filter(strong).map(headerKey));
  return { best, chosen, headerStarts };
}

const headerKey = (h: Header) => `${h.page}:${h.lineIndex}`;

/** A header's x extent: its bounds beside another table, else from its first named column to its last. */
function span(h: Header): [number, number] {
  if (h.bounds) return h.bounds;
  const cols = h.columns.filter((c) => c.field);
  return [Math.min(...cols.map((c) => c.x0)), Math.max(...cols.map((c) => c.x1))];
}

/**
 * Whether `a` comes before `b` in reading order: an earlier page; on one page, a table standing wholly left of the
 * other (the columns of a two-column page, or tables side by side) is read first, else the higher one.
 */
function readsBefore(a: Header, b: Header): boolean {
  if (a.page !== b.page) return a.page < b.page;
  const [a0, a1] = span(a);
  const [b0, b1] = span(b);
  if (a1 <= b0) return true;
  if (b1 <= a0) return false;
  return a.lineIndex < b.lineIndex;
}

/** Of equally good headers, the one no other precedes in reading order (the earliest printed when that is circular). */
function firstInReadingOrder(headers: Header[]): Header {
  return headers.find((h) => !headers.some((o) => o !== h && readsBefore(o, h))) ?? headers[0]!;
}

/** The headers the other table fields of the schema find. */
function rivalClaims(doc: DocLayout, rivals: readonly FieldDef[]): Header[] {
  return rivals.flatMap((r) => (isPositional(r) ? [] : findHeaders(doc, r)));
}

/**
 * Do two headers read some line in common? (A stacked header's lower line, "Q1 Q2 Q3 Q4" under "Type Item Claims",
 * may be another table's whole header.)
 */
function sharesLines(a: Header, b: Header): boolean {
  return a.page === b.page && a.lineIndex <= b.lastLine && b.lineIndex <= a.lastLine;
}

/**
 * The header lines that start another table of the schema (so end this one's body): each rival's headers about as good
 * as its best, naming as many columns, unless this field names the same line better (its own section's header). A
 * report printing one table under the next has nothing else between them but a caption.
 */
function rivalStarts(doc: DocLayout, rivals: readonly FieldDef[], own: Header[]): string[] {
  const ownScore = new Map(own.map((h) => [headerKey(h), h.score]));
  return rivals.flatMap((r) => {
    const found = isPositional(r) ? [] : findHeaders(doc, r);
    if (!found.length) return [];
    const top = found.reduce((a, b) => (b.score > a.score ? b : a));
    const strong = found.filter((h) => asStrongAs(h, top));
    return strong.filter((h) => (ownScore.get(headerKey(h)) ?? -Infinity) <= h.score).map(headerKey);
  });
}

/** The smallest box holding both. */
function growBox(box: Box | undefined, b: Box): Box {
  return box ? [Math.min(box[0], b[0]), Math.min(box[1], b[1]), Math.max(box[2], b[2]), Math.max(box[3], b[3])] : b;
}

/** The columns of one part of the table and the keys they hold. */
function partColumns({ h, lh, body, rules }: TablePart): PartColumns {
  const cols = h.columns;
  const numeric = new Set(cols.filter((c) => c.field && c.field.data_type !== 'string').map((c) => c.field!.key));
  // Money columns (prices, amounts): a row without any of them is no line item of a priced table.
  const money = new Set(cols.filter((c) => c.field && c.field.data_type !== 'string' && namesMoney(c.field)).map((c) => c.field!.key));
  // Vertical rules through the body are column borders: no cell's text runs across one.
  const walls = body.length ? columnRules(rules, Math.min(...body.map((l) => l.y0)), Math.max(...body.map((l) => l.y1))) : [];
  const assign = gutterColumns(
    body,
    cols,
    lh,
    walls.map((w) => w.x),
  );
  const textKeys = cols.filter((c) => c.field && !numeric.has(c.field.key)).map((c) => c.field!.key);
  return { cols, numeric, money, assign, textKeys, lh, walls, figures: figureColumns(body, cols, assign, numeric) };
}

/** The text of the lines carried over to the last row of the part before (text column key → text). */
type Carried = Record<string, string>;

/** Appends text carried over from the next page to a row's text cells. */
function carryOver(row: Record<string, unknown>, carried: Carried): void {
  for (const [k, v] of Object.entries(carried))
    if (row[k] === undefined || typeof row[k] === 'string') row[k] = row[k] ? `${row[k] as string} ${v}` : v;
}

/**
 * A priced table's part that continues one on the page before whose rows print their figures on their first line: the
 * lines that open its body without a figure are the last row's text run on past the page end (a note under the page's
 * last item), and a discount line there is that item's adjustment; both leave the lines to read. (Where rows print their
 * figures beside a later line, text above them opens the row: that part is read as it is.)
 */
function carriedLines(read: ReadLines, env: PartColumns): Carried {
  const carried: Carried = {};
  while (read.perLine.length) {
    const b = read.perLine[0]!;
    const figures = Object.entries(b.cells).some(([k, v]) => env.numeric.has(k) && /\d/.test(v));
    if (figures && !isDiscountBand(b, env.numeric)) break;
    if (!figures)
      for (const k of env.textKeys)
        if (b.cells[k]?.trim()) carried[k] = carried[k] ? `${carried[k]} ${b.cells[k]!.trim()}` : b.cells[k]!.trim();
    read.perLine.shift();
    read.lineExtras.shift();
    read.kept.shift();
  }
  return carried;
}

/** The typed rows of one part of the table (a header's body on one page), and the box of their lines. */
function partRows(
  whole: TablePart,
  ctx: DocContext,
  continued = false,
): { rows: Record<string, unknown>[]; bbox?: Box; carried: Carried; figuresFirst: boolean } {
  const part = withinBounds(whole);
  const env = partColumns(part);
  const perLine: RowBand[] = [];
  const lineExtras: Record<string, string>[] = [];
  const kept: Line[] = [];
  for (const line of part.body) {
    const read = lineCells(line, env, ctx.dateOrder);
    if (!read) continue;
    perLine.push(read.band);
    lineExtras.push(read.extras);
    kept.push(line);
  }
  const read: ReadLines = { perLine, lineExtras, kept };
  const carried = continued && env.money.size > 0 ? carriedLines(read, env) : {};
  const { pending, bbox, figuresFirst } = joinRows(read, env, part.rules);
  const { cols, money } = env;
  if (money.size > 0) preferWordyText(pending, cols, ctx.dateOrder);
  if (money.size > 0) lineItemCells(pending, cols, ctx);
  reconcileArithmetic(pending, cols, ctx);
  return { rows: typedRows(pending, env, ctx), bbox, carried, figuresFirst };
}

/** A part of a table printed beside another: its body lines with only the words within its bounds (starting there). */
function withinBounds(part: TablePart): TablePart {
  const b = part.h.bounds;
  if (!b) return part;
  const inside = (w: Word) => w.x0 >= b[0] - part.lh * BOUND_SLACK && w.x0 < b[1] - part.lh * BOUND_SLACK;
  const body = part.body.flatMap((l) => {
    const words = l.words.filter(inside);
    return words.length ? [makeLine(words, l.page)] : [];
  });
  return { ...part, body };
}

/** A word may start this many line heights left of a side-by-side table's bound and still be its own. */
const BOUND_SLACK = 0.5;

/** A part's body lines read into cells: one band each, with the text of unclaimed columns and the line itself. */
interface ReadLines {
  perLine: RowBand[];
  lineExtras: Record<string, string>[];
  kept: Line[];
}

/** The lines' cells joined into rows (a row's cells may wrap over several lines), and the box of those lines. */
function joinRows(
  { perLine, lineExtras, kept }: ReadLines,
  env: PartColumns,
  rules: readonly Rule[] | undefined,
): { pending: Record<string, string>[]; bbox?: Box; figuresFirst: boolean } {
  const { cols, numeric, money, lh } = env;
  const pending: Record<string, string>[] = [];
  let bbox: Box | undefined;
  const bands = mergeBands(perLine);
  const firstCol = [...cols].sort((a, b) => a.x0 - b.x0)[0];
  const rowBands = bands.map((b) => b.band);
  const grouped = groupRows(rowBands, { numeric, money, columns: cols.filter((c) => c.field).length, firstKey: firstCol?.field?.key, lh });
  // Rows ruled off from each other stay apart, and a row's lines between its rules stay together.
  const x0 = Math.min(...kept.map((l) => l.x0), ...cols.map((c) => c.x0));
  const x1 = Math.max(...kept.map((l) => l.x1), ...cols.map((c) => c.x1));
  const groups = regroupByRules(rowBands, grouped, rules, { x0, x1, numeric });
  for (const g of groups) {
    const members = g.members.map((i) => bands[i]!);
    const anchor = bands[g.anchor]!;
    const row: Record<string, string> = { ...Object.assign({}, ...anchor.lines.map((i) => lineExtras[i]!)) };
    for (const m of members) {
      for (const [k, v] of Object.entries(m.band.cells)) {
        if (!v.trim()) continue;
        // Numbers are not joined across lines: the anchor's (or else the first) value stands.
        if (numeric.has(k)) row[k] ??= anchor.band.cells[k] ?? v;
        else row[k] = row[k] ? `${row[k]} ${v}` : v;
      }
    }
    pending.push(row);
    for (const m of members)
      for (const i of m.lines) {
        const line = kept[i]!;
        bbox = growBox(bbox, [line.x0, line.y0, line.x1, line.y1]);
      }
  }
  // (Rows whose figures stand on their first line: text above a row's figures is the row before's.)
  const topLine = (g: (typeof groups)[number]) => Math.min(...g.members.flatMap((m) => bands[m]!.lines));
  const hasFigure = (b: RowBand) => Object.entries(b.cells).some(([k, v]) => numeric.has(k) && /\d/.test(v));
  const figuresFirst = groups.length >= FIGURES_FIRST_MIN_ROWS && groups.every((g) => hasFigure(perLine[topLine(g)]!));
  return { pending, bbox, figuresFirst };
}

/** Rows a part needs to tell that its rows print their figures on their first line. */
const FIGURES_FIRST_MIN_ROWS = 2;

/** A cell printing a percentage and nothing else ("12.5 %", "-3%"). */
const PERCENT_CELL = /^\s*([-+−]?\s?\d[\d.,' \u00a0\u202f]*)\s?%\s*$/u;

/**
 * A number column's cell that prints a percentage: its figure (the parsers leave rates out of amounts, "VAT 20%", but
 * in a column of rates the rate is the value; a rate under a price or amount header stays out of it).
 */
function percentCell(raw: string, type: string, ctx: DocContext): number | undefined {
  const m = type === 'number' ? PERCENT_CELL.exec(raw) : null;
  return m ? parseNumber(m[1]!.replace(/\s/g, ''), ctx.decimal) : undefined;
}

/** The rows' cells read as their columns' types; rows left with no value are dropped. */
function typedRows(pending: Record<string, string>[], { cols, money }: PartColumns, ctx: DocContext): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  for (const r of pending) {
    const out: Record<string, unknown> = {};
    for (const c of cols) {
      if (!c.field) continue;
      const raw = r[c.field.key];
      if (raw === undefined) continue;
      // A dash, dots, a colon or a bar alone in a cell is printed content ("no value"; a train passing a stop), kept as
      // printed.
      const text = money.size > 0 ? stripItemCode(raw) : raw;
      const v =
        c.field.data_type === 'string'
          ? cleanString(text.replace(LEADER, '')) || (isPlaceholder(raw.trim()) ? raw.trim() : '')
          : (findTyped(raw, c.field.data_type, ctx)[0]?.value ??
            (money.has(c.field.key) ? undefined : percentCell(raw, c.field.data_type, ctx)));
      if (v !== undefined && v !== '') out[c.field.key] = v;
    }
    if (Object.keys(out).length) rows.push(out);
  }
  return rows;
}
