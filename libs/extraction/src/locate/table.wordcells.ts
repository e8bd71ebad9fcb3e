/** One body line's words put into the cells of a table's columns. */
import { segments, spaceBetween } from '../layout/layout.builder.js';
import type { Line, Word } from '../layout/layout.types.js';
import { isCurrencyMark, withoutCurrencyMark } from '../parsers/currency.parser.js';
import type { DocContext } from '../parsers/value.parser.js';
import type { ColumnAssigner } from './table.columns.js';
import { dateLeaders } from './table.dates.js';
import { FIGURE, type Column } from './table.model.js';
import type { CellGeom, RowBand } from './table.bands.js';
import { walled, type Wall } from './table.ruled.js';

/**
 * A unit word ("pcs", "Std.") printed within this many line heights after a figure, landing in a number column, is
 * the figure's unit: a unit column set close beside a quantity column under one header cell ("Qty Unit").
 */
const UNIT_GAP = 1.5;
/** A unit of measure as printed: a short word or abbreviation ("pcs", "Std."), or an area or volume ("m²", "m2", "cm3"). */
export const UNIT_WORD = /^(?:\p{L}{1,10}\.?|\p{L}{1,3}[23²³])$/u;

/** The columns of one part of a table (a header's body on one page) and what their keys hold. */
export interface PartColumns {
  cols: Column[];
  /** Keys of the number columns. */
  numeric: Set<string>;
  /** Keys of the money columns (prices, amounts). */
  money: Set<string>;
  /** Keys of the text columns. */
  textKeys: string[];
  /** A word's column, from the header and the body's gutters. */
  assign: ColumnAssigner;
  /** The header's line height. */
  lh: number;
  /** Vertical rules through the body (column borders), when the page's rules were read. */
  walls?: Wall[];
  /** Keys of the text columns the body fills with figures. */
  figures?: Set<string>;
}

/** A word of a line, by its index. */
interface WordAt {
  line: Line;
  wi: number;
  w: Word;
}

/** The cells of a line being filled, word by word. */
interface LineCellsState {
  cells: Record<string, string[]>;
  geom: Record<string, CellGeom>;
  lastWord: Record<string, Word>;
  /** Column of each word, to tell a run of text printed across the column grid from cells. */
  wordCol: number[];
  lastCi: number;
  textX0: number;
  dates: Map<number, number>;
  spreads: Spreads;
}

/** A body line read into cells: the band for row grouping, and the unclaimed columns' text ("#<index>"). */
export interface LineCells {
  band: RowBand;
  extras: Record<string, string>;
}

/** The cells of one body line, or undefined when no word lands in a column. */
export function lineCells(line: Line, env: PartColumns, order: DocContext['dateOrder']): LineCells | undefined {
  const s: LineCellsState = {
    cells: {},
    textX0: Infinity,
    lastCi: -1,
    wordCol: [],
    geom: {},
    dates: dateLeaders(line, order),
    spreads: spreadsOf(line),
    lastWord: {},
  };
  for (const [wi, w] of line.words.entries()) {
    const ci = wordColumn(env, { line, wi, w }, s);
    s.lastCi = ci;
    s.wordCol[wi] = ci;
    const f = env.cols[ci]?.field;
    if (f?.data_type === 'string') s.textX0 = Math.min(s.textX0, w.x0);
    // Unclaimed columns are kept aside (as "#<index>") for the quantity × price = amount check.
    const k = f ? f.key : ci >= 0 ? `#${ci}` : undefined;
    if (!k) continue;
    addToCell(s, k, w);
  }
  const { cells } = s;
  const extras = Object.fromEntries(
    Object.entries(cells)
      .filter(([k]) => k.startsWith('#'))
      .map(([k, v]) => [k, v.join(' ')]),
  );
  for (const k of Object.keys(extras)) delete cells[k];
  if (!Object.keys(cells).length) return undefined;
  // (A text-only line moved whole into its text column is no run across the grid.)
  const movedWhole = textOnlyLine(line, cells, env, s.wordCol);
  const spans = !movedWhole && spansColumns(line, s.wordCol, env);
  return {
    band: {
      y0: line.y0,
      y1: line.y1,
      textX0: s.textX0,
      firstWord: line.words[0]?.text ?? '',
      spans,
      geom: s.geom,
      cells: Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, v.join(' ')])),
    },
    extras,
  };
}

/** Adds a word to the cell of column key `k`. */
function addToCell(s: LineCellsState, k: string, w: Word): void {
  // (Runs of one word split where the PDF breaks it, "O" "ff" "re" around a ligature, join without a space.)
  const cell = (s.cells[k] ??= []);
  const previous = s.lastWord[k];
  if (previous && cell.length && !spaceBetween(previous, w)) cell[cell.length - 1] += w.text;
  else cell.push(w.text);
  s.lastWord[k] = w;
  const g = s.geom[k];
  s.geom[k] = g ? { ...g, x0: Math.min(g.x0, w.x0), x1: Math.max(g.x1, w.x1) } : { x0: w.x0, x1: w.x1, firstW: w.x1 - w.x0 };
}

