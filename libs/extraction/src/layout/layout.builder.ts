import type { Block, Line, Page, Word } from './layout.types.js';

/**
 * Groups positioned words into lines and blocks. Words are clustered by vertical overlap rather than
 * equal baselines, because OCR boxes and PDF runs of different font sizes on one visual line never
 * share an exact y.
 */
/** OCR words that are only vertical-bar glyphs. */
const RULE_GLYPH = /^[|¦│]+$/;
/** A new word is compared with only this many of the latest rows (words come sorted by their centre). */
const ROW_LOOKBACK = 4;
/** On scans, word bottoms within this fraction of the typical word height sit on one baseline. */
const SAME_BASE = 0.2;
/** A word joins a row when their centres are less than this fraction of the smaller height apart. */
const ROW_OVERLAP = 0.5;

export function buildPage(number: number, width: number, height: number, rawWords: Word[], ocr = false): Page {
  // On scans a lone `|` is a vertical rule or a box edge read as a letter, never text: it would glue cells
  // together and end up inside values ("CONTOH, | 12345").
  const words = rawWords.filter((w) => w.text.trim() !== '' && w.x1 >= w.x0 && w.y1 >= w.y0 && !(ocr && RULE_GLYPH.test(w.text)));
  // A scan or photo printed at a slant: rows are grouped on the deskewed centre so that the words of one
  // slanted line stay together instead of mixing with the line above or below.
  const slope = ocr ? skewOf(words) : 0;
  const centre = (w: Word) => (w.y0 + w.y1) / 2 - (slope * (w.x0 + w.x1)) / 2;
  words.sort((a, b) => centre(a) - centre(b) || a.x0 - b.x0);
  const rows: Word[][] = [];
  const rowBox: { y0: number; y1: number; base: number }[] = [];
  // OCR boxes of a word touching a rule or a smudge grow upwards, moving their centre off the line; their
  // bottom still sits on the line's baseline, so on scans equal bottoms also join a row.
  const heights = ocr ? words.map((w) => w.y1 - w.y0).sort((a, b) => a - b) : [];
  const typical = heights[heights.length >> 1] ?? 0;
  const bottom = (w: Word) => w.y1 - (slope * (w.x0 + w.x1)) / 2;
  for (const w of words) {
    const h = Math.max(1, w.y1 - w.y0);
    const cy = centre(w);
    let best = -1;
    let bestDist = Infinity;
    // Only look at the last few rows: words are sorted by centre so a match is always recent.
    for (let i = Math.max(0, rows.length - ROW_LOOKBACK); i < rows.length; i++) {
      const r = rowBox[i]!;
      const rc = (r.y0 + r.y1) / 2;
      const rh = Math.max(1, r.y1 - r.y0);
      const dist = Math.abs(cy - rc);
      const sameBase = typical > 0 && Math.abs(bottom(w) - r.base) < typical * SAME_BASE && dist < typical;
      if ((dist < Math.min(h, rh) * ROW_OVERLAP || sameBase) && dist < bestDist) {
        best = i;
        bestDist = dist;
      }
    }
    if (best < 0) {
      rows.push([w]);
      rowBox.push({ y0: cy - h / 2, y1: cy + h / 2, base: bottom(w) });
    } else {
      rows[best]!.push(w);
      const r = rowBox[best]!;
      r.y0 = Math.min(r.y0, cy - h / 2);
      r.y1 = Math.max(r.y1, cy + h / 2);
    }
  }
  const lines: Line[] = rows.map((ws) => makeLine(ws, number));
  if (slope) {
    const key = new Map(lines.map((l, i) => [l, rowBox[i]!.y0]));
    lines.sort((a, b) => key.get(a)! - key.get(b)! || a.x0 - b.x0);
  } else lines.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  return { number, width, height, lines, blocks: buildBlocks(lines), ocr };
}

