/**
 * Pages set in two text columns (papers, reports, newsletters): the page's lines join the words of both columns that
 * share a baseline. `textColumns` finds the gutter between the columns and gives each column's lines on their own,
 * the left column first (reading order).
 */
import { makeLine } from './layout.builder.js';
import type { Line, Page } from './layout.types.js';

/** The gutter lies within this middle share of the page width (a column is at least a quarter of the page). */
const GUTTER_ZONE = [0.25, 0.75] as const;
/** A gap between two words of a line may be the gutter when at least this many line heights wide. */
const GUTTER_MIN_GAP = 0.9;
/**
 * The gutter is a band of positions every one of which the lines meet as a gutter, at least this many line heights
 * wide: a justified line's wide spaces line up at a point by chance, never over a band.
 */
const GUTTER_BAND = 0.5;
/** Positions across the zone are tried this far apart (points). */
const STEP = 0.5;
/** At least this many lines print words on both sides of the gutter … */
const TWO_SIDED_MIN = 6;
/** … and they are at least this share of the lines that reach across the gutter's position (both sides or crossing). */
const TWO_SIDED_SHARE = 0.7;

type Span = [number, number];

/** A line's gaps of at least GUTTER_MIN_GAP line heights between consecutive words. */
function wideGaps(line: Line): Span[] {
  const lh = Math.max(1, line.y1 - line.y0);
  const gaps: Span[] = [];
  for (let k = 1; k < line.words.length; k++) {
    const a = line.words[k - 1]!.x1;
    const b = line.words[k]!.x0;
    if (b - a >= lh * GUTTER_MIN_GAP) gaps.push([a, b]);
  }
  return gaps;
}

/** How the page's lines meet a vertical at x: lines with a wide gap there (two-sided), and lines whose words cross it. */
function meet(lines: Line[], gaps: Span[][], x: number): { twoSided: number; crossing: number } {
  let twoSided = 0;
  let crossing = 0;
  lines.forEach((l, i) => {
    if (l.x1 <= x || l.x0 >= x) return;
    if (gaps[i]!.some(([a, b]) => a < x && b > x)) twoSided++;
    else crossing++;
  });
  return { twoSided, crossing };
}

/** The x of the page's column gutter (the middle of the widest-backed band), or undefined when the page is not set in two columns. */
export function columnGutter(page: Page): number | undefined {
  const lines = page.lines.filter((l) => l.words.length > 0);
  if (lines.length < TWO_SIDED_MIN) return undefined;
  const gaps = lines.map(wideGaps);
  const lh = median(lines.map((l) => l.y1 - l.y0));
  let band: { x0: number; x1: number; twoSided: number } | undefined;
  let best: typeof band;
  const close = () => {
    if (band && band.x1 - band.x0 >= lh * GUTTER_BAND && (!best || band.twoSided > best.twoSided)) best = band;
    band = undefined;
  };
  for (let x = page.width * GUTTER_ZONE[0]; x <= page.width * GUTTER_ZONE[1]; x += STEP) {
    const { twoSided, crossing } = meet(lines, gaps, x);
    if (twoSided < TWO_SIDED_MIN || twoSided < (twoSided + crossing) * TWO_SIDED_SHARE) close();
    else if (band) Object.assign(band, { x1: x, twoSided: Math.max(band.twoSided, twoSided) });
    else band = { x0: x, x1: x, twoSided };
  }
  close();
  return best && (best.x0 + best.x1) / 2;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** Each page's text columns, found once: every positional table field of a schema asks for them (lines never change). */
const columnsCache = new WeakMap<Page, [Line[], Line[]] | undefined>();

/** The lines of each text column, left first, when the page is set in two columns; undefined otherwise. */
export function textColumns(page: Page): [Line[], Line[]] | undefined {
  if (!columnsCache.has(page)) columnsCache.set(page, splitColumns(page));
  return columnsCache.get(page);
}

function splitColumns(page: Page): [Line[], Line[]] | undefined {
  const gx = columnGutter(page);
  if (gx === undefined) return undefined;
  const side = (left: boolean) =>
    page.lines
      .map((l) => l.words.filter((w) => (w.x0 + w.x1) / 2 < gx === left))
      .filter((ws) => ws.length > 0)
      .map((ws) => makeLine(ws, page.number));
  return [side(true), side(false)];
}