/** The column of a word, given the columns of the words before it on its line. */
function wordColumn(env: PartColumns, at: WordAt, s: LineCellsState): number {
  // (A figure with its spread, "85.2 ± 2.0", is one value: its words go where the whole stands.)
  const spread = s.spreads.leader.get(at.wi);
  if (spread !== undefined)
    return spread === at.wi ? env.assign(spanOf(at.line.words, at.wi, s.spreads.end.get(at.wi)!)) : s.wordCol[spread]!;
  let ci = env.assign(at.w);
  // Words (not numbers, not currency codes) that land in a number column are text run over from the
  // text column on their left ("Design (hours): Of a sample" under a narrow "Product" header) — except a
  // unit printed right after the figure in the same cell ("3 loads", "12 pcs"), which stays with it.
  const col = env.cols[ci];
  const unit = figureUnit(env, at, ci);
  if (unit.besideFigure) ci = env.assign(at.line.words[at.wi - 1]!);
  if (runsOverFromText(env, at, col, s.lastCi, unit.unitOfFigure)) ci = textColumnLeftOf(env.cols, ci);
  // (The words of a printed date stay in the cell its first word opened.)
  const leader = s.dates.get(at.wi);
  if (leader !== undefined && leader !== at.wi) ci = s.wordCol[leader]!;
  return ci;
}

/** The figures printed with a spread on a line: each word's first word, and where each spread ends. */
interface Spreads {
  leader: Map<number, number>;
  end: Map<number, number>;
}

/** The sign between a figure and its spread ("85.2 ± 2.0", "85.2 ±2.0", "85.2± 2.0"). */
const SPREAD_SIGN = '±';

/** The words of each figure printed with its spread, by word index. */
function spreadsOf(line: Line): Spreads {
  const spreads: Spreads = { leader: new Map(), end: new Map() };
  const ws = line.words;
  ws.forEach((w, i) => {
    if (!w.text.startsWith(SPREAD_SIGN) && !w.text.endsWith(SPREAD_SIGN)) return;
    const from = w.text.startsWith(SPREAD_SIGN) && /\d/.test(ws[i - 1]?.text ?? '') ? i - 1 : i;
    const to = w.text.endsWith(SPREAD_SIGN) && /^\d/.test(ws[i + 1]?.text ?? '') ? i + 1 : i;
    if (from === to) return;
    const leader = spreads.leader.get(from) ?? from;
    for (let j = from; j <= to; j++) spreads.leader.set(j, leader);
    spreads.end.set(leader, to);
  });
  return spreads;
}

/** One word standing for the words `from`..`to` of a line (their extent). */
function spanOf(words: Word[], from: number, to: number): Word {
  const part = words.slice(from, to + 1);
  return { ...words[from]!, x1: Math.max(...part.map((w) => w.x1)), text: part.map((w) => w.text).join(' ') };
}

/**
 * Whether a word is the unit of the figure before it: in the figure's cell, or (`besideFigure`) set close beside it
 * in a number column's span.
 */