/** A word's right-hand neighbour on its line has its centre within this many word heights vertically. */
const SKEW_REACH = 0.6;
/** The slant is measured from at least this many neighbouring word pairs. */
const MIN_SKEW_PAIRS = 10;
/** A pair agrees with the median slant when its slope has the same sign and at least 1/this of its size. */
const SKEW_AGREE_DIVISOR = 3;
/** A page is slanted when the median slope (dy/dx) exceeds this (about 0.9°). */
const MIN_SKEW = 0.015;
/** …and at least this share of the pairs agree with the median. */
const SKEW_AGREEMENT = 0.6;
/**
 * Page slant (dy/dx) from pairs of neighbouring words of similar height on one line; 0 unless clearly
 * slanted (at least 10 pairs, median beyond ~0.9° and most pairs agreeing), so straight pages keep their grouping.
 */
export function skewOf(words: Word[]): number {
  const byCy = [...words].sort((a, b) => a.y0 + a.y1 - (b.y0 + b.y1));
  const slopes: number[] = [];
  for (const [i, w] of byCy.entries()) {
    const h = w.y1 - w.y0;
    const cy = (w.y0 + w.y1) / 2;
    if (h <= 0 || !/[\p{L}\d]{2}/u.test(w.text)) continue;
    let next: Word | undefined;
    for (let j = i - 1; j >= 0 && (byCy[j]!.y0 + byCy[j]!.y1) / 2 >= cy - h * SKEW_REACH; j--) next = nearer(w, byCy[j]!, h, next);
    for (let j = i + 1; j < byCy.length && (byCy[j]!.y0 + byCy[j]!.y1) / 2 <= cy + h * SKEW_REACH; j++) next = nearer(w, byCy[j]!, h, next);
    if (next && /[\p{L}\d]{2}/u.test(next.text))
      slopes.push(((next.y0 + next.y1) / 2 - cy) / ((next.x0 + next.x1) / 2 - (w.x0 + w.x1) / 2));
  }
  if (slopes.length < MIN_SKEW_PAIRS) return 0;
  slopes.sort((a, b) => a - b);
  const med = slopes[slopes.length >> 1]!;
  const agree = slopes.filter((s) => Math.sign(s) === Math.sign(med) && Math.abs(s) >= Math.abs(med) / SKEW_AGREE_DIVISOR).length;
  return Math.abs(med) > MIN_SKEW && agree >= slopes.length * SKEW_AGREEMENT ? med : 0;
}

/** A neighbour may overlap the word's right edge by less than this many units (a kerned pair). */
const NEIGHBOUR_OVERLAP = 1;
/** A neighbour starts at most this many word heights right of the word. */
const NEIGHBOUR_GAP = 1.5;
/** A neighbour's height differs from the word's by at most this fraction (same font size). */
const NEIGHBOUR_HEIGHT_DIFF = 0.3;
/** The closer of two right-hand neighbours of `w` on its line (close gap, similar height). */
function nearer(w: Word, v: Word, h: number, best: Word | undefined): Word | undefined {
  const vh = v.y1 - v.y0;
  if (v === w || v.x0 <= w.x1 - NEIGHBOUR_OVERLAP || v.x0 - w.x1 > h * NEIGHBOUR_GAP || Math.abs(vh - h) > NEIGHBOUR_HEIGHT_DIFF * h)
    return best;
  return !best || v.x0 < best.x0 ? v : best;
}

export function makeLine(ws: Word[], page: number): Line {
  const sorted = [...ws].sort((a, b) => a.x0 - b.x0);
  // (One pass for the box: lines are made for every cell the locators cut, four spread arrays each were measurable.)
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const w of sorted) {
    x0 = Math.min(x0, w.x0);
    y0 = Math.min(y0, w.y0);
    x1 = Math.max(x1, w.x1);
    y1 = Math.max(y1, w.y1);
  }
  return { words: sorted, text: joinWords(sorted), x0, y0, x1, y1, page };
}

/** A gap wider than this fraction of the text height is a space between words (less is a split PDF run). */
const SPACE_GAP = 0.15;
/** A word starting below the previous one's bottom, less this fraction of the text height, is on the next line. */
const NEXT_LINE_OVERLAP = 0.3;
/** Is there a space between two consecutive words: a visual gap, or the second on the next line (a wrapped tail)? */
export function spaceBetween(prev: Word, w: Word): boolean {
  const h = Math.max(1, Math.min(w.y1 - w.y0, prev.y1 - prev.y0));
  return w.x0 - prev.x1 > h * SPACE_GAP || w.y0 >= prev.y1 - h * NEXT_LINE_OVERLAP;
}

