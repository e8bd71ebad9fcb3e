/** The table extractor's shared shapes: a header's columns and how a schema column's label is matched. */
import type { FieldDef } from '../engine.types.js';
import { conceptTokens, labelSpec, type LabelSpec } from './label.matcher.js';

export interface Column {
  /** Undefined for a printed header cell that no schema column claims: its words are dropped. */
  field?: FieldDef;
  /** Range guessed from the neighbours (no printed header): words only go here when they overlap it. */
  inferred?: boolean;
  /** An unclaimed header cell printing an item-code label ("Item code", "Art.-Nr."): its words are codes, never text. */
  code?: boolean;
  x0: number;
  x1: number;
}

export interface Header {
  page: number;
  lineIndex: number;
  /** Index of the last line that belongs to the header (headers may wrap over two lines). */
  lastLine: number;
  columns: Column[];
  score: number;
  /** The table's x extent when another table stands beside it (side-by-side headers on one line): words outside belong to that one. */
  bounds?: [number, number];
}

/** Header phrasings beyond the column's own label: a line "amount" is printed as "Total" or "Net". */
const specCache = new WeakMap<FieldDef, LabelSpec>();
export function columnSpec(c: FieldDef): LabelSpec {
  let spec = specCache.get(c);
  if (!spec) specCache.set(c, (spec = buildColumnSpec(c)));
  return spec;
}

function buildColumnSpec(c: FieldDef): LabelSpec {
  // A column named by its position only ("column_1", labelled "Column 1" or not at all) has no caption on the page to
  // look for: "1" in a figure is no header of it.
  if (isPositionalKey(c) && (!c.label || POSITIONAL_LABEL.test(c.label.trim()))) return { variants: [] };
  const spec = labelSpec(c.label, c.key);
  if (spec.variants.some((v) => v.includes('amount'))) spec.variants.push(['total'], ['line', 'total'], ['net']);
  if (spec.variants.some((v) => v.includes('description'))) spec.variants.push(['name'], ['title']);
  // Grouped headers ("LIMITS FOR DISCHARGES / to air"): the leaf is what is printed above the column.
  // Grouped headers: the last part of "Group / Leaf" is what is printed right above the column.
  const parts = (c.label ?? '').split(/\s+\/\s+/);
  if (parts.length > 1) spec.variants.push(conceptTokens(parts[parts.length - 1]!));
  return spec;
}

/** A column named price or amount (a money column of a priced table). */
export function namesMoney(c: FieldDef): boolean {
  return columnSpec(c)
    .variants.flat()
    .some((t) => t === 'price' || t === 'amount');
}

/** A column key that names a position only. */
const POSITIONAL_KEY = /^col(?:umn)?_?\d+$/i;
/** A column label that names a position only ("Column 2", "col 3"). */
const POSITIONAL_LABEL = /^col(?:umn)?\.?\s*\d+$/i;

/** Does the schema name this column by its position only ("column_2")? */
export const isPositionalKey = (c: FieldDef): boolean => POSITIONAL_KEY.test(c.key);

/** How many of the columns carry a printed, schema-named caption. */
/** A word that is one figure as a table cell prints it: digits with separators, a sign or brackets, a percent sign. */
export const FIGURE = /^[-+−(]?\d[\d.,']*%?\)?$/u;

export const named = (cs: Column[]) => cs.filter((c) => c.field && !c.inferred).length;

/** A header scoring at least this share of the best one's (naming as many columns) starts a table or a section. */
const HEADER_START_SHARE = 0.6;

/** Whether header `h` is about as good as `ref` (HEADER_START_SHARE of its score, as many named columns): a table's own. */
export const asStrongAs = (h: Header, ref: Header) => h.score >= ref.score * HEADER_START_SHARE && named(h.columns) >= named(ref.columns);

/** A mark printed in an empty cell ("none", "not available"): a dash, dots, or a timetable's bar (passes without calling). */
export const EMPTY_CELL_MARK = /^(?:[-–—]{1,3}|\||\.{2,3})$/;
