import { isItemCodeLine } from './constraints.js';
import { conceptTokens } from './label.matcher.js';
import { smallerFrom, type RowBand } from './table.bands.js';
import { dropNotesBelow } from './table.rows.notes.js';
import { type BandKind, claimWrappedLines } from './table.rows.pitch.js';
import { breakForced, continuesText, isPeriodLine } from './table.wrap.js';

export { continuesText } from './table.wrap.js';

/**
 * Turning the lines of a table body into rows. Printed rows are not lines: a cell may wrap onto several
 * lines, and its short neighbours are then printed at the top, bottom or vertical centre of the row. So lines
 * are first merged into bands (lines that overlap vertically cannot be separate rows), then each band is an
 * anchor (it starts a row) or a continuation that joins the nearest anchor, cut where the vertical gaps say.
 */

export interface RowRules {
  /** Keys of number-typed columns. */
  numeric: Set<string>;
  /** Keys of price/amount columns: their tables are line items, whose rows always carry an amount. */
  money: Set<string>;
  /** Number of columns the header assigned to schema fields. */
  columns: number;
  /** Key of the table's leftmost column (the row labels), when it is a schema column. */
  firstKey?: string;
  /** Header line height: the unit for vertical gaps. */
  lh: number;
}

export interface RowGroup {
  anchor: number;
  /** Band indices of the row (anchor included), top to bottom. */
  members: number[];
}

/** A gap this many times the usual line spacing (plus half a unit) is wider than the table's own line spacing. */
const GAP_SLACK = 1.15;

const filledKeys = (b: RowBand) => Object.keys(b.cells).filter((k) => (b.cells[k] ?? '').trim() !== '');

/** Longest single token read as a figure or code ("1b", "2.4%", "A-17"): longer tokens are words that hold a digit. */
const MAX_CODE_LENGTH = 12;
/** A cell that is one figure or code: such a cell never wraps, so a second one in the same column is a second row. */
const isCodeCell = (s: string | undefined) => !!s && /^\S+$/.test(s.trim()) && s.trim().length <= MAX_CODE_LENGTH && /\d/.test(s);

/** Whether a priced band lies within `limit` of band `i`, above or below it (the row the split cell belongs to). */
function moneyNear(bands: RowBand[], i: number, hasMoney: (b: RowBand) => boolean, limit: number): boolean {
  const b = bands[i]!;
  const above = bands[i - 1];
  const below = bands[i + 1];
  return (!!below && hasMoney(below) && below.y0 - b.y1 < limit) || (!!above && hasMoney(above) && b.y0 - above.y1 < limit);
}

/** A table whose first column is filled on at least this share of its bands has row labels (groupRows' 'first' mode). */
const FIRST_COLUMN_FILL = 0.6;
/** Lines of one row lie closer than this many header line heights. */
const ROW_GAP_LIMIT = 0.9;
/** Bands looked back over for the row label a band's label may continue. */
const LABEL_LOOKBACK = 3;
/** Page units added to a gap scaled by GAP_SLACK or WIDER_GAP before comparing (gaps a unit apart are equal). */
const GAP_SLACK_UNITS = 0.5;
/** A run of continuations is cut at a gap this many times wider than the gap it is compared with (plus the units above). */
const WIDER_GAP = 1.15;
/** A band whose text starts this many line heights right of the rows' text is indented under its row (a note). */
const NOTE_INDENT = 0.8;

/** The facts about a table's bands that every stage of groupRows reads. */
interface RowScan {
  bands: RowBand[];
  r: RowRules;
  /** How a row's anchor is told: by its row label ('first'), by a figure ('numeric'), or by filling columns ('text'). */
  mode: 'first' | 'numeric' | 'text';
  /** Widest vertical gap between two lines of one row. */
  limit: number;
  /** The median vertical gap between consecutive bands: the table's usual line spacing. */
  usualGap: number;
  /** Right edge of the row-label column: the widest label line printed in it. */
  labelRight: number;
  hasNumeric: (b: RowBand) => boolean;
  hasMoney: (b: RowBand) => boolean;
  has: (b: RowBand, k: string | undefined) => boolean;
}

/** The running state of bandKinds: the kinds so far, the open row's cells, where the rows' text starts. */
interface KindState {
  kind: BandKind[];
  textX0: number | undefined;
  lastAnchor: number;
  rowCells: Record<string, string>;
}

