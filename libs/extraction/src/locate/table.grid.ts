/**
 * Tables without a header row whose schema names the columns by position only (`column_1` … `column_n`): the
 * columns are read off the cells' alignment. A run of consecutive lines with exactly one cell per schema column,
 * each cell over the same cell of the line above, is the table; cells map to the columns left to right.
 */
import type { FieldDef } from '../engine.types.js';
import { segments } from '../layout/layout.builder.js';
import { isPositionalKey } from './table.model.js';
import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { textColumns } from '../layout/page.columns.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';

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
  return cols.length >= 2 && cols.every(isPositionalKey);
}

type Cell = { x0: number; x1: number; text: string };

const overlaps = (a: Cell, b: Cell) => Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;

/** A run of grid lines on one page: its first line's index, its lines and the x extent of each column's cells. */
interface GridRun {
  start: number;
  lines: Line[];
  spans: Cell[];
}

/** A line with a blank cell joins a grid when it prints at least this many cells, each under one column. */
const PARTIAL_MIN_CELLS = 2;

/**
 * The column of each of a line's cells among a grid's column spans, left to right; undefined when a cell lies under
 * no column or under several, or two cells under one.
 */
function placeCells(cells: Cell[], spans: Cell[]): number[] | undefined {
  const at: number[] = [];
  for (const c of cells) {
    const hits = spans.flatMap((sp, k) => (overlaps(c, sp) ? [k] : []));
    if (hits.length !== 1 || (at.length > 0 && hits[0]! <= at[at.length - 1]!)) return undefined;
    at.push(hits[0]!);
  }
  return at;
}

/** Does `line`, printed within the row gap of `near`, fill some of the grid's columns (a row with blank cells)? */
function fitsPartly(line: Line, near: Line, spans: Cell[]): boolean {
  const cells = segments(line, GRID_CELL_GAP);
  const lh = Math.max(1, line.y1 - line.y0);
  const gap = Math.max(line.y0 - near.y1, near.y0 - line.y1);
  return cells.length >= PARTIAL_MIN_CELLS && cells.length < spans.length && gap <= lh * GRID_ROW_GAP && !!placeCells(cells, spans);
}

/**
 * Runs of aligned lines on one page: lines with `n` cells each, every cell over the same cell of the line above, and
 * among, after and (see `openEarlier`) before them lines whose cells each lie under one of the columns (rows with
 * blank cells).
 */
function gridRuns(lines: Line[], n: number): GridRun[] {
  const out: GridRun[] = [];
  let run: GridRun | undefined;
  let free = 0;
  const close = () => {
    if (run && run.lines.filter((l) => segments(l, GRID_CELL_GAP).length === n).length >= MIN_GRID_ROWS) {
      openEarlier(run, lines, free);
      out.push(run);
      free = run.start + run.lines.length;
    }
    run = undefined;
  };
  lines.forEach((line, i) => {
    const cells = segments(line, GRID_CELL_GAP);
    const lh = Math.max(1, line.y1 - line.y0);
    const last = run?.lines[run.lines.length - 1];
    const aligned =
      !!run && cells.length === n && line.y0 - last!.y1 <= lh * GRID_ROW_GAP && cells.every((c, k) => overlaps(c, run!.spans[k]!));
    if (aligned) {
      run!.lines.push(line);
      run!.spans = cells.map((c, k) => ({ x0: Math.min(c.x0, run!.spans[k]!.x0), x1: Math.max(c.x1, run!.spans[k]!.x1), text: '' }));
      return;
    }
    if (run && fitsPartly(line, last!, run.spans)) return void run.lines.push(line);
    close();
    if (cells.length === n) run = { start: i, lines: [line], spans: cells };
  });
  close();
  return out;
}

/** Takes into a grid the rows with blank cells printed right above its first full row (no earlier than `free`). */
function openEarlier(run: GridRun, lines: Line[], free: number): void {
  while (run.start > free && fitsPartly(lines[run.start - 1]!, run.lines[0]!, run.spans)) {
    run.start--;
    run.lines.unshift(lines[run.start]!);
  }
}

/** A grid line's cell texts by column: a full line's cells in order, a line with blank cells by where they lie. */
function gridTexts(line: Line, spans: Cell[]): string[] {
  const cells = segments(line, GRID_CELL_GAP);
  if (cells.length === spans.length) return cells.map((c) => c.text);
  const texts = spans.map(() => '');
  placeCells(cells, spans)?.forEach((k, j) => (texts[k] = cells[j]!.text));
  return texts;
}

/**
 * A list set in side-by-side blocks of the same columns ("1 100 200 ‖ 25 124 224", rows flowing on in a second block
 * of the page): consecutive lines that print one word per column of one or more blocks, each word under the word of
 * the line above, with two blocks or more on at least one line. Returns the lines' cells block after block: the first
 * block down the whole run, then the next.
 */
