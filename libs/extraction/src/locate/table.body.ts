/** The body of a table under its header: which lines are rows, and where the table ends. */
import { segments, spaceBetween } from '../layout/layout.builder.js';
import type { Line, Page, Word } from '../layout/layout.types.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';
import { conceptTokens, fold, isKnownConcept, wordConcepts } from './label.matcher.js';
import { EMPTY_CELL_MARK, FIGURE, type Column, type Header } from './table.model.js';
import { withoutCurrencyMark } from '../parsers/currency.parser.js';
import { rowRules } from './table.ruled.js';

/** The locale packs' table words (carry-over phrases, note words, total modifiers, "page"): table lines are judged
 * without their document, so every shipped pack applies. */
const VOCAB = allPacksVocabulary();
const STOP = new Set(['total', 'net', 'tax']);

/** Lines below this fraction of the page height are its footer ("Page 1 of 2", bank details). */
const FOOTER_BAND = 0.85;
/** A rule this close above a header line's bottom (page units) is still the header's own underline. */
const RULE_SLACK = 1;

/** Words that mean "total" only in front of one ("Grand total", "Sub total"), not in "Grand Canyon", "Sub-Saharan". */
const MODIFIERS = VOCAB.totalModifiers;

export function isStopLine(line: Line): boolean {
  // Any cell opening with a totals word ("Subtotal", "Total TTC", "Factuur totaal", "incl. BTW") closes the items.
  const segs = segments(line, 1.5);
  // (The cell's opening words, before any figure of the line: a totals word after a figure is a row's tax column,
  // "$6.71 22 VAT 5%" or "… ‖ 15.00 ‖ VAT 20%", not a label.)
  return segs.some((seg, si) => !segs.slice(0, si).some((s) => /\d/.test(s.text)) && opensWithTotals(seg, STOP));
}

/** Concepts of a cell that totals the items wherever it stands on a line (a row may print a tax rate, never a total). */
const TOTAL_ONLY = new Set(['total']);

/**
 * A cell after the first opening with a "total" word, its figure after it ("20 % ‖ 550.00 ‖ 110.00 ‖ Total VAT ‖
 * 127.88"): the totals block printed beside another table (a VAT breakdown), not an item row.
 */
function holdsTotalCell(line: Line): boolean {
  const segs = segments(line, 1.5);
  return segs.some((seg, si) => si > 0 && opensWithTotals(seg, TOTAL_ONLY) && segs.slice(si).some((s) => /\d/.test(s.text)));
}

/** How many words open `words` with a rate ("7 %", "19%", "5,5 %"); 0 when none does. */
function rateWords(words: readonly Word[]): number {
  if (/^\d{1,2}(?:[.,]\d{1,2})?%$/.test(words[0]?.text ?? '')) return 1;
  return /^\d{1,2}(?:[.,]\d{1,2})?$/.test(words[0]?.text ?? '') && words[1]?.text === '%' ? 2 : 0;
}

/** Whether a cell opens with a word of `concepts` (a modifier, "Grand", "Sub", counts only right before one). */
function opensWithTotals(seg: Line, concepts: ReadonlySet<string>): boolean {
  // (A rate opening the cell, "7 % Umsatzsteuer", is the tax line's own: the words after it open the cell.)
  const words = seg.words.slice(rateWords(seg.words));
  const figure = words.findIndex((w) => /\d/.test(w.text));
  const texts = words.slice(0, Math.min(3, figure < 0 ? 3 : figure)).map((w) => w.text);
  // (A label printed onto its figure, "Total:£64.50", opens the cell as well.)
  const glued = figure >= 0 && figure < 3 ? /^(\p{L}[\p{L}.]*):/u.exec(words[figure]!.text)?.[1] : undefined;
  if (glued) texts.push(glued);
  if (
    !wordConcepts(texts)
      .flat()
      .some((c) => concepts.has(c))
  )
    return false;
  // Token by token, so that a modifier counts only right before a totals word.
  const toks = texts.flatMap((t) =>
    fold(t)
      .split(/[^\p{L}\p{N}]+/u)
      .filter(Boolean),
  );
  const at = toks.findIndex((t, i) =>
    MODIFIERS.has(t) ? conceptTokens(toks[i + 1] ?? '').some((c) => concepts.has(c)) : conceptTokens(t).some((c) => concepts.has(c)),
  );
  // (As the cell's first or second word, or after label words, modifiers and figures only: "Sous-total", "Montant
  // total HT", "Betrag inkl. MwSt." open with it, an item named "Camping hammock net" does not.)
  const labelWord = (t: string) => /\d/.test(t) || MODIFIERS.has(t) || conceptTokens(t).some(isKnownConcept);
  return at >= 0 && (at <= TOTALS_WORD_LAST_START || toks.slice(0, at).every(labelWord));
}
/** The last token index (0-based) at which a totals word opens a cell whatever the words before it. */
const TOTALS_WORD_LAST_START = 1;