function figureUnit(env: PartColumns, at: WordAt, ci: number): { unitOfFigure: boolean; besideFigure: boolean } {
  const { assign, lh } = env;
  const col = env.cols[ci];
  const { line, wi, w } = at;
  const prev = line.words[wi - 1];
  // (The figure opens the cell and the unit closes it: "2 Days x 1 Van" inside a description is text.)
  const [before, next] = [line.words[wi - 2], line.words[wi + 1]];
  const cellOfTwo = (!before || prev!.x0 - before.x1 >= lh * 0.8) && (!next || next.x0 - w.x1 >= lh * 0.8);
  const unitShaped = !!prev && cellOfTwo && /^[-+(]?\d[\d.,']*$/.test(prev.text) && UNIT_WORD.test(w.text);
  const sameCell = unitShaped && w.x0 - prev!.x1 < lh * 0.6 && assign(prev!) === ci;
  // (A unit column set close beside the quantities, under one header cell "Qty Unit", reaches into the next
  // number column's span: the unit still goes with its figure. A word in a text column is that column's.)
  const besideFigure = unitShaped && !sameCell && w.x0 - prev!.x1 < lh * UNIT_GAP && !!col?.field && col.field.data_type !== 'string';
  return { unitOfFigure: sameCell || besideFigure, besideFigure };
}

/** Whether a word that landed in number column `col` is text run over from the text column on its left. */
function runsOverFromText(env: PartColumns, at: WordAt, col: Column | undefined, lastCi: number, unitOfFigure: boolean): boolean {
  const { cols, lh } = env;
  const { line, wi, w } = at;
  const prev = line.words[wi - 1];
  const next = line.words[wi + 1];
  // (The letters of a currency mark printed on a figure, "US$2,975.31", make no word.)
  const bare = withoutCurrencyMark(w.text);
  const wordy = /\p{L}/u.test(bare) && (!/\d/.test(bare) || col?.inferred) && !isCurrencyMark(w.text) && !unitOfFigure;
  // A figure inside a run of text ("Lymphdrainage 45 Min.") under a guessed column belongs to the text.
  const inText =
    !!col?.inferred &&
    !!prev &&
    w.x0 - prev.x1 < lh * 0.6 &&
    cols[lastCi]?.field?.data_type === 'string' &&
    !!next &&
    next.x0 - w.x1 < lh * 0.6 &&
    /\p{L}/u.test(next.text);
  // (Not a unit word alone on its line under a printed number header: "month" under "6.00", the figure's
  // cell printed on two lines, even where the word starts a little left of the header.)
  const loneUnit = line.words.length === 1 && UNIT_WORD.test(w.text) && !!col?.field && !col.inferred;
  // (A text column the body fills with figures takes no word run on from the label at word spacing: "… and dakevo 244".)
  const runOn =
    !!col?.field &&
    !!env.figures?.has(col.field.key) &&
    !!prev &&
    w.x0 - prev.x1 < lh * RUN_ON_GAP &&
    cols[lastCi]?.field?.data_type === 'string' &&
    !env.figures.has(cols[lastCi]!.field!.key);
  const figures = col?.field?.data_type !== 'string' || runOn;
  return !!col?.field && figures && !loneUnit && !!(inText || (wordy && (col.inferred || w.x0 < col.x0)));
}

/** Words set closer than this many line heights read on from the word before them (a word space). */
const RUN_ON_GAP = 1;

/** The nearest text column left of column `ci`, else `ci`. */
function textColumnLeftOf(cols: Column[], ci: number): number {
  for (let j = ci - 1; j >= 0; j--) if (cols[j]!.field?.data_type === 'string') return j;
  return ci;
}

/** Whether a run of text (no gutter the body's columns keep) is split over two or more columns. */
function spansColumns(line: Line, wordCol: number[], { assign, walls }: PartColumns): boolean {
  return segments(line, 1.2).some((seg) =>
    seg.words.some((w, j) => {
      const [a, b] = [wordCol[line.words.indexOf(seg.words[j - 1]!)], wordCol[line.words.indexOf(w)]];
      // (Not across a gutter the body's columns keep, "23.05.2019 ‖ Hosting plan" is two cells set close, nor across a
      // column border drawn through the line.)
      const prevW = seg.words[j - 1];
      const gutter =
        !!prevW &&
        ((assign.gutters ?? []).some((x) => x >= prevW.x1 - 0.5 && x <= w.x0 + 0.5) || walled(walls, prevW.x1, w.x0, line.y0, line.y1));
      // (Nor between two figures: narrow columns of numbers are set closer than a word space, "1212 423 12".)
      const figures = !!prevW && FIGURE.test(prevW.text) && FIGURE.test(w.text);
      return j > 0 && a !== undefined && b !== undefined && a >= 0 && b >= 0 && a !== b && !gutter && !figures;
    }),
  );
}

/**
 * A text-only line of a line-item table belongs, whole, to the text column it starts in (a wrapped
 * description drifts under numeric headers): moves all its words there and says so.
 */
function textOnlyLine(line: Line, cells: Record<string, string[]>, env: PartColumns, wordCol: readonly number[]): boolean {
  const { numeric, money, textKeys } = env;
  const hasNumeric = Object.keys(cells).some((k) => numeric.has(k) && /\d/.test(cells[k]!.join(' ')));
  // (Not a unit word alone inside a number column's span, "month" under "6.00": the figure's cell printed on two lines.)
  const keys = Object.keys(cells);
  const unitAlone = line.words.length === 1 && UNIT_WORD.test(line.words[0]!.text) && keys.length === 1 && numeric.has(keys[0]!);
  if (hasNumeric || unitAlone || money.size === 0 || !textKeys.length) return false;
  const k = textKeys.find((c) => cells[c]) ?? textKeys[0]!;
  // (Except what a code column holds: an article number wrapped onto the line, an EAN under the item's code.)
  const all = line.words.filter((_, wi) => !env.cols[wordCol[wi]!]?.code).map((w) => w.text);
  for (const key of Object.keys(cells)) delete cells[key];
  cells[k] = all;
  return true;
}

/** A text column is a figure column when more than this share of the body lines with words in it print only a figure there. */
const FIGURE_COLUMN_SHARE = 0.5;

/**
 * The schema's text columns that the body fills with figures (a table typed as strings throughout: "1,085", "-2.81"),
 * so that words run over into them from a label are the label's, as in a number column.
 */
export function figureColumns(body: readonly Line[], cols: Column[], assign: ColumnAssigner, numeric: Set<string>): Set<string> {
  const seen = cols.map(() => 0);
  const figure = cols.map(() => 0);
  for (const line of body) {
    const words = cols.map((): string[] => []);
    for (const w of line.words) words[assign(w)]?.push(w.text);
    words.forEach((ws, ci) => {
      if (!ws.length) return;
      seen[ci]!++;
      if (ws.length === 1 && FIGURE.test(withoutCurrencyMark(ws[0]!))) figure[ci]!++;
    });
  }
  const keys = cols.flatMap((c, ci) =>
    c.field && !numeric.has(c.field.key) && figure[ci]! > seen[ci]! * FIGURE_COLUMN_SHARE ? [c.field.key] : [],
  );
  return new Set(keys);
}
