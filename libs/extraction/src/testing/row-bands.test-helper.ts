import { mergeBands, type RowBand } from '../locate/table.bands.js';
import { groupRows, type RowRules } from '../locate/table.rows.js';

/** A line `h` high at `y`, with text per column key (the row stage's input, without a page). */
export const line = (y: number, cells: Record<string, string>, h = 8, textX0 = 100): RowBand => ({
  y0: y,
  y1: y + h,
  textX0,
  firstWord: Object.values(cells)[0]!.split(' ')[0]!,
  cells,
});

/** Rows as the texts per key, joined top to bottom. */
export function rows(lines: RowBand[], rules: RowRules): Record<string, string>[] {
  const bands = mergeBands(lines);
  return groupRows(
    bands.map((b) => b.band),
    rules,
  ).map((g) => {
    const out: Record<string, string> = {};
    for (const i of g.members) for (const [k, v] of Object.entries(bands[i]!.band.cells)) out[k] = out[k] ? `${out[k]} ${v}` : v;
    return out;
  });
}