/**
 * Groups bands into rows. The anchor of a row is, in a line-item table, the band with a number (an item
 * always has its amount); in a table whose first column is (nearly) always filled, a band with a row label
 * that does not read as the wrapped label above it; otherwise a band filling more than one column. The
 * continuations between two anchors go to the one above, except after the widest vertical gap of that run
 * (lines printed above a vertically centred or bottom-aligned cell go down).
 */
export function groupRows(bands: RowBand[], r: RowRules): RowGroup[] {
  const scan = rowScan(bands, r);
  const kind = bandKinds(scan);
  dropTrailingLabels(scan, kind);
  if (scan.mode !== 'numeric') claimWrappedLines(bands, kind);
  dropNotesBelow(bands, kind, r, scan.hasMoney);
  liftWrappedLabels(scan, kind);
  return joinContinuations(scan, kind);
}

/**
 * A row label wrapped onto the next row's line ("Chronic cough ‖ Count ‖ 19" over "syndrome ‖ Share ‖ 3.8%": a label
 * spanning two sub-rows) belongs to the row above: the next row's first cell reads on from it and would not have fitted
 * after it. Its text moves up; the row below keeps its own cells.
 */
function liftWrappedLabels({ bands, r, mode, labelRight }: RowScan, kind: BandKind[]): void {
  const k = r.firstKey;
  if (mode !== 'first' || !k) return;
  for (let i = 1; i < bands.length; i++) {
    const [above, below] = [bands[i - 1]!, bands[i]!];
    if (kind[i - 1] !== 'anchor' || kind[i] !== 'anchor' || filledKeys(below).length < 2) continue;
    const [a, b] = [above.cells[k] ?? '', below.cells[k] ?? ''];
    if (!continuesText(a, b) || !breakForced(above, below, k, labelRight, r.lh)) continue;
    above.cells[k] = `${a.trim()} ${b.trim()}`;
    delete below.cells[k];
  }
}

function rowScan(bands: RowBand[], r: RowRules): RowScan {
  const digits = (b: RowBand, k: string) => /\d/.test(b.cells[k] ?? '');
  const has = (b: RowBand, k: string | undefined) => k !== undefined && (b.cells[k] ?? '').trim() !== '';
  const firstFill = r.firstKey ? bands.filter((b) => has(b, r.firstKey)).length / Math.max(1, bands.length) : 0;
  const mode =
    r.money.size === 0 && r.firstKey && firstFill >= FIRST_COLUMN_FILL && bands.length >= 2
      ? 'first'
      : r.numeric.size > 0
        ? 'numeric'
        : 'text';
  // The median vertical gap between consecutive bands: the table's usual line spacing.
  const gaps = bands
    .slice(1)
    .map((b, i) => b.y0 - bands[i]!.y1)
    .sort((a, b) => a - b);
  return {
    bands,
    r,
    mode,
    limit: r.lh * ROW_GAP_LIMIT,
    usualGap: gaps.length ? gaps[Math.floor(gaps.length / 2)]! : 0,
    labelRight: labelEdge(bands, r),
    hasNumeric: (b) => [...r.numeric].some((k) => digits(b, k)),
    hasMoney: (b) => [...r.money].some((k) => digits(b, k)),
    has,
  };
}

/** The gutter kept between a label and the next column's text, in line heights. */
const LABEL_GUTTER = 0.6;

/**
 * Right edge of the row-label column, where a label must break for want of room: the widest label line, or, when the
 * next column's text starts further right, that start less a gutter (a label ending well before it had room left).
 */
function labelEdge(bands: RowBand[], r: RowRules): number {
  const k = r.firstKey;
  if (!k) return -Infinity;
  const widest = Math.max(-Infinity, ...bands.map((b) => b.geom?.[k]?.x1 ?? -Infinity));
  const starts = bands.flatMap((b) => Object.entries(b.geom ?? {}).flatMap(([c, g]) => (c !== k && g.x0 > widest ? [g.x0] : [])));
  return starts.length ? Math.max(widest, Math.min(...starts) - r.lh * LABEL_GUTTER) : widest;
}

const gapAbove = (bands: RowBand[], i: number) => (i > 0 ? bands[i]!.y0 - bands[i - 1]!.y1 : Infinity);

