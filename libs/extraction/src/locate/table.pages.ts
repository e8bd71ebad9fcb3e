/** Tables that go on overleaf without their header printed again. */
import type { FieldDef } from '../engine.types.js';
import { segments } from '../layout/layout.builder.js';
import type { DocLayout, Line, Page, Rule, Word } from '../layout/layout.types.js';
import { withoutCurrencyMark } from '../parsers/currency.parser.js';
import { fold } from './label.matcher.js';
import { bodyLines, CARRY, isStopLine } from './table.body.js';
import { pageHint, takenKey } from './table.header.js';
import { asStrongAs, namesMoney, type Column, type Header } from './table.model.js';

/**
 * A table continued overleaf without its header resumes right under the next page's running head (a letterhead,
 * "Invoice 123 (continued)"), which sits within this top fraction of the page …
 */
const RUNNING_HEAD_BAND = 0.15;
export /** … and only a table that filled its page down to here (below this fraction of the height) is taken to go on. */
const FILLED_BAND = 0.7;

/**
 * Where a table that ran to the foot of the previous page resumes on `page` when the header is not printed
 * again: the first line that reads as one of its rows — for line items a figure under a money column with text
 * before it, otherwise cells under at least two of the named columns and every cell under one of the table's
 * columns (named, or found from the rows: a header cut at the page edge names none). Only a running head ("Invoice 123
 * (continued)", a letterhead) may come before it; anything else first, a totals line, or a header with these
 * columns anywhere on the page means the table does not continue. Returns -1 then.
 */
export function resumeLine(page: Page, h: Header, lh: number, lineItems: boolean, headers: Header[]): number {
  const named = h.columns.filter((c) => c.field && !c.inferred);
  const moneyCols = named.filter((c) => c.field!.data_type !== 'string' && namesMoney(c.field!));
  const under = (w: Word, c: Column) => Math.min(w.x1, c.x1 + lh) - Math.max(w.x0, c.x0 - lh) > 0;
  // A page that prints a header with these columns starts a table of its own (perhaps another field's); a weak match
  // (a unit line merged with the rows under it naming a column or two) is no such header.
  if (headers.some((x) => x.page === page.number && asStrongAs(x, h))) return -1;
  const figure = (w: Word) => /^[-+(]?[\d.,' ]*\d[\d.,']*\)?-?$/.test(withoutCurrencyMark(w.text));
  for (let li = 0; li < page.lines.length; li++) {
    const line = page.lines[li]!;
    if (isStopLine(line)) return -1;
    // The sum brought forward from the page before ("Brought forward", "Übertrag") is no row.
    if (CARRY.test(fold(line.text))) continue;
    const segs = segments(line, 1.2);
    let row: boolean;
    if (lineItems && moneyCols.length) {
      const priced = line.words.some((w) => figure(w) && moneyCols.some((c) => under(w, c)));
      const texted = line.words.some((w) => /\p{L}{2,}/u.test(w.text) && w.x1 < Math.min(...moneyCols.map((c) => c.x0)));
      row = segs.length >= 2 && priced && texted;
    } else {
      const hit = new Set(line.words.map((w) => named.findIndex((c) => under(w, c))).filter((i) => i >= 0));
      row =
        segs.length >= 2 &&
        hit.size >= Math.min(2, named.length) &&
        segs.every((sg) => h.columns.some((c) => sg.x0 < c.x1 + lh && sg.x1 > c.x0 - lh));
    }
    if (row) return li;
    // (Nor the wrapped cell of the last row overleaf: it stays in one column past the first.)
    if (isCarriedCell(line, h, lh)) continue;
    // Only the running head may come before the first row.
    if (line.y1 > page.height * RUNNING_HEAD_BAND) return -1;
  }
  return -1;
}

/** A header's body on one page (the header itself, or where its table resumes overleaf), with the header's line height. */
export interface TablePart {
  h: Header;
  lh: number;
  body: Line[];
  /** The ruled lines of the part's page, when read. */
  rules?: readonly Rule[];
}

/**
 * A line printing one cell under one named column past the table's first: a row's cell wrapped over the page break
 * ("Card payment" on one page, "MERCHANT 4411" overleaf before the next row). (A row prints its first column's cell.)
 */
