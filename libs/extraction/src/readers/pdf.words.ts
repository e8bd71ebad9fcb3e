import type { Word } from '../layout/layout.types.js';

/** The words of a PDF text run, boxed where they are printed. */

/** The words of one text run: split at spaces, with x in proportion to the characters so gaps inside a run still part cells. */
export function runWords(str: string, tx: readonly number[], width: number, height: number): Word[] {
  const fontH = Math.hypot(tx[2], tx[3]) || Math.abs(height) || 10;
  const [x, base] = [tx[4], tx[5]];
  const per = str.length ? width / str.length : 0;
  return [...str.matchAll(/\S+/g)].flatMap((m) =>
    gluedLabelParts(m[0]).map(([text, at]) => ({
      text,
      x0: x + (m.index! + at) * per,
      x1: x + (m.index! + at + text.length) * per,
      y0: base - fontH * 0.8,
      y1: base + fontH * 0.2,
      conf: 1,
    })),
  );
}

/**
 * A label printed onto its amount without a space, "Total:£64.50" or "Net:1,250.00", read as two words. (Only an
 * amount, with a currency sign or decimals: "Client:7" stays one word, a label with its code.)
 */
const GLUED_LABEL = /^(\p{L}[\p{L}.]*:)(?=\p{Sc}|[-\d][\d.,' ]*[.,]\d)(.+)$/u;

function gluedLabelParts(token: string): [string, number][] {
  const m = GLUED_LABEL.exec(token);
  return m
    ? [
        [m[1]!, 0],
        [m[2]!, m[1]!.length],
      ]
    : [[token, 0]];
}

/**
 * The words of a run printed across the page's reading direction (a column header set up the sheet on an upright
 * page): each word boxed where it is printed, one above the other, so that they join no line of the upright text.
 */
export function crossRunWords(str: string, tx: readonly number[], width: number, height: number): Word[] {
  const fontH = Math.hypot(tx[2], tx[3]) || Math.abs(height) || 10;
  const len = Math.hypot(tx[0], tx[1]) || 1;
  // Baseline direction u and the glyphs' up direction (u turned a quarter anticlockwise on the page, y down).
  const [ux, uy] = [tx[0] / len, tx[1] / len];
  const [vx, vy] = [uy, -ux];
  const per = str.length ? width / str.length : 0;
  return [...str.matchAll(/\S+/g)].map((m) => {
    const along = [m.index! * per, (m.index! + m[0].length) * per];
    const across = [fontH * 0.8, -fontH * 0.2];
    const xs = along.flatMap((a) => across.map((c) => tx[4] + ux * a + vx * c));
    const ys = along.flatMap((a) => across.map((c) => tx[5] + uy * a + vy * c));
    return { text: m[0], x0: Math.min(...xs), x1: Math.max(...xs), y0: Math.min(...ys), y1: Math.max(...ys), conf: 1 };
  });
}
