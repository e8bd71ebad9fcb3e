/** Which column a body word belongs to: the header cells' geometry, refined by the gutters of the body. */
import { segments } from '../layout/layout.builder.js';
import type { Line, Word } from '../layout/layout.types.js';
import { isCurrencyMark, withoutCurrencyMark } from '../parsers/currency.parser.js';
import { EDGE_SLACK } from './table.body.js';
import { FIGURE, type Column } from './table.model.js';

/**
 * Column of a word: the header it overlaps most; else, for a word of text, the nearest text column on its
 * left (text is left-aligned and runs on under neighbouring headers); else the nearest header.
 */
function columnOf(w: Word, cols: Column[]): number {
  const overlapIdx = cols.findIndex((c) => Math.min(w.x1, c.x1) - Math.max(w.x0, c.x0) > 0);
  if (overlapIdx >= 0 && cols[overlapIdx]!.inferred) return overlapIdx;
  if (overlapIdx < 0 && /\p{L}{2,}/u.test(w.text)) {
    for (let i = cols.length - 1; i >= 0; i--) if (cols[i]!.x0 <= w.x0 && cols[i]!.field?.data_type === 'string') return i;
  }
  let best = -1;
  let bestD = Infinity;
  cols.forEach((c, i) => {
    const overlap = Math.min(w.x1, c.x1) - Math.max(w.x0, c.x0);
    const d = overlap > 0 ? -overlap : Math.min(Math.abs(w.x0 - c.x1), Math.abs(c.x0 - w.x1));
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}

/**
 * Column assignment from the body itself: x ranges that no word of any multi-cell row covers are the
 * gutters, and so are drawn column borders (`walls`, x positions); each body column between gutters goes to the
 * header it overlaps most (headers are often narrower than, or offset from, their right-aligned numbers). Falls back
 * to header geometry.
 */
/** A gutter splitting a run of body text: no line prints a word across it, and it is at least this wide (in line heights). */
const GUTTER_MIN = 0.2;

/**
 * A run of body text that lies under two header columns and has a gutter no line crosses ("23.05.2019 ‖ Hosting
 * plan", a date column set close to the descriptions) is two columns: split where the parts fall under different
 * headers. (A wrapped description crossing into the next header has no such gutter: its lines cover it.)
 */
function splitAtGutters(
  run: [number, number],
  spans: [number, number][],
  lh: number,
  targetOf: (r: [number, number]) => number,
  lines = 0,
  headerGaps: readonly [number, number][] = [],
): [number, number][] {
  const inside = spans.filter(([a, b]) => a >= run[0] && b <= run[1]);
  let parts: [number, number][] = [];
  // (A narrower gap that no line crosses is a gutter too where the header sets two cells apart above it: a code
  // column set one space before the descriptions, "Item code ‖ Description".)
  const underHeaderGap = (g0: number, g1: number) => g1 > g0 && headerGaps.some(([h0, h1]) => g1 >= h0 && g0 <= h1);
  for (const [a, b] of inside) {
    const last = parts[parts.length - 1];
    if (last && a - last[1] < lh * GUTTER_MIN && !underHeaderGap(last[1], a)) last[1] = Math.max(last[1], b);
    else parts.push([a, b]);
  }
  // (A gutter that one long word or a stray line crosses is still a gutter: see coveredParts.)
  if (parts.length < 2) parts = coveredParts(inside, lines, lh);
  if (parts.length < 2) return [run];
  // Neighbouring parts under one header (or none) stay together.
  const out: [number, number][] = [];
  let cur = parts[0]!;
  let curT = targetOf(cur);
  for (const p of parts.slice(1)) {
    const t = targetOf(p);
    if (t === curT || t < 0 || curT < 0) {
      cur = [cur[0], Math.max(cur[1], p[1])];
      if (curT < 0) curT = targetOf(cur);
    } else {
      out.push(cur);
      cur = p;
      curT = t;
    }
  }
  out.push(cur);
  return out;
}

/** A gutter may be crossed by the words of at most this share of the body's lines (a long name, a footer)… */
const GUTTER_CROSS_SHARE = 0.05;
/** …and of at most this many lines. */
const GUTTER_CROSS_MAX = 2;

/** The gaps between neighbouring header cells, one of them naming a schema column (left to right). */
function headerGaps(cols: Column[]): [number, number][] {
  const sorted = [...cols].sort((a, b) => a.x0 - b.x0);
  return sorted.slice(1).flatMap((c, k) => {
    const prev = sorted[k]!;
    const named = (x: Column) => !!x.field && !x.inferred;
    return c.x0 > prev.x1 && (named(c) || named(prev)) ? [[prev.x1, c.x0] as [number, number]] : [];
  });
}

/**
 * The parts of a run of body text between gutters that only a few words cross: stretches at least GUTTER_MIN line
 * heights wide, covered by at most GUTTER_CROSS_SHARE of the lines (never more than GUTTER_CROSS_MAX), with busier
 * text on both sides. The run is cut in the middle of each; every word stays in a part.
 */
function coveredParts(spans: [number, number][], lines: number, lh: number): [number, number][] {
  if (!spans.length || lines < 1 / GUTTER_CROSS_SHARE) return [];
  const limit = Math.min(GUTTER_CROSS_MAX, Math.floor(lines * GUTTER_CROSS_SHARE));
  const lo = Math.floor(Math.min(...spans.map(([a]) => a)));
  const hi = Math.ceil(Math.max(...spans.map(([, b]) => b)));
  const cover = new Int32Array(hi - lo + 1);
  for (const [a, b] of spans) for (let x = Math.ceil(a); x <= Math.floor(b); x++) cover[x - lo]!++;
  const cuts: number[] = [];
  let seenBusy = false;
  let lowFrom = -1;
  for (let i = 0; i < cover.length; i++) {
    if (cover[i]! > limit) {
      if (seenBusy && lowFrom >= 0 && i - lowFrom >= lh * GUTTER_MIN) cuts.push(lo + (lowFrom + i) / 2);
      seenBusy = true;
      lowFrom = -1;
    } else if (seenBusy && lowFrom < 0) lowFrom = i;
  }
  if (!cuts.length) return [];
  const bounds = [-Infinity, ...cuts, Infinity];
  return bounds.slice(1).flatMap((b, k) => {
    const own = spans.filter(([x0, x1]) => (x0 + x1) / 2 >= bounds[k]! && (x0 + x1) / 2 < b);
    return own.length ? [[Math.min(...own.map(([x0]) => x0)), Math.max(...own.map(([, x1]) => x1))] as [number, number]] : [];
  });
}

/** Words closer than this many line heights run together: a gutter between columns is wider. */
export const RUN_GAP = 0.6;

/** The x extents of the lines' words, left to right. */
export function wordSpans(lines: Line[]): [number, number][] {
  return lines.flatMap((l) => l.words.map((w) => [w.x0, w.x1] as [number, number])).sort((a, b) => a[0] - b[0]);
}

/** Sorted spans joined into runs of text where they lie closer than a gutter (and `apart` does not hold between them). */
export function textRuns(
  spans: [number, number][],
  lh: number,
  apart: (last: [number, number], a: number) => boolean = () => false,
): [number, number][] {
  const runs: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = runs[runs.length - 1];
    if (last && !apart(last, a) && a - last[1] < lh * RUN_GAP) last[1] = Math.max(last[1], b);
    else runs.push([a, b]);
  }
  return runs;
}

/**
 * Figures are set flush right: a run of nothing but figures that overlaps no header cell is the column whose header
 * starts last at or left of the run's right edge (figures ending just before the next label, under a left-aligned
 * "Price:"), not the header nearest to it. -1 for a run holding anything else.
 */
function flushRightColumn([, b]: [number, number], own: Word[], cols: Column[]): number {
  if (!own.length || !own.every((w) => FIGURE.test(withoutCurrencyMark(w.text)))) return -1;
  let best = -1;
  cols.forEach((c, i) => {
    if (c.x0 <= b && (best < 0 || c.x0 > cols[best]!.x0)) best = i;
  });
  return best;
}

/** The words of `lines` centred in each run. */
function wordsOfRuns(runs: [number, number][], lines: Line[]): Word[][] {
  const words = lines.flatMap((l) => l.words);
  return runs.map(([a, b]) => words.filter((w) => (w.x0 + w.x1) / 2 >= a && (w.x0 + w.x1) / 2 <= b));
}

/** Whether each run holds nothing but currency marks (its words, `wordsOfRuns`). */
function markRuns(runWords: Word[][]): boolean[] {
  return runWords.map((own) => own.length > 0 && own.every((w) => isCurrencyMark(w.text)));
}

/**
 * A run of nothing but currency marks (`$` set at the left edge of a column of right-aligned figures, apart from them)
 * is the prefix of the figures on its right: it takes their column, not the nearest header's.
 */
function joinLeadingMarks(runs: [number, number][], target: number[], marks: boolean[]): void {
  for (let k = runs.length - 2; k >= 0; k--) if (marks[k] && target[k + 1]! >= 0) target[k] = target[k + 1]!;
}

/**
 * A named column that no run of the body went to claims the nearest run (overlapping it, or within CLAIM_REACH line
 * heights) whose column keeps another run: a group caption centred over two sub-columns ("Weekday" over "Morning ‖
 * Evening") leaves the first sub-column's figures to the neighbour whose guessed span reaches under them. Columns
 * keep their order: the run moves only where every run left of it lies in columns left of the claimant, and every run
 * right of it right.
 */
function claimNearRuns(runs: [number, number][], cols: Column[], target: number[], lh: number, counts: (k: number) => boolean): void {
  const mid = (i: number) => (cols[i]!.x0 + cols[i]!.x1) / 2;
  const gap = ([a, b]: [number, number], c: Column) => Math.max(a, c.x0) - Math.min(b, c.x1);
  cols.forEach((c, ci) => {
    if (!c.field || c.inferred || target.includes(ci)) return;
    const shared = (k: number) => target.some((t, j) => j !== k && counts(j) && t === target[k]);
    const inOrder = (k: number) =>
      target.every((t, j) => j === k || !counts(j) || t < 0 || (j < k ? mid(t) <= mid(ci) : mid(t) >= mid(ci)));
    const movable = runs
      .map((r, k) => ({ k, d: gap(r, c) }))
      .filter(({ k, d }) => d <= lh * CLAIM_REACH && counts(k) && target[k]! >= 0 && shared(k) && inOrder(k));
    const pick = movable.sort((p, q) => p.d - q.d)[0];
    if (pick) target[pick.k] = ci;
  });
}
/** How far (in line heights) from a column without a run a shared run may lie and still be claimed by it. */
const CLAIM_REACH = 1.5;

export /** A word's column, and the gutters found between runs of body text (no line prints across them). */
type ColumnAssigner = ((w: Word) => number) & { gutters?: number[] };

export function gutterColumns(body: Line[], cols: Column[], lh: number, walls: readonly number[] = []): ColumnAssigner {
  const multi = body.filter((l) => segments(l, 1.2).length >= 2);
  if (multi.length < 2) return (w) => columnOf(w, cols);
  const spans = wordSpans(multi);
  // (Text set close on both sides of a drawn column border is two columns.)
  const merged = textRuns(spans, lh, (last, a) => walls.some((x) => x >= last[1] - 0.5 && x <= a + 0.5));
  const overlapTarget = runOverlapTarget(cols, lh);
  const gaps = headerGaps(cols);
  const runs = merged.flatMap((run) => splitAtGutters(run, spans, lh, overlapTarget, multi.length, gaps));
  const gutters = runs.slice(1).flatMap((r, k) => (merged.some(([a, b]) => a < r[0] && b > r[0]) ? [(runs[k]![1] + r[0]) / 2] : []));
  const runWords = wordsOfRuns(runs, multi);
  const target = runTargets(runs, runWords, cols, walls, overlapTarget);
  const marks = markRuns(runWords);
  claimNearRuns(runs, cols, target, lh, (k) => !marks[k]);
  joinLeadingMarks(runs, target, marks);
  const assign: ColumnAssigner = runAssigner(runs, target, cols, lh);
  assign.gutters = gutters;
  return assign;
}

/** The column whose span a run overlaps most (named columns count double), or -1. */
function runOverlapTarget(cols: Column[], lh: number): (run: [number, number]) => number {
  return ([a, b]) => {
    let best = -1;
    let bestOv = 0;
    cols.forEach((c, i) => {
      const ov = Math.min(b, c.x1) - Math.max(a, c.x0);
      const named = c.field && !c.inferred ? 1 : 0.5;
      if (ov * named > bestOv) {
        bestOv = ov * named;
        best = i;
      }
    });
    // (A column the header only guessed loses a run to a printed caption the run is aligned with, left or right:
    // text set under "Plan" is that column's even where it reaches into the span guessed for a quantity.)
    if (best >= 0 && cols[best]!.inferred) {
      const near = (x: number, y: number) => Math.abs(x - y) <= lh * EDGE_SLACK;
      const aligned = cols.findIndex((c) => !c.inferred && (near(c.x0, a) || near(c.x1, b)) && c.x0 < b && c.x1 > a);
      if (aligned >= 0) return aligned;
    }
    return best;
  };
}

/** Each run's column: between drawn borders the column standing alone between them, else by overlap, else flush or nearest. */
function runTargets(
  runs: [number, number][],
  runWords: Word[][],
  cols: Column[],
  walls: readonly number[],
  overlapTarget: (run: [number, number]) => number,
): number[] {
  const cellOf = (x: number) => walls.filter((w) => w < x).length;
  const walledTarget = ([a, b]: [number, number]) => {
    const inCell = cols.flatMap((c, i) => (cellOf((c.x0 + c.x1) / 2) === cellOf((a + b) / 2) ? [i] : []));
    return inCell.length === 1 ? inCell[0]! : -1;
  };
  return runs.map(([a, b], k) => {
    const best = overlapTarget([a, b]);
    const walled = walledTarget([a, b]);
    if (walled >= 0 && (best < 0 || cellOf((cols[best]!.x0 + cols[best]!.x1) / 2) !== cellOf((a + b) / 2))) return walled;
    if (best >= 0) return best;
    const flush = flushRightColumn([a, b], runWords[k]!, cols);
    return flush >= 0 ? flush : columnOf({ text: 'x', x0: a, x1: b, y0: 0, y1: 0, conf: 1 }, cols);
  });
}

/**
 * A word's column by the run it falls in. Text printed beside the table (chart labels, a side note, the other column
 * of a two-column page): a body column right of every header, or left of every header, that is not the only one mapped
 * to its header is outside the table (-1), and so is anything further out.
 */
function runAssigner(runs: [number, number][], target: number[], cols: Column[], lh: number): (w: Word) => number {
  const right = Math.max(...cols.map((c) => c.x1));
  const left = Math.min(...cols.map((c) => c.x0));
  const shares = (k: number, inner: (j: number) => boolean) => runs.some((_, j) => j !== k && target[j] === target[k] && inner(j));
  const outside = runs.map(
    ([a, b], k) => (a > right + lh && shares(k, (j) => runs[j]![1] < a)) || (b < left - lh && shares(k, (j) => runs[j]![0] > b)),
  );
  const inner = runs.filter((_, k) => !outside[k]);
  const edge = Math.max(right, ...inner.map(([, b]) => b));
  const leftEdge = Math.min(left, ...inner.map(([a]) => a));
  const outRight = outside.some((o, k) => o && runs[k]![0] > right);
  const outLeft = outside.some((o, k) => o && runs[k]![1] < left);
  return (w) => {
    const cx = (w.x0 + w.x1) / 2;
    const k = runs.findIndex(([a, b]) => cx >= a && cx <= b);
    if (k >= 0 ? outside[k] : (outRight && w.x0 > edge + lh) || (outLeft && w.x1 < leftEdge - lh)) return -1;
    if (k < 0) return columnOf(w, cols);
    return target[k]!;
  };
}