function isCarriedCell(line: Line, h: Header, lh: number): boolean {
  const segs = segments(line, 1.2);
  if (segs.length !== 1 || isStopLine(line)) return false;
  const named = h.columns.filter((c) => c.field && !c.inferred);
  const under = named.filter((c) => line.x0 < c.x1 + lh && line.x1 > c.x0 - lh);
  return under.length === 1 && under[0] !== named[0] && line.x0 > named[0]!.x1;
}

/**
 * The wrapped cells a row carries over the page break (`above`, the lines before the next page's first row) join the
 * body before the break, set under its last line at their own spacing, so that they read as that row's cell.
 */
function carryOver(body: Line[], above: readonly Line[], h: Header, lh: number): void {
  const last = body[body.length - 1];
  const start = above.findIndex((l) => isCarriedCell(l, h, lh));
  if (!last || start < 0 || !above.slice(start).every((l) => isCarriedCell(l, h, lh))) return;
  const carried = above.slice(start);
  const spacing = carried.length > 1 ? carried[1]!.y0 - carried[0]!.y1 : CARRIED_SPACING * lh;
  const dy = last.y1 + spacing - carried[0]!.y0;
  for (const l of carried)
    body.push({ ...l, y0: l.y0 + dy, y1: l.y1 + dy, words: l.words.map((w) => ({ ...w, y0: w.y0 + dy, y1: w.y1 + dy })) });
}
/** A single carried line is set this many line heights under the last line before the break. */
const CARRIED_SPACING = 0.3;

/** What the parts of a table are looked for with. */
export interface PartsQuery {
  doc: DocLayout;
  field: FieldDef;
  /** The headers whose bodies make the table. */
  chosen: Header[];
  /** Every header found for the field (a page printing one starts a table of its own). */
  found: Header[];
  lineItems: boolean;
  /** "page:line" of the header lines that start another table. */
  headerStarts: Set<string>;
  /** Headers used by earlier table fields: the chosen ones are added. */
  taken: Set<string>;
}

/**
 * Each chosen header's body, and where a body runs to the foot of its page and the next page does not print
 * the header again, the rows at the top of the next page (and so on).
 */
export function tableParts(q: PartsQuery): TablePart[] {
  const parts: TablePart[] = [];
  for (const h of q.chosen) {
    q.taken.add(takenKey(h));
    const page = q.doc.pages.find((p) => p.number === h.page)!;
    const header = page.lines[h.lineIndex]!;
    const lh = Math.max(1, header.y1 - header.y0);
    const part = bodyLines(page, h, lh, q.lineItems, (li) => q.headerStarts.has(`${h.page}:${li}`));
    parts.push({ h, lh, body: part.lines, rules: page.rules });
    partsOverleaf(q, { h, lh, body: part.lines }, part.toPageEnd, parts);
  }
  return parts;
}

/** The parts of a table that goes on overleaf from `first` (which ran to the foot of its page when `toPageEnd`). */
function partsOverleaf(q: PartsQuery, first: TablePart, toPageEnd: boolean, parts: TablePart[]): void {
  const { doc, field, chosen, found, lineItems, headerStarts } = q;
  const { h, lh } = first;
  let part = { lines: first.body, toPageEnd };
  // (Not for a table the schema places on one page: "Table 2 (page 3)".)
  const onePage = pageHint(field) !== undefined && doc.pages.some((p) => p.number === pageHint(field));
  for (let n = h.page + 1; part.toPageEnd && !onePage; n++) {
    const here = doc.pages.find((p) => p.number === n - 1)!;
    // (A header alone at the foot of its page, nothing under it but the page footer, has every row overleaf.)
    const last = part.lines[part.lines.length - 1] ?? (n === h.page + 1 ? here.lines[h.lastLine] : undefined);
    if (!last || last.y1 < here.height * FILLED_BAND) break;
    const next = doc.pages.find((p) => p.number === n);
    if (!next || chosen.some((c) => c.page === n)) break;
    const from = resumeLine(next, h, lh, lineItems, found);
    if (from < 0) break;
    carryOver(part.lines, next.lines.slice(0, from), h, lh);
    const cont: Header = { ...h, page: n, lineIndex: from - 1, lastLine: from - 1 };
    part = bodyLines(next, cont, lh, lineItems, (li) => headerStarts.has(`${n}:${li}`), from);
    parts.push({ h: cont, lh, body: part.lines, rules: next.rules });
  }
}
