import type { Word } from '../layout/layout.types.js';

/** The words of a PDF text run, boxed where they are printed. */

/**
 * Character advances of the standard fonts (Adobe's core-font metrics, thousandths of an em) for ASCII 32..126:
 * Helvetica for sans-serif faces (Arial and Liberation Sans share them), Times for serif ones. A text run's width is
 * shared among its characters by these rather than evenly: in a run that joins two table cells ("MA-31335 Printer",
 * where the PDF program moved to the next cell and the text layer put one space) the code's wide capitals and
 * figures are not squeezed by the description's narrow letters, so each word stays near where it is printed.
 */
const SANS = [
  278, 278, 355, 556, 556, 889, 667, 222, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278,
  278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722,
  667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 222, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556,
  556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const SERIF = [
  250, 333, 408, 500, 500, 833, 778, 333, 333, 333, 500, 564, 250, 333, 250, 278, 500, 500, 500, 500, 500, 500, 500, 500, 500, 500, 278,
  278, 564, 564, 564, 444, 921, 722, 667, 667, 722, 611, 556, 722, 722, 333, 389, 722, 611, 889, 722, 722, 556, 722, 667, 556, 611, 722,
  722, 944, 722, 722, 611, 333, 278, 333, 469, 500, 333, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500, 500,
  500, 333, 389, 278, 500, 500, 722, 500, 500, 444, 480, 200, 480, 541,
];
/** The advance of a character outside the tables (other scripts, symbols): an average letter's. */
const OTHER_ADVANCE = { sans: 556, serif: 500 } as const;

/** A run's face: sans-serif, serif, or monospace (whose characters are all one width: shared evenly). */
export type FontFamily = 'sans' | 'serif' | 'mono';

/** The family of a face as the PDF library names it (`sans-serif`, `serif`, `monospace`, or a face name). */
export function fontFamilyOf(name: string | undefined): FontFamily {
  if (!name || /sans/i.test(name)) return 'sans';
  if (/mono|courier/i.test(name)) return 'mono';
  return /serif|times|roman/i.test(name) ? 'serif' : 'sans';
}

/** One character's advance in thousandths of an em (an accented letter as its base letter), in a proportional face. */
function advance(c: string, family: Exclude<FontFamily, 'mono'>): number {
  const table = family === 'serif' ? SERIF : SANS;
  let code = c.charCodeAt(0);
  if (code > 126) code = c.normalize('NFD').charCodeAt(0);
  return code >= 32 && code <= 126 ? table[code - 32]! : OTHER_ADVANCE[family];
}

/**
 * Each character's left edge and the run's end, as offsets from the run's start: the run's width shared among its
 * characters by their standard advances (evenly in a monospaced face, or without a family). A gap the
 * text layer printed as one space between two cells is shared the same way: the header cells' own gaps tell
 * columns apart (table.columns.ts).
 */
function charOffsets(str: string, width: number, family?: FontFamily): number[] {
  const chars = [...str];
  const adv = chars.map((c) => (family && family !== 'mono' ? advance(c, family) : 1));
  const total = adv.reduce((a, b) => a + b, 0);
  const at = [0];
  for (const a of adv) at.push(at[at.length - 1]! + (total > 0 ? (a * width) / total : 0));
  return at;
}

/** The words of one text run: split at spaces, each boxed by its characters' share of the run's width (charOffsets). */
export function runWords(str: string, tx: readonly number[], width: number, height: number, family?: FontFamily): Word[] {
  const fontH = Math.hypot(tx[2], tx[3]) || Math.abs(height) || 10;
  const [x, base] = [tx[4], tx[5]];
  // (Offsets are per UTF-16 unit: a character outside the BMP counts as its two units, evenly.)
  const units = [...str].length === str.length ? charOffsets(str, width, family) : charOffsets(str, width);
  return [...str.matchAll(/\S+/g)].flatMap((m) =>
    gluedLabelParts(m[0]).map(([text, at]) => ({
      text,
      x0: x + units[m.index! + at]!,
      x1: x + units[m.index! + at + text.length]!,
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