/**
 * A line of running text: one cell of many words, crossing the boundaries of at least two printed header
 * columns (a wrapped cell stays within its column or runs under one neighbour).
 */
/** A run of at least this many words may be prose even when it holds a figure. */
const PROSE_MIN_WORDS = 6;
/** A line set in at least this many runs apart is printed cell by cell (a row), never prose. */
const ROW_MIN_CELLS = 3;
/** A run whose printed words are more than this share figures (and ± signs) is a row of figures, never prose. */
const PROSE_MAX_FIGURE_SHARE = 0.5;

/** A run ending in at least this many figures is a row whose label runs close to its figures, never prose. */
const ROW_TRAILING_FIGURES = 2;

/** How many figures end a run's printed words. */
function trailingFigures(words: readonly string[]): number {
  let n = 0;
  while (n < words.length && isFigureWord(words[words.length - 1 - n]!)) n++;
  return n;
}

function isProse(line: Line, cols: Column[], lh: number): boolean {
  const segs = segments(line, 1.2);
  // A line printed in several cells apart is a row however long its cells run: prose is set without wide gaps.
  if (segs.length >= ROW_MIN_CELLS) return false;
  const named = cols.filter((c) => c.field && !c.inferred);
  return segs.some((seg) => {
    const words = printedWords(seg);
    if (words.length < 6 && seg.text.length < 40) return false;
    if (words.filter(isFigureWord).length > words.length * PROSE_MAX_FIGURE_SHARE) return false;
    // (Nor a run ending in figures, "Hand tools and spare parts 4.20 -310.75 12.06": a long row label set close to them.)
    if (trailingFigures(words) >= ROW_TRAILING_FIGURES) return false;
    // (A run opening with a figure or date, "30/09/2024 J. Doe Site survey 5", is a row whose cells are set close.)
    if (/^[\d(+-]/.test(seg.words[0]?.text ?? '')) return false;
    // (Nor a short run with a figure or code in it, "Quill Network Services 821-15/2031-DS": cells set close.)
    if (words.length < PROSE_MIN_WORDS && seg.words.some((w) => /\d/.test(w.text))) return false;
    const crossed = named.filter((c) => seg.x0 < c.x0 - lh && seg.x1 > c.x0 + lh).length;
    return crossed >= 2;
  });
}

/**
 * The words a reader sees in a run: pieces printed without a space between them are one ("+2" "." "90", a figure
 * typeset in math mode, comes as three pieces from the PDF's fonts).
 */
function printedWords(seg: Line): string[] {
  const out: string[] = [];
  seg.words.forEach((w, i) => (i > 0 && !spaceBetween(seg.words[i - 1]!, w) ? (out[out.length - 1] += w.text) : out.push(w.text)));
  return out;
}

/** A footnote's mark opening a line: an asterisk, dagger or section sign (one to three), or a superscript figure. */
const FOOTNOTE_MARK = /^(?:[*†‡§]{1,3}|[¹²³⁴⁵⁶⁷⁸⁹])(?=\s|\p{L})/u;

/**
 * A footnote under the rows ("* Restated for the merger."): a line opening with a note mark and printing no figure. (A
 * row marked for a footnote prints its figures.)
 */
function isFootnote(line: Line): boolean {
  return FOOTNOTE_MARK.test(line.text) && !printedWords(line).some((w) => isFigureWord(w) && /\d/.test(w));
}

/** A time of day as a timetable prints it ("07:56", "9:05"). */
const TIME_OF_DAY = /^\d{1,2}:\d{2}$/;

/**
 * A printed figure ("86.7", "−2.64", "46.8%", "(1,200)", "07:56"), the ± between a figure and its spread, or the mark
 * of an empty cell among figures.
 */
const isFigureWord = (w: string) => w === '±' || FIGURE.test(w) || TIME_OF_DAY.test(w) || EMPTY_CELL_MARK.test(w);

/** Carry-over lines of a table split over pages (folded text). */
export const CARRY = VOCAB.carryOver;

/**
 * Lines of the table body: from below the header until a wide vertical gap (relative to the rows' own
 * pitch), the next header, or — for line items — a totals line. Unit lines right under the header
 * ("kg/year", no digits, not in the first column) are header, not data.
 */
export function bodyLines(
  page: Page,
  h: Header,
  lh: number,
  lineItems: boolean,
  isHeaderStart: (li: number) => boolean,
  resumeAt?: number,
): { lines: Line[]; toPageEnd: boolean } {
  const lines = page.lines;
  const out: Line[] = [];
  // A continued table (no header on this page) starts at its first row.
  const from = resumeAt ?? h.lastLine + 1;
  let prevY = resumeAt !== undefined ? lines[resumeAt]!.y0 : lines[h.lastLine]!.y1;
  // The table ran on to the foot of the page (nothing after it but the page footer): it may go on overleaf.
  const footerOnly = (li: number) => lines.slice(li).every((l) => l.y0 > page.height * FOOTER_BAND);
  const done = (toPageEnd: boolean) => ({ lines: out, toPageEnd });
  const pitches: number[] = [];
  const firstX1 = h.columns[0]?.x1 ?? 0;
  const { figuresX0 } = figuresStart(h);
  // (Every printed text column: the description may follow a date or code column.)
  const textCols = h.columns.filter((c) => c.field?.data_type === 'string' && !c.inferred);
  const ruleYs = rowRules(page.rules, Math.min(...h.columns.map((c) => c.x0)), Math.max(...h.columns.map((c) => c.x1)));
  const headerBottom = lines[h.lastLine]?.y1 ?? -Infinity;
  // (A table of two columns prints its rows in two cells.)
  const rowCells = Math.min(ROW_MIN_CELLS, Math.max(2, h.columns.filter((c) => c.field).length));
  for (let li = from; li < lines.length; li++) {
    const line = lines[li]!;
    const gap = line.y0 - prevY;
    const wide = gap > lh * 4 || gapEndsTable({ lines, li, out, pitches, lh }, gap);
    if (wide && !rowsResume(lines, li, { out, lh, gap, cells: rowCells })) return done(footerOnly(li));
    if (isHeaderStart(li) && li > h.lastLine + 2) return done(false);
    // "Source: …" / "Note: …" under a table closes it; so does prose running across the columns.
    if (VOCAB.tableNote.test(line.text)) return done(false);
    if (out.length && isFootnote(line)) return done(false);
    if (!lineItems && isProse(line, h.columns, lh)) return done(false);
    const verdict = lineItems ? itemLineVerdict(lines, li, out, { lh, figuresX0, footerOnly }) : undefined;
    if (verdict === 'skip') {
      prevY = line.y1;
      continue;
    }
    if (verdict) return done(verdict === 'ends-page');
    if (!out.length && isUnitLineAboveRows(line, { firstX1, lineItems, textCols, ruleYs, headerBottom })) {
      prevY = line.y1;
      continue;
    }
    if (out.length) pitches.push(Math.max(0, gap));
    out.push(line);
    prevY = line.y1;
  }
  return done(true);
}

/**
 * What a line means for line items: 'ends' (a totals or summary line closes the items), 'ends-page' (the items go on
 * overleaf), 'skip' (a subtotal the items run on after), or undefined (a body line).
 */
function itemLineVerdict(
  lines: Line[],
  li: number,
  out: Line[],
  at: { lh: number; figuresX0: number; footerOnly: (li: number) => boolean },
): 'ends' | 'ends-page' | 'skip' | undefined {
  const line = lines[li]!;
  if (out.some((l) => /\d/.test(l.text)) && isStopLine(line)) {
    // (A tax word in the page footer, "VAT ID: …" under the last rows, is the letterhead's: the items may go on.)
    if (at.footerOnly(li)) return 'ends-page';
    if (!subtotalGoesOn(lines, li, at.lh)) return 'ends';
    // (Unless it prints an item's figures: "Landing net ‖ 11.00 4 44.00 ‖ …" names a totals word, it is no subtotal.)
    if (!printsItemFigures(line)) return 'skip';
  }
  // A carry line at the foot of the items ("Carried forward", "Übertrag", "À reporter") with only the page footer
  // after it: the table goes on overleaf.
  if (out.length && CARRY.test(fold(line.text)) && at.footerOnly(li + 1)) return 'ends-page';
  if (isSummaryLine(line, out, at.figuresX0, at.lh)) return 'ends';
  // (Under a header repeated overleaf, the totals may follow at once, no item row before them: a totals line that
  // starts under the figures, "Total due 1,240.00", is no item either.)
  if (!out.length && isStopLine(line) && /\d/.test(line.text) && line.x0 >= at.figuresX0 - at.lh * 0.5) return 'ends';
  return undefined;
}

/**
 * A line before the first row that belongs to the header: units under it ("kg/year": no digits, not in the first
 * column) — not a line of text under the text column's header (the first item's description, printed above its
 * figures), nor a line ruled off from the header (it is in the first ruled row, whose figures are centred below it).
 */
function isUnitLineAboveRows(
  line: Line,
  at: { firstX1: number; lineItems: boolean; textCols: Column[]; ruleYs: number[]; headerBottom: number },
): boolean {
  const underText = at.textCols.some((c) => line.words.some((w) => w.x1 > c.x0 && w.x0 < c.x1));
  const ruledOff = at.ruleYs.some((y) => y > at.headerBottom - RULE_SLACK && y < line.y0);
  return !/\d/.test(line.text) && line.x0 > at.firstX1 && !(at.lineItems && underText) && !ruledOff;
}

/**
 * Where the figures start: the first number column right of the text column. A line of line items whose text
 * starts there is the summary block printed under the figures ("Warenwert ‖ 610,00", "Rabatt 10 % ‖ -61,00"),
 * not an item: items start at the left, in their position or text column.
 */
function figuresStart(h: Header): { textCol: Column | undefined; figuresX0: number } {
  const textCol = h.columns.find((c) => c.field?.data_type === 'string' && !c.inferred);
  const figures = h.columns.filter((c) => c.field && c.field.data_type !== 'string' && !c.inferred && textCol && c.x0 > textCol.x1);
  const figuresX0 = figures.length ? Math.min(...figures.map((c) => c.x0)) : Infinity;
  return { textCol, figuresX0 };
}

/** Whether the gap above line `li` is wider than the body's rows are spaced (once two pitches are known). */
function gapEndsTable(at: { lines: Line[]; li: number; out: Line[]; pitches: number[]; lh: number }, gap: number): boolean {
  const { lines, li, out, pitches, lh } = at;
  if (pitches.length < 2) return false;
  const line = lines[li]!;
  const med = [...pitches].sort((a, b) => a - b)[Math.floor(pitches.length / 2)]!;
  // In units of the body's own text height: a header printed larger must not stretch the table's reach.
  const heights = out.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
  const unit = Math.min(lh, heights[Math.floor(heights.length / 2)]!);
  // A blank line between groups of rows does not end the table when the line after it is printed cell by cell
  // on the table's own column edges (row groups spaced apart); a paragraph or caption is not.
  const groupStart = onColumnEdges(line, out, lh) || isGroupCaption(line, lines[li + 1], out, lh);
  return gap > Math.max(unit * 1.2, med * 2.5) && !(gap <= unit * ROW_GROUP_GAP && groupStart);
}

/** A line printing at least this many figures between item rows is an item (a subtotal prints one or two). */
const ITEM_ROW_FIGURES = 3;

/** Whether a line prints an item row's figures (quantity, prices, amounts). */
function printsItemFigures(line: Line): boolean {
  return line.words.filter((w) => FIGURE.test(withoutCurrencyMark(w.text))).length >= ITEM_ROW_FIGURES;
}

/** A figure-less totals line of at least this many cells is a header row. */
const HEADER_ROW_CELLS = 3;

/**
 * A section subtotal inside the table ("Subtotal $ 112.00", then more items) does not end it:
 * look past it (and a section caption) for another item row; the closing totals block has none.
 */
function subtotalGoesOn(lines: Line[], li: number, lh: number): boolean {
  const line = lines[li]!;
  // (A row of label cells without a figure, "Rate ‖ Net ‖ VAT ‖ Total", is the header of the next table — a VAT
  // breakdown — not a section subtotal: a subtotal prints its amount.)
  if (!/\d/.test(line.text) && segments(line, 1.5).length >= HEADER_ROW_CELLS) return false;
  const next = [lines[li + 1], lines[li + 2]].find(
    (l) => l && !isStopLine(l) && !holdsTotalCell(l) && /\d/.test(l.text) && segments(l, 1.2).length >= 3,
  );
  const between = next ? lines.slice(li + 1, lines.indexOf(next)) : [];
  return !(!next || between.some((l) => isStopLine(l)) || next.y0 - line.y1 > lh * 5);
}

/** A line of the summary block under the figures, after item rows with figures (see figuresStart). */
function isSummaryLine(line: Line, out: Line[], figuresX0: number, lh: number): boolean {
  // (A summary line carries its amount: a word alone under a figure, "month" under "6.00", is that cell's unit.)
  return (
    out.some((l) => /\d/.test(l.text)) &&
    /^\p{L}/u.test(line.words[0]?.text ?? '') &&
    /\d/.test(line.text) &&
    line.x0 >= figuresX0 - lh * 0.5
  );
}

/** Widest gap, in line heights, over which rows printed on the table's column edges still belong to it. */
const ROWS_RESUME_GAP = 8;
/** Lines printed cell by cell on the column edges, one after the other, that resume the table after a wide gap. */
const ROWS_RESUME_LINES = 2;
/** How many lines after the gap are looked at for those rows (group captions may stand among them). */
const ROWS_RESUME_WINDOW = 4;

/**
 * Rows go on after a wide gap (groups of rows set well apart, nothing printed between them): among the next few lines,
 * set close one under the other, at least `ROWS_RESUME_LINES` are printed in at least `ROW_MIN_CELLS` cells on the
 * column edges of the rows above, and every other one is a group caption (one run of words, no figure, starting
 * where the rows' first cells start). A paragraph or a block of another shape after the gap ends the table as before.
 */
function rowsResume(lines: Line[], li: number, at: { out: Line[]; lh: number; gap: number; cells: number }): boolean {
  const { out, lh, gap, cells } = at;
  if (gap > lh * ROWS_RESUME_GAP || out.length < ROWS_RESUME_LINES) return false;
  const next = closeRun(lines.slice(li, li + ROWS_RESUME_WINDOW), lh);
  // (Rows with figures go on with figures: a line of words on the same edges is the header of the next table.)
  const figures = out.filter((l) => /\d/.test(l.text)).length * 2 > out.length;
  const rowLike = (l: Line) => segments(l, 1.2).length >= cells && onColumnEdges(l, out, lh) && (!figures || /\d/.test(l.text));
  const caption = (l: Line) => segments(l, 1.2).length === 1 && !/\d/.test(l.text) && startsOnFirstCells(l, out, lh);
  const rows = next.filter(rowLike).length;
  return rows >= ROWS_RESUME_LINES && rowLike(next[0]!) && next.every((l) => rowLike(l) || caption(l));
}

/** The lines from the first on, while each is set within a line height or so of the one before. */
function closeRun(lines: Line[], lh: number): Line[] {
  const end = lines.findIndex((l, i) => i > 0 && l.y0 - lines[i - 1]!.y1 > lh * 1.5);
  return end < 0 ? lines : lines.slice(0, end);
}

/** Whether a line starts where the first cells of the rows start. */
function startsOnFirstCells(line: Line, rows: Line[], lh: number): boolean {
  return rows.some((r) => Math.abs(r.x0 - line.x0) <= lh * EDGE_SLACK);
}

/** Widest gap, in body text heights, that may separate groups of rows of one table (about two blank lines). */
const ROW_GROUP_GAP = 3;
export /** How far, in line heights, a cell edge may stray from the column edge it is printed on. */
const EDGE_SLACK = 0.5;

/**
 * Whether `line` reads as a line of the table whose lines so far are `rows`: two or more cells, every one
 * starting or ending where cells of the rows above start or end (text is left-aligned, figures right-aligned).
 */
function onColumnEdges(line: Line, rows: Line[], lh: number): boolean {
  const segs = segments(line, 1.2);
  if (segs.length < 2 || rows.length === 0) return false;
  const cells = rows.flatMap((l) => segments(l, 1.2));
  const near = (a: number, b: number) => Math.abs(a - b) <= lh * EDGE_SLACK;
  const off = segs.filter((sg) => !cells.some((c) => near(c.x0, sg.x0) || near(c.x1, sg.x1))).length;
  // (A row label set in or out from its column, a group's first row, may stray when the line has cells enough.)
  return off === 0 || (segs.length >= STRAY_CELL_MIN_CELLS && off === 1);
}

/**
 * A group's caption: one run of words on an edge of the table's cells (the row labels' column), set close above a
 * line printed on the column edges ("Consumption:" over its rows).
 */
function isGroupCaption(line: Line, next: Line | undefined, rows: Line[], lh: number): boolean {
  const segs = segments(line, 1.2);
  if (segs.length !== 1 || !next || next.y0 - line.y1 > lh || /\d/.test(line.text)) return false;
  const cells = rows.flatMap((l) => segments(l, 1.2));
  const near = (a: number, b: number) => Math.abs(a - b) <= lh * EDGE_SLACK;
  const edged = cells.some((c) => near(c.x0, segs[0]!.x0) || near(c.x1, segs[0]!.x1));
  return edged && segments(next, 1.2).length >= 2 && onColumnEdges(next, rows, lh);
}

/** A line of at least this many cells may have one cell off the table's column edges and still be on them. */
const STRAY_CELL_MIN_CELLS = 3;