/** Every band's kind, top to bottom, each judged against the row open above it. */
function bandKinds(scan: RowScan): BandKind[] {
  const st: KindState = { kind: [], textX0: undefined, lastAnchor: -1, rowCells: {} };
  scan.bands.forEach((b, i) => {
    const filled = filledKeys(b);
    const k = bandKind(scan, st, i, filled);
    st.kind.push(k);
    if (k === 'cont') for (const c of filled) st.rowCells[c] = `${st.rowCells[c] ?? ''} ${b.cells[c]}`;
    if (k === 'anchor') {
      st.rowCells = { ...b.cells };
      st.lastAnchor = i;
      if (Number.isFinite(b.textX0)) st.textX0 = Math.min(st.textX0 ?? b.textX0, b.textX0);
    }
  });
  return st.kind;
}

function bandKind(scan: RowScan, st: KindState, i: number, filled: string[]): BandKind {
  const { bands, r } = scan;
  const b = bands[i]!;
  if (scan.mode === 'first') return labelledKind(scan, st, i, filled);
  if (r.money.size === 0 && st.lastAnchor >= 0 && filled.some((c) => isCodeCell(b.cells[c]) && isCodeCell(st.rowCells[c]))) {
    // A figure or code under the row's own figure or code in the same column ("1a" then "1b" under it) is a
    // sub-row: one-token cells do not wrap. (Not in line items, whose rows are priced.)
    return 'anchor';
  }
  if (scan.mode === 'numeric') return numericKind(scan, st, i, filled);
  // Text tables: a line filling one column right under a fuller row is that row's wrapped cell.
  const prevFilled = st.lastAnchor >= 0 ? filledKeys(bands[st.lastAnchor]!).length : 0;
  const close = gapAbove(bands, i) < scan.limit && st.kind[i - 1] !== 'drop';
  return close && ((filled.length === 1 && prevFilled >= 2) || wrapsUnderKey(scan, st, i, filled)) ? 'cont' : 'anchor';
}

/**
 * A line of a text table that leaves the first column empty where every row so far filled it (an id, a name) is the
 * open row's cells wrapped, when it fills fewer columns than any row or each of its cells reads on from the row's
 * own ("… signed and" over "retried with backoff. ‖ team"). (A row under a label spanning rows fills the rest.)
 */
function wrapsUnderKey({ bands, r, has }: RowScan, st: KindState, i: number, filled: string[]): boolean {
  const b = bands[i]!;
  const anchors = st.kind.flatMap((k, j) => (k === 'anchor' ? [bands[j]!] : []));
  if (!anchors.length || has(b, r.firstKey) || !anchors.every((a) => has(a, r.firstKey))) return false;
  const fewest = Math.min(...anchors.map((a) => filledKeys(a).length));
  return filled.length < fewest - 1 || filled.every((c) => continuesText(st.rowCells[c] ?? '', b.cells[c]!));
}

/** A band of a table with row labels: a row of its own, or the label of the row above wrapped. */
function labelledKind(scan: RowScan, st: KindState, i: number, filled: string[]): BandKind {
  const { bands, r, has } = scan;
  const b = bands[i]!;
  const gapUp = gapAbove(bands, i);
  // The row label of the nearest band above that has one: a label continuing it is the same cell wrapped.
  let prevLabel: string | undefined;
  let prevIndex = -1;
  for (let j = i - 1; j >= 0 && j >= i - LABEL_LOOKBACK && prevLabel === undefined; j--)
    if (has(bands[j]!, r.firstKey)) {
      prevLabel = bands[j]!.cells[r.firstKey!];
      prevIndex = j;
    }
  // A band repeating values the row above already has (numbers in the same columns) is a row of its own
  // (a sub-row "Percentage ‖ 16.4%" under "Count ‖ 81"), whatever its label looks like.
  const clash = st.lastAnchor >= 0 && filled.some((c) => c !== r.firstKey && /\d/.test(b.cells[c]!) && /\d/.test(st.rowCells[c] ?? ''));
  // A label line that only exists because the label above ran out of room (its first word would not have
  // fitted after it in the label column) is that label wrapped, whatever its case — when one of the two
  // lines carries no figures: a label-only line under a row, or a row whose label began on a label-only line.
  const prevBand = prevIndex >= 0 ? bands[prevIndex]! : undefined;
  // (At the table's usual line spacing: a heading printed with space above it is no wrap.)
  const forced =
    !!prevBand &&
    !clash &&
    gapUp <= scan.usualGap * GAP_SLACK + GAP_SLACK_UNITS &&
    (filled.length === 1 || filledKeys(prevBand).length === 1) &&
    !indentedUnder(prevBand, b, r.firstKey!, r.lh) &&
    !(filled.length === 1 && bands[i + 1] && indentedUnder(b, bands[i + 1]!, r.firstKey!, r.lh)) &&
    breakForced(prevBand, b, r.firstKey!, scan.labelRight, r.lh);
  const wrapped =
    !opensNextRow(scan, i, filled, prevBand) &&
    has(b, r.firstKey) &&
    i > 0 &&
    gapUp < scan.limit &&
    prevLabel !== undefined &&
    (continuesText(prevLabel, b.cells[r.firstKey!]!) || forced);
  return clash || (has(b, r.firstKey) && !wrapped) ? 'anchor' : 'cont';
}