function flowedRuns(lines: Line[], n: number): { start: number; lines: Line[]; cells: Word[][] }[] {
  const out: { start: number; lines: Line[]; cells: Word[][] }[] = [];
  let run: { start: number; lines: Line[]; spans: Cell[] } | undefined;
  const close = () => {
    if (!run || run.lines.length < MIN_GRID_ROWS || run.spans.length < 2 * n) return void (run = undefined);
    const blocks = run.spans.length / n;
    const cells: Word[][] = [];
    for (let b = 0; b < blocks; b++)
      for (const l of run.lines) if (l.words.length >= (b + 1) * n) cells.push(l.words.slice(b * n, (b + 1) * n));
    out.push({ start: run.start, lines: run.lines, cells });
    run = undefined;
  };
  lines.forEach((line, i) => {
    const ws = line.words;
    const lh = Math.max(1, line.y1 - line.y0);
    const fits = ws.length >= n && ws.length % n === 0;
    const last = run?.lines[run.lines.length - 1];
    const joins =
      !!run &&
      fits &&
      line.y0 - last!.y1 <= lh * GRID_ROW_GAP &&
      ws.length <= run.spans.length &&
      ws.every((w, k) => overlaps(w as Cell, run!.spans[k]!));
    if (joins) {
      run!.lines.push(line);
      run!.spans = run!.spans.map((c, k) => (ws[k] ? { x0: Math.min(c.x0, ws[k].x0), x1: Math.max(c.x1, ws[k].x1), text: '' } : c));
      return;
    }
    close();
    if (fits) run = { start: i, lines: [line], spans: ws.map((w) => ({ x0: w.x0, x1: w.x1, text: '' })) };
  });
  close();
  return out;
}

/**
 * The first grid of the document (or of `page`) not yet `taken`, read into the schema's columns. `taken` holds
 * "grid:<page>:<first line>" of grids other fields read; a document with no such grid may hold a flowed one.
 */
export function gridTable(doc: DocLayout, field: FieldDef, ctx: DocContext, taken: Set<string>, page?: number): GridTable | undefined {
  const aligned = alignedGrid(doc, field, ctx, taken, page);
  const flowed = flowedGrid(doc, field, ctx, taken, page);
  // (A flowed list's last lines, one block only, read as a grid of their own: the flowed reading covers them.)
  const covers = (f: GridTable, a: GridTable) => f.page === a.page && f.bbox[1] <= a.bbox[1] && f.bbox[3] >= a.bbox[3];
  if (flowed && (!aligned || covers(flowed, aligned))) return { rows: flowed.rows, page: flowed.page, bbox: flowed.bbox };
  if (flowed) taken.delete(flowed.key);
  return aligned;
}

function flowedGrid(
  doc: DocLayout,
  field: FieldDef,
  ctx: DocContext,
  taken: Set<string>,
  page?: number,
): (GridTable & { key: string }) | undefined {
  const cols = field.fields ?? [];
  for (const p of doc.pages) {
    if (page !== undefined && p.number !== page) continue;
    for (const run of flowedRuns(p.lines, cols.length)) {
      const key = `flow:${p.number}:${run.start}`;
      if (taken.has(key)) continue;
      taken.add(key);
      const rows = run.cells.map((ws) =>
        rowOf(
          cols,
          ws.map((w) => w.text),
          ctx,
        ),
      );
      return { rows, page: p.number, bbox: boxOf(run.lines), key };
    }
  }
  return undefined;
}

function rowOf(cols: FieldDef[], texts: string[], ctx: DocContext): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  texts.forEach((text, k) => {
    const col = cols[k]!;
    const v = col.data_type === 'string' ? cleanString(text) : findTyped(text, col.data_type, ctx)[0]?.value;
    if (v !== undefined && v !== '') row[col.key] = v;
  });
  return row;
}

function boxOf(ls: Line[]): GridTable['bbox'] {
  return [
    Math.min(...ls.map((l) => l.x0)),
    Math.min(...ls.map((l) => l.y0)),
    Math.max(...ls.map((l) => l.x1)),
    Math.max(...ls.map((l) => l.y1)),
  ];
}

/** The first header-less grid of aligned cells (see the file's head). */
function alignedGrid(doc: DocLayout, field: FieldDef, ctx: DocContext, taken: Set<string>, page?: number): GridTable | undefined {
  const cols = field.fields ?? [];
  for (const p of doc.pages) {
    if (page !== undefined && p.number !== page) continue;
    for (const [view, lines] of readingViews(p).entries())
      for (const run of gridRuns(lines, cols.length)) {
        const key = `grid:${p.number}:${view}:${run.start}`;
        if (taken.has(key)) continue;
        taken.add(key);
        const rows = run.lines.map((line) => rowOf(cols, gridTexts(line, run.spans), ctx));
        return { rows, page: p.number, bbox: boxOf(run.lines) };
      }
  }
  return undefined;
}

/**
 * The line sequences a page's grids are looked for in, in reading order: on a page set in two text columns each
 * column's own lines first (a grid in one column shares its lines with the other column's text), then the page's.
 */
function readingViews(page: Page): Line[][] {
  const columns = textColumns(page);
  return columns ? [...columns, page.lines] : [page.lines];
}
