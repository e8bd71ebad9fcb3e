import type { RowBand } from './table.bands.js';
import { FIGURE } from './table.model.js';
import type { BandKind } from './table.rows.pitch.js';
import type { RowRules } from './table.rows.js';

/** A line under the rows that fills more than this share of the number columns with figures is a row, not a note. */
const ROW_FIGURE_SHARE = 0.5;
/** A column without a number type holds figures when at least this share of the rows print one in it. */
const FIGURE_COLUMN_SHARE = 0.5;

/** A cell printed as a figure, with its currency sign or percent set apart ("$3,027.12", "25.2 %"): digits, no word. */
const figureLike = (s: string | undefined) => !!s && /\d/.test(s) && !/\p{L}{2}/u.test(s);

/**
 * The table's number columns: those the schema types as numbers, else (every column a string) those where most rows
 * print a figure.
 */
function figureColumns(bands: RowBand[], kind: BandKind[], r: RowRules): { keys: string[]; isFigure: (s: string) => boolean } {
  if (r.numeric.size) return { keys: [...r.numeric], isFigure: (s) => FIGURE.test(s.trim()) };
  const rows = bands.filter((_, i) => kind[i] === 'anchor');
  const keys = [...new Set(rows.flatMap((b) => Object.keys(b.cells)))];
  const share = (k: string) => rows.filter((b) => figureLike(b.cells[k])).length / Math.max(1, rows.length);
  return { keys: keys.filter((k) => share(k) >= FIGURE_COLUMN_SHARE), isFigure: figureLike };
}

/**
 * Lines under the last row that are printed across the column grid (a test statistic or footnote running
 * from the row labels into the figures) are the table's notes, and so is everything after the first of them:
 * a row is printed cell by cell.
 */
export function dropNotesBelow(bands: RowBand[], kind: BandKind[], r: RowRules, hasMoney: (b: RowBand) => boolean): void {
  // (A priced table's line with its money cells filled is an item whose cells are set close, never a note; in other
  // tables, nor is a line filling most number columns with figures: a totals row, or any row, set close.)
  const { keys, isFigure } = figureColumns(bands, kind, r);
  const figures = (b: RowBand) => keys.filter((k) => isFigure(b.cells[k] ?? '')).length;
  const filledRow = (b: RowBand) => keys.length >= 2 && figures(b) > keys.length * ROW_FIGURE_SHARE;
  const note = (b: RowBand) => b.spans && (r.money.size > 0 ? !hasMoney(b) : !filledRow(b));
  let lastRow = -1;
  bands.forEach((b, i) => kind[i] === 'anchor' && !note(b) && (lastRow = i));
  const firstNote = bands.findIndex((b, i) => i > lastRow && note(b));
  if (lastRow >= 0 && firstNote > 0) for (let i = firstNote; i < bands.length; i++) kind[i] = 'drop';
}
