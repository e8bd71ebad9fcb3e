/** The bands of a table body: its lines with their text per column, merged where they share a row's height. */

/** One body line (or band of lines) with its text per column key, words in reading order. */
export interface RowBand {
  y0: number;
  y1: number;
  /** Left edge of the band's words in text columns (Infinity when none). */
  textX0: number;
  /** First word of the band (notes such as "Serial: …" start with a label). */
  firstWord: string;
  cells: Record<string, string>;
  /**
   * One run of text (words at ordinary word spacing, no gutter between them) split over two or more columns:
   * printed across the column grid, as notes and statistics under a table are, not cell by cell.
   */
  spans?: boolean;
  /** Where the text of each column lies: left and right edge, and the width of its first word. */
  geom?: Record<string, CellGeom>;
  /** Height of the band's text when it merges lines (its smallest line's); a one-line band's is its own height. */
  lineH?: number;
}

/** The height of a band's text (the size it is set in). */
export const textHeight = (b: RowBand): number => b.lineH ?? b.y1 - b.y0;

/** A line whose text is at most this share of its row's text height is set in a smaller face (a note, a code line). */
const SMALLER_TEXT = 0.9;

/** How many bands from s to e, counted from s on, are set smaller than band `above` (the row they stand under). */
export function smallerFrom(bands: readonly RowBand[], above: number, s: number, e: number): number {
  const rowH = textHeight(bands[above]!);
  let n = 0;
  while (s + n <= e && textHeight(bands[s + n]!) <= rowH * SMALLER_TEXT) n++;
  return n;
}

export interface CellGeom {
  x0: number;
  x1: number;
  /** Width of the cell's first word. */
  firstW: number;
}

/**
 * Merges lines into bands: consecutive lines whose vertical centres are closer than ~0.7 line heights belong
 * to one row (a one-line cell centred between the two lines of its wrapped neighbour). Texts of a column are
 * joined top to bottom.
 */
export function mergeBands(lines: RowBand[]): { band: RowBand; lines: number[] }[] {
  const out: { band: RowBand; lines: number[] }[] = [];
  lines.forEach((l, i) => {
    const last = out[out.length - 1];
    const h = Math.max(1, Math.min(l.y1 - l.y0, ...(last ? last.lines.map((j) => lines[j]!.y1 - lines[j]!.y0) : [Infinity])));
    const cy = (l.y0 + l.y1) / 2;
    if (last && last.lines.some((j) => Math.abs((lines[j]!.y0 + lines[j]!.y1) / 2 - cy) < h * 0.7)) {
      const b = last.band;
      const cells = { ...b.cells };
      for (const [k, v] of Object.entries(l.cells)) cells[k] = cells[k] ? `${cells[k]} ${v}` : v;
      // Geometry per column: the left edge of both, the right edge and first word of the line read first.
      const geom = { ...l.geom, ...b.geom };
      for (const [k, g] of Object.entries(l.geom ?? {})) if (b.geom?.[k]) geom[k] = { ...b.geom[k]!, x0: Math.min(b.geom[k]!.x0, g.x0) };
      last.band = {
        y0: Math.min(b.y0, l.y0),
        y1: Math.max(b.y1, l.y1),
        textX0: Math.min(b.textX0, l.textX0),
        firstWord: b.firstWord,
        cells,
        spans: !!(b.spans || l.spans),
        geom,
        lineH: Math.min(textHeight(b), textHeight(l)),
      };
      last.lines.push(i);
    } else out.push({ band: { ...l, cells: { ...l.cells } }, lines: [i] });
  });
  return out;
}
