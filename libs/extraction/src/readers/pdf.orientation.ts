/**
 * Pages whose text runs up or down the sheet (a wide table printed turned on a portrait page) are read in the frame
 * where that text is horizontal, as the image reader does with a scan it had to turn: lines, columns and labels are
 * found across the reading direction, not across the sheet. Boxes of such a page are in the turned frame, whose size
 * the page then reports (`width`/`height` swapped for a quarter turn).
 */

/** A pdfjs text-run transform in viewport units (y down): [a, b, c, d, e, f]. */
export type RunTransform = readonly number[];

/** Clockwise quarter turns of the sheet that make its text horizontal: 0 (as printed), 1, 2 or 3. */
export type Quarter = 0 | 1 | 2 | 3;

/**
 * Share of a page's characters that must run in one turned direction before the page is read turned. A majority:
 * a table with a few turned column headers, or a turned margin note, stays as printed.
 */
export const TURNED_TEXT_SHARE = 0.6;

/** The turn that makes a run with this transform read left to right (its baseline direction, y down). */
export function runQuarter(tx: RunTransform): Quarter {
  const [dx, dy] = [tx[0], tx[1]];
  if (Math.abs(dx) >= Math.abs(dy)) return dx >= 0 ? 0 : 2;
  return dy < 0 ? 1 : 3;
}

/** The page's turn: the direction most of its characters run in, when that is a clear majority and not upright. */
export function pageQuarter(runs: { tx: RunTransform; chars: number }[]): Quarter {
  const counts = [0, 0, 0, 0];
  let total = 0;
  for (const r of runs) {
    counts[runQuarter(r.tx)] += r.chars;
    total += r.chars;
  }
  if (!total) return 0;
  const best = counts.indexOf(Math.max(...counts)) as Quarter;
  return best !== 0 && counts[best] / total >= TURNED_TEXT_SHARE ? best : 0;
}

/** A point of the printed sheet (width × height, y down) in the frame turned clockwise by `q` quarters. */
export function turnPoint(q: Quarter, width: number, height: number, x: number, y: number): [number, number] {
  if (q === 1) return [height - y, x];
  if (q === 2) return [width - x, height - y];
  if (q === 3) return [y, width - x];
  return [x, y];
}

/** The run transform seen in the turned frame (its linear part turned; the origin is turned by `turnPoint`). */
export function turnTransform(q: Quarter, width: number, height: number, tx: RunTransform): number[] {
  const lin = (x: number, y: number): [number, number] => (q === 1 ? [-y, x] : q === 2 ? [-x, -y] : q === 3 ? [y, -x] : [x, y]);
  const [a, b] = lin(tx[0], tx[1]);
  const [c, d] = lin(tx[2], tx[3]);
  const [e, f] = turnPoint(q, width, height, tx[4], tx[5]);
  return [a, b, c, d, e, f];
}

/** The sheet's size in the turned frame. */
export function turnedSize(q: Quarter, width: number, height: number): { width: number; height: number } {
  return q % 2 === 1 ? { width: height, height: width } : { width, height };
}

/** A word box of a sheet (width × height) in the frame turned clockwise by `q` quarters. */
export function turnWord<W extends { x0: number; y0: number; x1: number; y1: number }>(w: W, q: Quarter, width: number, height: number): W {
  const [ax, ay] = turnPoint(q, width, height, w.x0, w.y0);
  const [bx, by] = turnPoint(q, width, height, w.x1, w.y1);
  return { ...w, x0: Math.min(ax, bx), y0: Math.min(ay, by), x1: Math.max(ax, bx), y1: Math.max(ay, by) };
}
