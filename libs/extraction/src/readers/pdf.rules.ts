import { ExtractionError } from '../engine.types.js';
import type { DocLayout, Rule } from '../layout/layout.types.js';
import { walkOperators, type Matrix, type PdfDoc, type PdfJs, type PDFPageProxy } from './pdf.document.js';

/**
 * The ruled lines of a text-layer PDF's pages (table borders and row separators), from the pages' drawing operations:
 * stroked straight segments, and thin filled bars, that run horizontally or vertically. A filled box (a shaded cell
 * or row) gives its four edges. Only read when a table is asked for: parsing drawing operations costs about as much
 * as the text layer.
 */

/** pdfjs 5's path data: each drawing operation's code followed by its coordinates (its `DrawOPS`, not exported). */
const DRAW = { moveTo: 0, lineTo: 1, curveTo: 2, quadraticCurveTo: 3, closePath: 4 } as const;

const apply = (m: Matrix, x: number, y: number): [number, number] => [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];

/** A stroke or bar at most this thick (page units) is a line; thicker filled shapes are boxes. */
const MAX_RULE_THICKNESS = 2.5;
/** Lines shorter than this (page units) are glyph parts, ticks or underlines of a word, not rules. */
const MIN_RULE_LENGTH = 8;
/** A segment whose ends differ by less than this across its direction is straight (horizontal or vertical). */
const STRAIGHT_TOLERANCE = 0.5;
/** Rules kept per page at most (a vector drawing is no table). */
const MAX_RULES_PER_PAGE = 5000;

/** `PdfText.withRules` on an open document: each text-layer page (not OCRed, not turned) of `pages` gets its `rules`. */
export async function addRules(lib: PdfJs, doc: PdfDoc, layout: DocLayout, pages: readonly number[], signal?: AbortSignal): Promise<void> {
  for (const page of layout.pages) {
    if (!pages.includes(page.number) || page.ocr || page.turned || page.rules || page.number > doc.numPages) continue;
    if (signal?.aborted) throw new ExtractionError('extraction_timeout', 'extraction was aborted');
    const p = await doc.getPage(page.number);
    page.rules = await pageRules(lib, p);
    p.cleanup();
  }
}

/** A path's points as drawn: subpaths of [x, y] points, and whether it holds curves. */
function subpaths(data: ArrayLike<number>): { points: [number, number][][]; curved: boolean } {
  const points: [number, number][][] = [];
  let curved = false;
  let cur: [number, number][] = [];
  for (let i = 0; i < data.length;) {
    const op = data[i]!;
    if (op === DRAW.moveTo) {
      if (cur.length) points.push(cur);
      cur = [[data[i + 1]!, data[i + 2]!]];
      i += 3;
    } else if (op === DRAW.lineTo) {
      cur.push([data[i + 1]!, data[i + 2]!]);
      i += 3;
    } else if (op === DRAW.curveTo) {
      curved = true;
      cur.push([data[i + 5]!, data[i + 6]!]);
      i += 7;
    } else if (op === DRAW.quadraticCurveTo) {
      curved = true;
      cur.push([data[i + 3]!, data[i + 4]!]);
      i += 5;
    } else {
      // closePath: back to the subpath's start.
      if (cur.length) cur.push(cur[0]!);
      i += 1;
    }
  }
  if (cur.length) points.push(cur);
  return { points, curved };
}

/** The rule a straight segment or thin box makes, when it is one; boxes are [x0, y0, x1, y1] in the page's frame. */
function asRule(x0: number, y0: number, x1: number, y1: number): Rule | undefined {
  const [ax, bx, ay, by] = [Math.min(x0, x1), Math.max(x0, x1), Math.min(y0, y1), Math.max(y0, y1)];
  const w = bx - ax;
  const h = by - ay;
  if (h <= MAX_RULE_THICKNESS && w >= MIN_RULE_LENGTH) return { x0: ax, y0: ay, x1: bx, y1: by };
  if (w <= MAX_RULE_THICKNESS && h >= MIN_RULE_LENGTH) return { x0: ax, y0: ay, x1: bx, y1: by };
  return undefined;
}

/** The rules of one path painted with `paint`, its points mapped to the page by `m`. */
function pathRules(lib: PdfJs, paint: number, data: ArrayLike<number>, m: Matrix, out: Rule[]): void {
  const OPS = lib.OPS;
  const stroked = [OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke].includes(
    paint,
  );
  const filled = paint !== OPS.stroke && paint !== OPS.closeStroke;
  const { points, curved } = subpaths(data);
  for (const sub of points) {
    const pts = sub.map(([x, y]) => apply(m, x, y));
    if (stroked)
      for (let i = 1; i < pts.length; i++) {
        const [a, b] = [pts[i - 1]!, pts[i]!];
        const straight = Math.abs(a[1] - b[1]) < STRAIGHT_TOLERANCE || Math.abs(a[0] - b[0]) < STRAIGHT_TOLERANCE;
        const r = straight ? asRule(a[0], a[1], b[0], b[1]) : undefined;
        if (r) out.push(r);
      }
    if (!filled || curved || pts.length < 2) continue;
    const xs = pts.map((p) => p[0]);
    const ys = pts.map((p) => p[1]);
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    const bar = asRule(x0, y0, x1, y1);
    if (bar) out.push(bar);
    else if (x1 - x0 >= MIN_RULE_LENGTH && y1 - y0 >= MIN_RULE_LENGTH)
      // A filled box (a shaded cell or row): its edges separate it from its neighbours.
      out.push({ x0, y0, x1, y1: y0 }, { x0, y0: y1, x1, y1 }, { x0, y0, x1: x0, y1 }, { x0: x1, y0, x1, y1 });
  }
}

/** The page's rules, in the layout's frame (page units, origin top-left). */
async function pageRules(lib: PdfJs, page: PDFPageProxy): Promise<Rule[]> {
  const out: Rule[] = [];
  await walkOperators(lib, page, page.getViewport({ scale: 1 }), (fn, args, toPage) => {
    if (fn === lib.OPS.constructPath && args && args[0] !== lib.OPS.endPath) {
      const data = (args[1] as ArrayLike<number>[] | undefined)?.[0];
      if (data) pathRules(lib, args[0] as number, data, toPage(), out);
    }
    return out.length < MAX_RULES_PER_PAGE;
  });
  return out;
}
