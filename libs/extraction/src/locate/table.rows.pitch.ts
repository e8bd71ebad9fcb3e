import type { RowBand } from './table.bands.js';

/**
 * Lines of one cell set closer than the rows. A cell wrapped over several lines prints them at the font's line
 * spacing; rows are set apart by their cells' padding. When a table's rows stand further apart than its lines, a line
 * filling one cell (a wrapped label, its figures printed on the middle or last line of the row by a vertically centred
 * or bottom-aligned cell) that lies at line spacing from a full row, directly or through other such lines, is part of
 * that row, not a row of its own: the figure line owns the text lines within its cell's vertical extent.
 */

/** What a band is to groupRows: it opens a row, continues the open one, or is left out (a note). */
export type BandKind = 'anchor' | 'cont' | 'drop';

/** Pairs of adjacent full rows (bands filling two or more cells) near a row that tell how far apart its rows stand. */
const NEAR_ROW_PAIRS = 3;
/** A line lies within its row when its gap to it, this many times over … */
const WITHIN_ROW_RATIO = 1.15;
/** … plus this many page units, is still narrower than the rows' spacing there. */
const WITHIN_ROW_UNITS = 0.5;

const filledCount = (b: RowBand) => Object.values(b.cells).filter((v) => (v ?? '').trim() !== '').length;

/**
 * How far apart the rows stand around band f: the median gap between two adjacent full rows, over the NEAR_ROW_PAIRS
 * pairs nearest f; undefined with fewer pairs. (Local, and a median: a table may set one block of rows apart and the
 * next close, or leave a blank line between sections.)
 */
function spacingNear(bands: RowBand[], full: boolean[], f: number): number | undefined {
  const near = full
    .flatMap((x, i) => (x && full[i + 1] ? [i] : []))
    .sort((a, b) => Math.abs(a - f) - Math.abs(b - f) || a - b)
    .slice(0, NEAR_ROW_PAIRS)
    .map((i) => bands[i + 1]!.y0 - bands[i]!.y1)
    .sort((a, b) => a - b);
  return near.length < NEAR_ROW_PAIRS ? undefined : near[Math.floor(near.length / 2)];
}

/**
 * Turns single-cell bands that `kinds` made rows into continuations when they lie at line spacing from a full row,
 * directly or through other such bands, where that row and its neighbours stand further apart than that;
 * joinContinuations then gives each run to the row above or below by where the widest gap falls.
 */
export function claimWrappedLines(bands: RowBand[], kind: BandKind[]): void {
  const full = bands.map((b, i) => filledCount(b) >= 2 && kind[i] !== 'drop');
  const single = (i: number) => !full[i] && kind[i] !== 'drop' && filledCount(bands[i]!) === 1;
  const gapBetween = (a: number, b: number) => bands[Math.max(a, b)]!.y0 - bands[Math.min(a, b)]!.y1;
  // The full row reached from band i through single bands, and the widest gap on the way; undefined when none is.
  const reach = (i: number, step: 1 | -1): { f: number; widest: number } | undefined => {
    let widest = -Infinity;
    for (let j = i + step; j >= 0 && j < bands.length && kind[j] !== 'drop'; j += step) {
      widest = Math.max(widest, gapBetween(j - step, j));
      // (A full band that continues another row is that row's: its label runs on past the row's figures.)
      if (full[j]) return kind[j] === 'anchor' ? { f: j, widest } : undefined;
      if (!single(j)) return undefined;
    }
    return undefined;
  };
  const within = (r: { f: number; widest: number } | undefined) => {
    const spacing = r && spacingNear(bands, full, r.f);
    return !!r && spacing !== undefined && r.widest * WITHIN_ROW_RATIO + WITHIN_ROW_UNITS < spacing;
  };
  const claimed = bands.map((_, i) => single(i) && kind[i] === 'anchor' && (within(reach(i, -1)) || within(reach(i, 1))));
  claimed.forEach((c, i) => c && (kind[i] = 'cont'));
}