/** Joins words, inserting a space only where there is a visual gap (PDF runs are often split mid-word). */
export function joinWords(ws: Word[]): string {
  let out = '';
  let prev: Word | undefined;
  for (const w of ws) {
    if (prev && spaceBetween(prev, w) && !out.endsWith(' ') && !w.text.startsWith(' ')) out += ' ';
    out += w.text;
    prev = w;
  }
  return out.replace(/\s+/g, ' ').trim();
}

// Locators ask for the cells of the same lines again and again (every field, every header candidate): memoise
// per line object and factor. Lines are never mutated once built; callers get their own copy of the array.
const segmentCache = new WeakMap<Line, Map<number, Line[]>>();

/** By default, a gap wider than this many text heights splits a line into cells (table columns). */
const SEGMENT_GAP = 1.2;
/**
 * A gap wider than this many text heights separates two cells of a form or letterhead line ("Invoice no.   12345",
 * "Firm ● Street 1        Invoice"): wider than a tab stop inside one cell.
 */
export const CELL_GAP = 2.5;
/** Splits a line into segments (cells) wherever the horizontal gap is wide compared to the text height. */
export function segments(line: Line, factor = SEGMENT_GAP): Line[] {
  let byFactor = segmentCache.get(line);
  if (!byFactor) segmentCache.set(line, (byFactor = new Map()));
  let segs = byFactor.get(factor);
  if (!segs) byFactor.set(factor, (segs = cutSegments(line, factor)));
  return segs.slice();
}

function cutSegments(line: Line, factor: number): Line[] {
  const out: Word[][] = [];
  let cur: Word[] = [];
  let prev: Word | undefined;
  for (const w of line.words) {
    const h = Math.max(1, Math.min(w.y1 - w.y0, prev ? prev.y1 - prev.y0 : Infinity));
    if (prev && w.x0 - prev.x1 > h * factor) {
      out.push(cur);
      cur = [];
    }
    cur.push(w);
    prev = w;
  }
  if (cur.length) out.push(cur);
  return out.map((ws) => makeLine(ws, line.page));
}

/** A vertical gap of more than this many line heights between two lines starts a new block (paragraph gap). */
const PARAGRAPH_GAP = 0.9;
/** Consecutive lines with small vertical gaps and overlapping x extents form a block (paragraph). */
function buildBlocks(lines: Line[]): Block[] {
  const blocks: Block[] = [];
  let cur: Line[] = [];
  for (const l of lines) {
    const prev = cur[cur.length - 1];
    const h = Math.max(1, l.y1 - l.y0);
    if (prev && l.y0 - prev.y1 > h * PARAGRAPH_GAP) {
      blocks.push({ lines: cur });
      cur = [];
    }
    cur.push(l);
  }
  if (cur.length) blocks.push({ lines: cur });
  return blocks;
}

/** Plain-text rows are laid out this many units apart: a line of height 1 and a gap of half a line. */
const TEXT_LINE_PITCH = 1.5;
/** Layout for plain text: one word per whitespace-separated token, monospace geometry (1 char = 1 unit). */
export function pageFromText(text: string, number = 1): Page {
  const words: Word[] = [];
  const rows = text.replace(/\r\n?/g, '\n').split('\n');
  rows.forEach((row, y) => {
    const expanded = row.replace(/\t/g, '    ');
    for (const m of expanded.matchAll(/\S+/g)) {
      words.push({ text: m[0], x0: m.index!, x1: m.index! + m[0].length, y0: y * TEXT_LINE_PITCH, y1: y * TEXT_LINE_PITCH + 1, conf: 1 });
    }
  });
  const width = Math.max(1, ...rows.map((r) => r.length));
  return buildPage(number, width, rows.length * TEXT_LINE_PITCH, words);
}

/** Index of the line of `page` whose band holds the vertical middle of `box` ([x0, y0, x1, y1]), or -1. */
export function lineIndexAt(page: Page, box: readonly number[]): number {
  const mid = (box[1]! + box[3]!) / 2;
  return page.lines.findIndex((l) => l.y0 <= mid && l.y1 >= mid);
}
