import type { Word } from '../layout/layout.types.js';
import { crossRunWords } from './pdf.words.js';

/**
 * Column headers set up the sheet (a statistical table's narrow columns, each caption turned a quarter): read word by
 * word they scatter over many upright lines and no header line names the columns. A row of such captions, side by
 * side over a common band of the page, is read as one upright line at the band's foot, one word per caption.
 */

/** A text run printed across the page's reading direction, as the reader met it. */
export interface CrossRun {
  str: string;
  /** The run's transform on the (upright) page: baseline direction in [0], [1], origin in [4], [5]. */
  tx: readonly number[];
  width: number;
  height: number;
}

/** At least this many turned captions side by side make a header row (fewer: a margin note, a stamp). */
export const MIN_TURNED_CAPTIONS = 3;

/** Pieces of one turned line join when the gap between them along it is at most this many font heights. */
const PIECE_GAP = 0.6;

interface Caption {
  runs: number[];
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  fontH: number;
  /** Reading up the page (baseline pointing up): the lowest piece comes first. */
  up: boolean;
}

/** The words of the page's turned runs: a row of captions as upright words, any other run word by word across. */
export function crossWords(runs: readonly CrossRun[]): Word[] {
  const pieces = runs.map(captionOf);
  const row = captionRow(joinPieces(pieces));
  const inRow = new Set(row.flatMap((c) => c.runs));
  const foot = Math.max(...row.map((c) => c.y1));
  const upright = row.map((c) => ({ text: captionText(c, runs, pieces), x0: c.x0, x1: c.x1, y0: foot - c.fontH, y1: foot, conf: 1 }));
  const rest = runs.flatMap((r, i) => (inRow.has(i) ? [] : crossRunWords(r.str, r.tx, r.width, r.height)));
  return [...upright.sort((a, b) => a.x0 - b.x0), ...rest];
}

/** One run's box on the page. */
function captionOf(r: CrossRun, i: number): Caption {
  const words = crossRunWords(r.str.trim() || r.str, r.tx, r.width, r.height);
  const fontH = Math.hypot(r.tx[2]!, r.tx[3]!) || Math.abs(r.height) || 10;
  const box = (k: 'x0' | 'x1' | 'y0' | 'y1', f: (...n: number[]) => number) => f(...words.map((w) => w[k]));
  return words.length
    ? {
        runs: [i],
        x0: box('x0', Math.min),
        x1: box('x1', Math.max),
        y0: box('y0', Math.min),
        y1: box('y1', Math.max),
        fontH,
        up: r.tx[1]! < 0,
      }
    : { runs: [i], x0: r.tx[4]!, x1: r.tx[4]!, y0: r.tx[5]!, y1: r.tx[5]!, fontH, up: r.tx[1]! < 0 };
}

/** Pieces of one turned line (same column of the page, one right after the other along it) are one caption. */
function joinPieces(pieces: Caption[]): Caption[] {
  const out: Caption[] = [];
  for (const p of [...pieces].sort((a, b) => a.x0 - b.x0 || a.y0 - b.y0)) {
    const into = out.find((c) => sameLine(c, p));
    if (!into) out.push({ ...p, runs: [...p.runs] });
    else Object.assign(into, { runs: [...into.runs, ...p.runs], y0: Math.min(into.y0, p.y0), y1: Math.max(into.y1, p.y1) });
  }
  return out;
}

function sameLine(a: Caption, b: Caption): boolean {
  const overlapX = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
  const gapY = Math.max(a.y0, b.y0) - Math.min(a.y1, b.y1);
  return a.up === b.up && overlapX > 0.5 * Math.min(a.x1 - a.x0, b.x1 - b.x0) && gapY <= PIECE_GAP * Math.max(a.fontH, b.fontH);
}

/**
 * The largest set of captions spanning one common height of the page (each reaches the band's level), if there are
 * enough of them to be a header row: the level tried is each caption's foot.
 */
function captionRow(captions: Caption[]): Caption[] {
  let best: Caption[] = [];
  for (const c of captions) {
    const level = c.y1 - c.fontH / 2;
    const across = captions.filter((o) => o.y0 <= level && o.y1 >= level);
    if (across.length > best.length) best = across;
  }
  return best.length >= MIN_TURNED_CAPTIONS ? best : [];
}

/** A caption's text in reading order: its pieces along the line, the first one first. */
function captionText(c: Caption, runs: readonly CrossRun[], pieces: readonly Caption[]): string {
  const order = [...c.runs].sort((a, b) => (c.up ? pieces[b]!.y1 - pieces[a]!.y1 : pieces[a]!.y0 - pieces[b]!.y0));
  return order
    .map((i) => runs[i]!.str.trim())
    .filter(Boolean)
    .join(' ');
}