/** A label set further right than the one above by more than this many line heights is indented under it. */
const LABEL_INDENT = 0.5;

/**
 * Does the label of `below` start indented under the label of `above` (a section heading over its rows: "Current
 * assets" over "  Cash")? A cell wrapped for want of room goes on at its own left edge; a label-only line with rows
 * indented under it heads them.
 */
function indentedUnder(above: RowBand, below: RowBand, k: string, lh: number): boolean {
  const [a, b] = [above.geom?.[k]?.x0, below.geom?.[k]?.x0];
  return a !== undefined && b !== undefined && b - a > lh * LABEL_INDENT;
}

/**
 * A label-only line under a complete row, continued by the next line that carries the figures ("Sales of
 * goods" over "and services ‖ 12 ‖ 40"), opens the next row: its figures stand on its last line.
 */
function opensNextRow({ bands, r, has, limit }: RowScan, i: number, filled: string[], prevBand: RowBand | undefined): boolean {
  const b = bands[i]!;
  const next = bands[i + 1];
  return (
    filled.length === 1 &&
    has(b, r.firstKey) &&
    !!prevBand &&
    filledKeys(prevBand).length >= 2 &&
    !!next &&
    has(next, r.firstKey) &&
    filledKeys(next).length >= 2 &&
    next.y0 - b.y1 < limit &&
    continuesText(b.cells[r.firstKey!]!, next.cells[r.firstKey!]!)
  );
}

/** A figure printed negative: a minus before it or after it, or in parentheses. */
const NEGATIVE = /^(?:[-−–]\s?\d.*|\(\s?\d.*\)|\d.*[-−–])$/u;

/**
 * A discount printed under its item ("abzgl. 10 % Rabatt ‖ -12,34", "less 5% discount ‖ (3.71)"): words naming a
 * discount, and nothing in the number columns but negative figures — an adjustment of the item, no item of its own.
 */
export function isDiscountBand(b: RowBand, numeric: Set<string>): boolean {
  const cells = Object.entries(b.cells);
  const figures = cells.filter(([k, v]) => numeric.has(k) && v.trim());
  const text = cells.flatMap(([k, v]) => (numeric.has(k) ? [] : [v])).join(' ');
  return figures.length > 0 && figures.every(([, v]) => NEGATIVE.test(v.trim())) && conceptTokens(text).includes('discount');
}

/** A band of a table with figures: a row (it has one), a cell split over lines, or a note under its row. */
function numericKind(scan: RowScan, st: KindState, i: number, filled: string[]): BandKind {
  const { bands, r, hasMoney, hasNumeric } = scan;
  const b = bands[i]!;
  // Lines indented under the row's text are its notes or bundle parts ("Serienummer: …", "Wireless Mouse ‖ 1"
  // under a bundle): without a price they are no row, and no wrap of the description either. (A band without text,
  // a figure alone, is no note.)
  const indented = st.textX0 !== undefined && Number.isFinite(b.textX0) && b.textX0 > st.textX0 + r.lh * NOTE_INDENT;
  // A code line under an item ("GTIN: 4006381333931", "SKU …", "S/N …") is no part of its description.
  const text = Object.entries(b.cells)
    .filter(([c]) => !r.numeric.has(c))
    .map(([, v]) => v)
    .join(' ');
  // (So is an indented line of text quoting a figure, "less 10% trade discount (-12.00)": a wrapped description is
  // set flush with its first line.)
  const note = hasNumeric(b) || /^\p{L}[\p{L}-]+:$/u.test(b.firstWord) || /\d/.test(text);
  if (st.lastAnchor >= 0 && r.money.size > 0 && !hasMoney(b) && ((indented && note) || isItemCodeLine(text))) return 'drop';
  if (st.lastAnchor >= 0 && r.money.size > 0 && isDiscountBand(b, r.numeric)) return 'drop';
  if (st.lastAnchor < 0 && r.money.size > 0 && !hasNumeric(b) && isPeriodLine(text)) return 'drop';
  // A priced table's row carries its price or amount: a band with a figure but no money (a quantity printed
  // above its row's baseline, "6.00" over "… ‖ 2.11 ‖ 15.19" with "month" under it) is a cell split over lines.
  if (r.money.size > 0 && !hasMoney(b) && moneyNear(bands, i, hasMoney, scan.limit)) return 'cont';
  return hasNumeric(b) || filled.length >= Math.max(2, r.columns - 1) ? 'anchor' : 'cont';
}

