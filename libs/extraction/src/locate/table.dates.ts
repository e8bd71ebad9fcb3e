/**
 * Dates in table rows. A date printed in words ("17 Feb 2025") is one cell value, never a day figure for a number
 * column and a month word for the text column; a column of dates or date ranges is no description.
 */
import { segments, spaceBetween } from '../layout/layout.builder.js';
import type { Line } from '../layout/layout.types.js';
import { findDates, type DateOrder } from '../parsers/date.parser.js';

/**
 * For each word of `line` inside a printed date, the index of the date's first word. A date is printed within one
 * cell: its words never span a gap between cells ("… at 31 December ‖ 49,136" holds no date "31 December 49").
 */
export function dateLeaders(line: Line, order?: DateOrder): Map<number, number> {
  const starts: number[] = [];
  const cellOf = new Map(segments(line, DATE_CELL_GAP).flatMap((seg, k) => seg.words.map((w) => [w, k] as const)));
  let text = '';
  line.words.forEach((w, i) => {
    if (i > 0 && cellOf.get(line.words[i - 1]!) !== cellOf.get(w)) text += ' ‖ ';
    else if (i > 0 && spaceBetween(line.words[i - 1]!, w)) text += ' ';
    starts.push(text.length);
    text += w.text;
  });
  const out = new Map<number, number>();
  for (const d of findDates(text, order)) {
    const inside = starts
      .map((s, i) => i)
      .filter((i) => starts[i]! < d.index + d.length && starts[i]! + line.words[i]!.text.length > d.index);
    if (inside.length > 1) for (const i of inside) out.set(i, inside[0]!);
  }
  return out;
}

/** Cells of a line part where words lie this many line heights apart (as the table's cells are read). */
const DATE_CELL_GAP = 1.2;

/** Text that holds only dates (and the dash between a range's ends): "17 Feb 2025 - 19 Mar 2025". */
export function isDatesOnly(text: string, order?: DateOrder): boolean {
  const dates = findDates(text, order);
  if (!dates.length) return false;
  let rest = text;
  for (const d of [...dates].sort((a, b) => b.index - a.index)) rest = rest.slice(0, d.index) + ' ' + rest.slice(d.index + d.length);
  return !/[\p{L}\d]/u.test(rest);
}
