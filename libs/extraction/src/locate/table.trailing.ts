import type { FieldDef } from '../engine.types.js';
import { isPositionalKey } from './table.model.js';
import type { TablePart } from './table.pages.js';
import { textRuns, wordSpans } from './table.columns.js';

/**
 * A last column printed without a caption (prices beside a list under one heading): when the schema's only column
 * not placed by the header is its last one and is named by position only ("column_2"), it takes the body's last run
 * of words — set apart from the rest by a gutter — that lies right of every header cell.
 */

/** The run must hold words on at least this many body lines to be a column. */
const MIN_LINES = 2;

export function withTrailingColumn(part: TablePart, field: FieldDef): TablePart {
  const schema = field.fields ?? [];
  const placed = new Set(part.h.columns.flatMap((c) => (c.field ? [c.field.key] : [])));
  const missing = schema.filter((c) => !placed.has(c.key));
  const last = missing[0];
  if (missing.length !== 1 || !last || !isPositionalKey(last) || schema.indexOf(last) !== schema.length - 1) return part;
  const run = lastRun(part);
  const right = Math.max(...part.h.columns.map((c) => c.x1));
  if (!run || run[0] <= right) return part;
  const lines = part.body.filter((l) => l.words.some((w) => w.x0 >= run[0] && w.x1 <= run[1])).length;
  if (lines < MIN_LINES) return part;
  const columns = [...part.h.columns, { field: last, x0: run[0], x1: run[1], inferred: true }];
  return { ...part, h: { ...part.h, columns } };
}

/** The body's last run of words (x extent), if there is text left of it. */
function lastRun({ body, lh }: TablePart): [number, number] | undefined {
  const runs = textRuns(wordSpans(body), lh);
  return runs.length >= 2 ? runs[runs.length - 1] : undefined;
}