/**
 * Label-only lines after the last row of values are the table's notes and footers (a test statistic, a
 * page number), not rows: rows without values stand only between rows with values.
 */
function dropTrailingLabels({ bands, r, mode, has }: RowScan, kind: BandKind[]): void {
  if (mode === 'first' && bands.filter((b) => filledKeys(b).length >= 2).length >= bands.length / 2) {
    for (let i = bands.length - 1; i >= 0 && kind[i] === 'anchor' && filledKeys(bands[i]!).length === 1 && has(bands[i]!, r.firstKey); i--)
      kind[i] = 'drop';
  }
}

/** The rows: each anchor with the continuations that join it. */
function joinContinuations(scan: RowScan, kind: BandKind[]): RowGroup[] {
  const { bands } = scan;
  const groups = new Map<number, number[]>();
  bands.forEach((_, i) => kind[i] === 'anchor' && groups.set(i, [i]));
  // Runs of continuations between anchors: cut at the widest gap (ties: everything joins the row above).
  for (let s = 0; s < bands.length; s++) {
    if (kind[s] !== 'cont') continue;
    let e = s;
    while (e + 1 < bands.length && kind[e + 1] === 'cont') e++;
    joinRun(scan, kind, groups, s, e);
    s = e;
  }
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([anchor, m]) => ({ anchor, members: m.sort((a, b) => a - b) }));
}

/** The continuations s … e: the upper part joins the row above, the lower part the row below, cut at the widest gap. */
function joinRun({ bands, limit, mode }: RowScan, kind: BandKind[], groups: Map<number, number[]>, s: number, e: number): void {
  // Runs are maximal, so the bands around one are anchors or dropped notes; a note dropped under a row (an article
  // code line) stays between the row and the lines that go on under it.
  let above = s - 1;
  while (above >= 0 && kind[above] === 'drop') above--;
  const aboveRow = above >= 0 && kind[above] === 'anchor' ? above : undefined;
  const below = e + 1 < bands.length && kind[e + 1] === 'anchor' ? e + 1 : undefined;
  const gap = (j: number) => {
    // Gap above run member j (j = s … e + 1, the last one being the gap to the anchor below).
    if (j === s) return aboveRow !== undefined ? bands[s]!.y0 - bands[s - 1]!.y1 : Infinity;
    if (j === e + 1) return below !== undefined ? bands[below]!.y0 - bands[e]!.y1 : Infinity;
    return bands[j]!.y0 - bands[j - 1]!.y1;
  };
  let cut = e + 1;
  for (let j = e; j >= s; j--) if (gap(j) > gap(cut) * WIDER_GAP + GAP_SLACK_UNITS) cut = j;
  if (aboveRow === undefined && below === undefined) cut = e + 1;
  // (A line set smaller than the row above is never the first of the lines going down: it is a sub-line of the lines
  // above it, whatever the gaps — a smaller face sits lower in its line, so its box looks nearer the row below.)
  if (aboveRow !== undefined) cut += smallerFrom(bands, aboveRow, cut, e);
  // Members s … cut-1 join the row above (each within reach of the previous line), cut … e the row below.
  let reach = true;
  for (let j = s; j < cut; j++) {
    reach = reach && aboveRow !== undefined && gap(j) < limit;
    if (reach) groups.get(aboveRow!)!.push(j);
    else if (mode !== 'numeric') groups.set(j, [j]);
  }
  reach = true;
  for (let j = e; j >= cut; j--) {
    reach = reach && below !== undefined && gap(j + 1) < limit;
    if (reach) groups.get(below!)!.push(j);
    else if (mode !== 'numeric') groups.set(j, [j]);
  }
}
