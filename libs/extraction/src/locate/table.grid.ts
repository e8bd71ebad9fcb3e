/**
 * Tables without a header row whose schema names the columns by position only (`column_1` … `column_n`): the
 * columns are read off the cells' alignment. A run of consecutive lines with exactly one cell per schema column,
 * each cell over the same cell of the line above, is the table; cells map to the columns left to right.
 */
import type { FieldDef } from '../engine.types.js';
import { segments } from '../layout/layout.builder.js';
import type { DocLayout, Line } from '../layout/layout.types.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';

/** A column key that names a position only. */
const POSITIONAL_KEY = /^col(?:umn)?_?\d+$/i;
/** Cells of a grid row stand apart by at least this many line heights. */
const GRID_CELL_GAP = 1.2;
/** Rows of one grid follow each other with a gap under this many line heights. */
const GRID_ROW_GAP = 2.5;
/** A grid has at least this many rows. */
const MIN_GRID_ROWS = 2;

export interface GridTable {
  rows: Record<string, unknown>[];
  page: number;
  bbox: [number, number, number, number];
}

/** Does the schema name this table's columns by position only? */
export function isPositional(field: FieldDef): boolean {
  const cols = field.fields ?? [];
  return cols.length >= 2 && cols.every((c) => POSITIONAL_KEY.test(c.key));
}

type Cell = { x0: number; x1: number; text: string };

const overlaps = (a: Cell, b: Cell) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;

/** Runs of aligned lines with `n` cells each on one page, as [first line index, lines]. */
function gridRuns(lines: Line[], n: number): { start: number; lines: Line[] }[] {
  const out: { start: number; lines: Line[] }[] = [];
  let run: { start: number; lines: Line[]; cells: Cell[] } | undefined;
  const close = () => {
    if (run && run.lines.length >= MIN_GRID_ROWS) out.push({ start: run.start, lines: run.lines });
    run = undefined;
  };
  lines.forEach((line, i) => {
    const cells = segments(line, GRID_CELL_GAP);
    const lh = Math.max(1, line.y1 - line.y0);
    const last = run?.lines[run.lines.length - 1];
    const aligned =
      !!run && cells.length === n && line.y0 - last!.y1 <= lh * GRID_ROW_GAP && cells.every((c, k) => overlaps(c, run!.cells[k]!));
    if (aligned) {
      run!.lines.push(line);
      run!.cells = cells.map((c, k) => ({ x0: Math.min(c.x0, run!.cells[k]!.x0), x1: Math.max(c.x1, run!.cells[k]!.x1), text: '' }));
      return;
    }
    close();
    if (cells.length === n) run = { start: i, lines: [line], cells };
  });
  close();
  return out;
}

/**
 * The first grid of the document (or of `page`) not yet `taken`, read into the schema's columns. `taken` holds
 * "grid:<page>:<first line>" of grids other fields read.
 */
export function gridTable(doc: DocLayout, field: FieldDef, ctx: DocContext, taken: Set<string>, page?: number): GridTable | undefined {
  const cols = field.fields ?? [];
  for (const p of doc.pages) {
    if (page !== undefined && p.number !== page) continue;
    for (const run of gridRuns(p.lines, cols.length)) {
      const key = `grid:${p.number}:${run.start}`;
      if (taken.has(key)) continue;
      taken.add(key);
      const rows = run.lines.map((line) => {
        const row: Record<string, unknown> = {};
        segments(line, GRID_CELL_GAP).forEach((cell, k) => {
          const col = cols[k]!;
          const v = col.data_type === 'string' ? cleanString(cell.text) : findTyped(cell.text, col.data_type, ctx)[0]?.value;
          if (v !== undefined && v !== '') row[col.key] = v;
        });
        return row;
      });
      const ls = run.lines;
      const bbox: GridTable['bbox'] = [
        Math.min(...ls.map((l) => l.x0)),
        Math.min(...ls.map((l) => l.y0)),
        Math.max(...ls.map((l) => l.x1)),
        Math.max(...ls.map((l) => l.y1)),
      ];
      return { rows, page: p.number, bbox };
    }
  }
  return undefined;
}
