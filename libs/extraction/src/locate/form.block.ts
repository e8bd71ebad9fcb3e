/** Reading a form value: cells of a row, a figure's unit, the block of lines below a label, and the typed value. */
import { CELL_GAP, makeLine } from '../layout/layout.builder.js';
import type { FieldDef } from '../engine.types.js';
import type { Line, Page, Word } from '../layout/layout.types.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { UNDER_SLACK, type LabelHit } from './form.label.js';
import { isMark } from './form.mark.js';
import { compact, heightOf, LABEL_LIKE, SEPARATOR } from './form.text.js';

export /** Words level with the label are looked for this many lines above and below its line. */
const ROW_REACH = 3;

/**
 * Splits a row into cells at wide gaps (2.5 letter heights). The letter height is that of the row's words
 * with letters or digits: a dash or dot read as a word of its own is a few pixels high and would cut the
 * value at the next ordinary space ("MAGAZINE - BIG SKY").
 */
export function cells(words: Word[], page: number): Line[] {
  const sorted = [...words].sort((a, b) => a.x0 - b.x0);
  const hs = sorted
    .filter((w) => /[\p{L}\d]/u.test(w.text))
    .map(heightOf)
    .sort((a, b) => a - b);
  const h = hs.length ? hs[Math.floor(hs.length / 2)]! : Math.max(1, ...sorted.map(heightOf));
  const out: Word[][] = [];
  for (let i = 0; i < sorted.length; i++) {
    // Underscores and rules are blanks to fill in: they end a cell too.
    const blank = (w: Word) => /^(_+|[-—–=~_]{2,})$/.test(w.text);
    // A currency sign printed before the blank belongs to the amount written in it ("$ ____ 1,200").
    const sign = /^\p{Sc}$/u.test(sorted[i - 1]?.text ?? '') && out[out.length - 1]?.length === 1;
    if (i === 0 || (!sign && sorted[i]!.x0 - sorted[i - 1]!.x1 > h * CELL_GAP) || blank(sorted[i]!) || blank(sorted[i - 1]!)) out.push([]);
    out[out.length - 1]!.push(sorted[i]!);
  }
  // Specks at a cell's ends ("Jr. °", "EXPANSION -") are noise, not part of the value.
  const trimmed = out
    .map((ws) => {
      let a = 0;
      let b = ws.length;
      while (b > a + 1 && /^[^\p{L}\d()$%#&]+$/u.test(ws[b - 1]!.text)) b--;
      while (b > a + 1 && /^[^\p{L}\d()$%#&[|]+$/u.test(ws[a]!.text)) a++;
      return ws.slice(a, b);
    })
    .filter((ws) => ws.length);
  return trimmed.map((ws) => makeLine(ws, page));
}

/** A unit of measure printed in a column of its own after a figure ("974   mg") has at most this many letters. */
const UNIT_LETTERS = 3;
/**
 * The first cell of a row, with the unit printed in its own column after it when the cell is a bare figure and
 * the next cell a short lower-case word or a percent sign ("974   mg", "13.5   %"): the figure's unit, not another field.
 */
export function withUnit(cs: Line[]): Word[] {
  const [first, next] = cs;
  const unit = new RegExp(`^(\\p{Ll}{1,${UNIT_LETTERS}}\\.?|%)$`, 'u');
  // (A figure OCR doubts gets no unit: the unit must not lend it the confidence to be answered.)
  const figure = first!.words.length === 1 && /^[\d.,]+$/.test(first!.words[0]!.text) && first!.words[0]!.conf >= SCRAP_CONF;
  if (figure && next?.words.length === 1 && unit.test(next.words[0]!.text)) return [...first!.words, ...next.words];
  return first!.words;
}

/** A count cell: a whole number, maybe with what it counts ("2", "3 item(s)", "12 pcs"). */
const COUNT_CELL = /^\d{1,4}(?:\s+\p{L}[^\d]*)?$/u;
/**
 * An amount's answer cells printing a count before the amount ("TOTAL  2  10.00", "Total  3 item(s)  10.00"): the
 * amount is the last cell, a figure with cents after counts only.
 */
export function amountAfterCount(cs: Line[]): Word[] | undefined {
  const last = cs[cs.length - 1];
  if (cs.length < 2 || !last || !/^\d[\d,]*[.,]\d{2}$/.test(last.text.trim())) return undefined;
  return cs.slice(0, -1).every((c) => COUNT_CELL.test(c.text.trim())) ? last.words : undefined;
}

/** Words of one printed label stand closer than this many letter heights; a wider gap before a label ends the value. */
const LABEL_PHRASE_GAP = 0.7;
/**
 * Where the printed label ending at `words[end]` (a word ending in a colon) starts: after the last gap of at
 * least LABEL_PHRASE_GAP letter heights before it; 0 when there is none (all the words may be the label).
 */
export function labelStart(words: Word[], end: number, h: number): number {
  for (let i = end; i > 0; i--) if (words[i]!.x0 - words[i - 1]!.x1 >= h * LABEL_PHRASE_GAP) return i;
  return 0;
}

/** Lines of wrapped running text follow with a gap under this many letter heights. */
export const WRAP_LINE_GAP = 0.8;
/** Lines of a value block follow with a gap under this many letter heights. */
const VALUE_LINE_GAP = 1.2;
/** A cell starting more than this many letter heights right of the anchor is another column's. */
export const ANCHOR_REACH = 6;
/** Lines of one value start within this many letter heights of each other. */
const VALUE_ALIGN = 1.5;
/** The lines OCR split off level with line `k` (their middles inside its band), within ROW_REACH lines of it. */
function levelLines(page: Page, k: number): Line[] {
  const l = page.lines[k]!;
  const near = page.lines.slice(Math.max(0, k - ROW_REACH), k + ROW_REACH + 1).filter((o) => o !== l);
  return near.filter((o) => (o.y0 + o.y1) / 2 > l.y0 && (o.y0 + o.y1) / 2 < l.y1);
}

/** Where and how blockBelow reads a value downward. Positions are page units; gaps and reaches are letter heights. */
interface BlockQuery {
  /** The first line looked at (lines above it are never read). */
  firstLine: number;
  /** The foot of the label's row: a first line whose middle is not below it was split off that row. */
  top: number;
  /** The column's left edge: words count when their middle lies in [left, right). */
  left: number;
  /** The column's right edge (exclusive). */
  right: number;
  /** Where the value is expected to start: the cell starting nearest to it is read. */
  anchorX: number;
  /** The letter height gaps and reaches are measured in. */
  h: number;
  /** At most this many lines are read. */
  maxLines: number;
  /** Is word `i` of line `li` a printed label (a delimiter: the value ends before it)? */
  isDelim: (li: number, i: number) => boolean;
  /** The first line starts at most this many letter heights below `top`. */
  firstGap: number;
  /** Wrapped running text: lines follow within WRAP_LINE_GAP and stop at text left of the column. Default false. */
  wrap?: boolean;
  /** When wrapping, text starting left of this is a new row. Default -Infinity (none). */
  startLeft?: number;
  /** The first line's cell starts at most this many letter heights right of the anchor. Default ANCHOR_REACH. */
  firstReach?: number;
  /** Text ending before this is another column's, not a new row of this one. Default -Infinity (none). */
  columnLeft?: number;
}

/**
 * Words of a value read downward from `q.firstLine`, within the column [left, right). The first line's cell may
 * start at most `firstReach` letter heights right of the anchor (ANCHOR_REACH unless the caller knows better).
 */
export function blockBelow(page: Page, q: BlockQuery): Word[][] {
  const {
    firstLine,
    top,
    left,
    right,
    anchorX,
    h,
    maxLines,
    isDelim,
    firstGap,
    wrap = false,
    startLeft = -Infinity,
    firstReach = ANCHOR_REACH,
    columnLeft = -Infinity,
  } = q;
  const out: Word[][] = [];
  let bottom = top;
  for (let k = firstLine; k < page.lines.length && out.length < maxLines; k++) {
    const l = page.lines[k]!;
    // Lines split off the label's own visual row (OCR boxes of typed fill-ins sit higher) are not below it.
    if (!out.length && (l.y0 + l.y1) / 2 <= top) continue;
    const gap = l.y0 - bottom;
    if (gap > h * (out.length ? (wrap ? WRAP_LINE_GAP : VALUE_LINE_GAP) : firstGap)) break;
    // Wrapped running text continues under its start; a line with text further left is a new row.
    // (A doubtful scrap in the margin, a speck or a stroke of the frame, is no text.)
    // (Text level with the line that OCR split off into a line of its own counts too.)
    // (Text ending clear of the label's own start, before `columnLeft`, is another column's, not a new row of this one.)
    const leftText = (ws: Word[]) =>
      ws.some((w) => w.x1 >= columnLeft && (w.x1 < left || w.x0 < startLeft) && /[\p{L}\d]{2,}/u.test(w.text) && w.conf >= SCRAP_CONF);
    if (wrap && (leftText(l.words) || levelLines(page, k).some((o) => leftText(o.words)))) break;
    // Nor does it continue into a line whose own label (a printed label or a word ending in a colon) starts left of it.
    if (
      (wrap || out.length) &&
      l.words.some((w, i) => w.x1 >= columnLeft && w.x0 < anchorX - h * UNDER_SLACK && (isDelim(k, i) || LABEL_LIKE.test(w.text)))
    )
      break;
    const idx = l.words.map((w, i) => ({ w, i })).filter(({ w }) => (w.x0 + w.x1) / 2 >= left && (w.x0 + w.x1) / 2 < right);
    if (!idx.length) continue;
    // The part of the line under the anchor: the cell (wide-gap segment) that starts nearest to it.
    const segs = cells(
      idx.map((x) => x.w),
      page.number,
    );
    const seg = segs.find((s) => s.x1 > anchorX - h) ?? segs[segs.length - 1]!;
    // (A hanging value's later lines are held to its first line's start by the alignment below.)
    if (seg.x0 > anchorX + h * firstReach) {
      if (out.length) break;
      continue;
    }
    // Lines of one value start under each other.
    if (out.length && Math.abs(seg.x0 - out[0]![0]!.x0) > h * VALUE_ALIGN) break;
    const { words, stop } = beforeLabel(l, k, seg, isDelim, h);
    if (words.length) out.push(words);
    if (stop || !words.length) break;
    bottom = l.y1;
  }
  return out;
}

/**
 * The words of cell `seg` of line `k` before the first printed label in it; `stop` when a label ends the value
 * there (a schema label, or a word ending in a colon).
 */
function beforeLabel(
  l: Line,
  k: number,
  seg: Line,
  isDelim: (li: number, i: number) => boolean,
  h: number,
): { words: Word[]; stop: boolean } {
  const words: Word[] = [];
  let stop = false;
  for (const w of seg.words) {
    const i = l.words.indexOf(w);
    if (isDelim(k, i) || (words.length === 0 && LABEL_LIKE.test(w.text))) {
      stop = true;
      break;
    }
    words.push(w);
  }
  // A printed label further along the line ("Ref. No.:") opens the next row: the value ends before it.
  const colon = words.findIndex((w, i) => i > 0 && LABEL_LIKE.test(w.text));
  if (colon > 0) {
    words.splice(labelStart(words, colon, h));
    stop = true;
  }
  return { words, stop };
}

/** OCR confidence below which a short word at either end of a value is a speck or a stray stroke. */
export const SCRAP_CONF = 0.3;
/** Longest such scrap, in letters and digits. */
const SCRAP_LEN = 2;

/**
 * A value without the doubtful scraps at its ends ("29,500 B", "Ce Free"): short words OCR was unsure of
 * (specks, a stroke of the box, a mark of a neighbouring field). A lone word, a figure and an initial ("J.") are kept.
 */
function trimScraps(words: Word[]): Word[] {
  const scrap = (w: Word) =>
    w.conf < SCRAP_CONF && compact(w.text).length <= SCRAP_LEN && !isMark(w.text) && !/^\(?\d|^\p{Lu}\.$/u.test(w.text);
  let a = 0;
  let b = words.length;
  while (b - a > 1 && scrap(words[b - 1]!)) b--;
  while (b - a > 1 && scrap(words[a]!)) a++;
  return words.slice(a, b);
}

/** An initial OCR read with a comma for its period before the next initial ("R, H. Doe" → "R. H. Doe"). */
const COMMA_INITIAL = /(^|\s)(\p{Lu}),(?=\s\p{Lu}\.)/gu;
/** A stroke of the fill-in blank glued to the start or end of a word of the value ("_923-9208"). */
const GLUED_BLANK = /(^|\s)_(?=[\p{L}\d(])|(?<=[\p{L}\d.)])_(?=\s|$)/gu;
/** A stroke of the fill-in blank OCR read between two typed words, in place of the space ("TWO_WORDS"). */
const INNER_BLANK = /(?<=[\p{L}\d.,:)])_(?=[\p{L}\d(])/gu;

function typed(words: Word[], field: FieldDef, ctx: DocContext): unknown {
  const text = words.map((w) => w.text).join(' ');
  if (field.data_type === 'string') {
    // (A check-box mark is answered as printed: "_X_".)
    const mark = words.length === 1 && isMark(text);
    const s = cleanString(
      mark
        ? text.replace(/_{2,}/g, ' ')
        : text.replace(/_{2,}/g, ' ').replace(GLUED_BLANK, '$1').replace(INNER_BLANK, ' ').replace(COMMA_INITIAL, '$1$2.'),
    );
    return /[\p{L}\d☑]/u.test(s) ? s : undefined;
  }
  return findTyped(text, field.data_type, ctx)[0]?.value;
}

/** The typed value of a value's lines and the words it was read from: strings take the whole block, other types the first line that parses. */
export function readValue(lines: Word[][], field: FieldDef, ctx: DocContext): { value: unknown; used: Word[] } {
  // Typed values may sit on either line of the block; strings take the whole block.
  if (field.data_type === 'string') {
    const used = trimScraps(lines.flat());
    return { value: typed(used, field, ctx), used };
  }
  for (const ws of lines) {
    const value = typed(ws, field, ctx);
    if (value !== undefined) return { value, used: ws };
  }
  return { value: undefined, used: [] };
}

/** A word that is a leader line, OCR noise included ("——————m——a", "=—eeae", "~———mmeee"). */
export function isLeader(text: string): boolean {
  return /^[^\p{L}\d]+$/u.test(text) || (/[-—–=~_]{2,}/.test(text) && /^[-—–=~_.·:;,'"‘’“”\s emaonrwc]+$/i.test(text));
}

/**
 * A label printed over several lines ("SAMPLING / HOURS:") whose first line holds nothing after it but
 * leaders has its value beside its last line: the hit is re-anchored there (the lines above are label).
 */
export function lastLineOf(page: Page, hit: LabelHit, isDelimWord: (w: Word) => boolean): LabelHit {
  if (!hit.more?.length) return hit;
  const valueAfter = (li: number, end: number) => {
    for (const w of page.lines[li]!.words.slice(end)) {
      if (isDelimWord(w)) return false;
      if (!SEPARATOR.test(w.text)) return true;
    }
    return false;
  };
  if (valueAfter(hit.line, hit.end)) return hit;
  const last = Math.max(...hit.more.map(([l]) => l));
  const idx = hit.more.filter(([l]) => l === last).map(([, w]) => w);
  const start = Math.min(...idx);
  const end = Math.max(...idx) + 1;
  if (!valueAfter(last, end)) return hit;
  return { page: hit.page, line: last, start, end, score: hit.score };
}
