import type { Rule } from '../layout/layout.types.js';
import type { RowBand } from './table.bands.js';
import type { RowGroup } from './table.rows.js';

/**
 * Ruled rows: a horizontal line drawn across a table separates its rows, whatever the text's spacing says. A cell that
 * wraps over several lines, with its neighbours printed at the row's vertical centre, is one row between two rules —
 * the lines above the row's figures belong to it, not to the row above. Tables without rules inside their body are
 * left as the text grouped them.
 */

/** A rule separates rows when it spans at least this share of the table's width. */
const RULE_SPAN_SHARE = 0.5;
/** Pieces of one drawn line lie at most this far apart across it (page units)… */
const SAME_RULE_Y = 1;
/** …and along it. */
const PIECE_GAP = 2;

/**
 * Rules running along one direction across most of a stretch (`from` … `to`, along the rule): collinear pieces
 * joined, each as its position across and the part of the stretch it covers.
 */
function spanningRules(rules: readonly Rule[] | undefined, horizontal: boolean, from: number, to: number): Piece[] {
  if (!rules?.length) return [];
  const length = Math.max(1, to - from);
  const pieces = rules
    .filter((r) => r.x1 - r.x0 > r.y1 - r.y0 === horizontal)
    .map((r) =>
      horizontal
        ? { at: (r.y0 + r.y1) / 2, a: Math.max(r.x0, from), b: Math.min(r.x1, to) }
        : { at: (r.x0 + r.x1) / 2, a: Math.max(r.y0, from), b: Math.min(r.y1, to) },
    )
    .filter((r) => r.b > r.a);
  return joinPieces(pieces).filter((r) => r.b - r.a >= length * RULE_SPAN_SHARE);
}

/** Horizontal rules across the table's width (x0 … x1), by their vertical middle, top to bottom. */
export function rowRules(rules: readonly Rule[] | undefined, x0: number, x1: number): number[] {
  return spanningRules(rules, true, x0, x1)
    .map((r) => r.at)
    .sort((a, b) => a - b);
}

/**
 * The row groups with every band moved into the row whose rules enclose it: a band ruled off from its group's anchor
 * joins the nearest anchor between its own rules (with none there it stays where the text put it: a header's second
 * line, a note). Unchanged when the rules do not cut the body into two or more ruled rows.
 */
export function regroupByRules(
  bands: RowBand[],
  groups: RowGroup[],
  rules: readonly Rule[] | undefined,
  table: { x0: number; x1: number; numeric: ReadonlySet<string> },
): RowGroup[] {
  const { x0, x1, numeric } = table;
  if (!rules?.length || groups.length === 0) return groups;
  const ys = rowRules(rules, x0, x1);
  // The ruled row of a band: how many rules lie above its middle.
  const cell = bands.map((b) => ys.filter((y) => y < (b.y0 + b.y1) / 2).length);
  if (new Set(groups.map((g) => cell[g.anchor]!)).size < 2) return groups;
  const out = new Map<number, number[]>(groups.map((g) => [g.anchor, []]));
  const anchorsIn = (c: number) => groups.filter((g) => cell[g.anchor] === c).map((g) => g.anchor);
  // (A later anchor with figures of its own stays a row: a priced sub-line, "incl. recycling fee … 2.10", is an item.)
  const figures = (i: number) => [...numeric].some((k) => /\d/.test(bands[i]!.cells[k] ?? ''));
  if (rowRuled(groups, cell)) return oneRowPerCell(groups, cell, figures);
  for (const g of groups)
    for (const i of g.members) {
      const c = cell[i]!;
      const near = c === cell[g.anchor] ? g.anchor : anchorsIn(c).sort((a, b) => Math.abs(a - i) - Math.abs(b - i))[0];
      out.get(near ?? g.anchor)!.push(i);
    }
  return [...out.entries()].map(([anchor, members]) => ({ anchor, members: members.sort((a, b) => a - b) }));
}

/** A table whose ruled rows hold one row each at least this often is ruled row by row (not section by section). */
const ROW_RULED_SHARE = 0.6;

/** Whether the rules separate single rows: most ruled rows holding an anchor hold exactly one. */
function rowRuled(groups: RowGroup[], cell: number[]): boolean {
  const perCell = new Map<number, number>();
  for (const g of groups) perCell.set(cell[g.anchor]!, (perCell.get(cell[g.anchor]!) ?? 0) + 1);
  const single = [...perCell.values()].filter((n) => n === 1).length;
  return perCell.size >= 2 && single < perCell.size && single >= perCell.size * ROW_RULED_SHARE;
}

/**
 * In a table ruled row by row, everything between two rules is one row, anchored by its first anchor — but for
 * anchors with figures of their own, which stay rows.
 */
function oneRowPerCell(groups: RowGroup[], cell: number[], figures: (band: number) => boolean): RowGroup[] {
  const byCell = new Map<number, RowGroup>();
  const rows: RowGroup[] = [];
  for (const g of [...groups].sort((a, b) => a.anchor - b.anchor)) {
    const c = cell[g.anchor]!;
    const row = byCell.get(c);
    if (row && !figures(g.anchor)) row.members.push(...g.members);
    else {
      const own = { anchor: g.anchor, members: [...g.members] };
      rows.push(own);
      if (!row) byCell.set(c, own);
    }
  }
  // (Bands ruled off from their anchor go to the row of their own rules, when it has one.)
  for (const row of byCell.values())
    for (const i of [...row.members])
      if (cell[i] !== cell[row.anchor] && byCell.has(cell[i]!)) {
        row.members.splice(row.members.indexOf(i), 1);
        byCell.get(cell[i]!)!.members.push(i);
      }
  return rows.map((g) => ({ anchor: g.anchor, members: g.members.sort((a, b) => a - b) }));
}

/** A rule's position across its direction (`at`) and its extent along it (`a` … `b`). */
interface Piece {
  at: number;
  a: number;
  b: number;
}

/** Collinear pieces of rules (drawn cell by cell) joined. */
function joinPieces(pieces: Piece[]): Piece[] {
  const joined: Piece[] = [];
  for (const r of [...pieces].sort((p, q) => p.at - q.at || p.a - q.a)) {
    const last = joined.find((j) => Math.abs(j.at - r.at) <= SAME_RULE_Y && r.a <= j.b + PIECE_GAP && r.b >= j.a - PIECE_GAP);
    if (last) [last.a, last.b] = [Math.min(last.a, r.a), Math.max(last.b, r.b)];
    else joined.push({ ...r });
  }
  return joined;
}

/** A vertical rule through a table body: its x and the stretch of the body it runs along. */
export interface Wall {
  x: number;
  y0: number;
  y1: number;
}

/**
 * Vertical rules through a table body (y0 … y1): column borders, across which no cell's text runs. A rule counts
 * when it runs along at least RULE_SPAN_SHARE of the body's height.
 */
export function columnRules(rules: readonly Rule[] | undefined, y0: number, y1: number): Wall[] {
  return spanningRules(rules, false, y0, y1).map((r) => ({ x: r.at, y0: r.a, y1: r.b }));
}

/** Whether a wall stands between x positions a … b on the line from y0 to y1 (through its middle). */
export function walled(walls: readonly Wall[] | undefined, a: number, b: number, y0: number, y1: number): boolean {
  const mid = (y0 + y1) / 2;
  return !!walls?.some((w) => w.x >= a - 0.5 && w.x <= b + 0.5 && w.y0 <= mid && w.y1 >= mid);
}
