import type { FieldDef } from '../engine.types.js';
import { CELL_GAP, makeLine } from '../layout/layout.builder.js';
import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { conceptTokens } from './label.matcher.js';
import { isItemRow, isLabelRow, plausible, refine, type Located } from './field.locator.js';
import { claimLabels, gluedAnswer, isLabelPiece, labelPart, schemaLabels, UNDER_SLACK, type LabelHit } from './form.label.js';
import { BOX, checkMark, isMark } from './form.mark.js';
import { compact, heightOf, LABEL_LIKE, SEPARATOR } from './form.text.js';

/**
 * Printed-label location for forms: the schema's labels are the questions exactly as printed on the page
 * ("Name / Room No", "DATE RECEIVED"), so they are looked up character by character (OCR garbles
 * letters, spacing and punctuation) rather than by concept. The value is the text right of the label on
 * its line, else the block below it; it ends at another field's printed label (every label of the schema
 * is a delimiter), at a wide gap, at a new column or at a vertical gap.
 */

/** A word that is a leader line, OCR noise included ("——————m——a", "=—eeae", "~———mmeee"). */
export function isLeader(text: string): boolean {
  return /^[^\p{L}\d]+$/u.test(text) || (/[-—–=~_]{2,}/.test(text) && /^[-—–=~_.·:;,'"‘’“”\s emaonrwc]+$/i.test(text));
}

/**
 * Splits a row into cells at wide gaps (2.5 letter heights). The letter height is that of the row's words
 * with letters or digits: a dash or dot read as a word of its own is a few pixels high and would cut the
 * value at the next ordinary space ("MAGAZINE - BIG SKY").
 */
function cells(words: Word[], page: number): Line[] {
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
function withUnit(cs: Line[]): Word[] {
  const [first, next] = cs;
  const unit = new RegExp(`^(\\p{Ll}{1,${UNIT_LETTERS}}\\.?|%)$`, 'u');
  // (A figure OCR doubts gets no unit: the unit must not lend it the confidence to be answered.)
  const figure = first!.words.length === 1 && /^[\d.,]+$/.test(first!.words[0]!.text) && first!.words[0]!.conf >= SCRAP_CONF;
  if (figure && next?.words.length === 1 && unit.test(next.words[0]!.text)) return [...first!.words, ...next.words];
  return first!.words;
}

/** Words of one printed label stand closer than this many letter heights; a wider gap before a label ends the value. */
const LABEL_PHRASE_GAP = 0.7;
/**
 * Where the printed label ending at `words[end]` (a word ending in a colon) starts: after the last gap of at
 * least LABEL_PHRASE_GAP letter heights before it; 0 when there is none (all the words may be the label).
 */
function labelStart(words: Word[], end: number, h: number): number {
  for (let i = end; i > 0; i--) if (words[i]!.x0 - words[i - 1]!.x1 >= h * LABEL_PHRASE_GAP) return i;
  return 0;
}

/** Lines of wrapped running text follow with a gap under this many letter heights. */
const WRAP_LINE_GAP = 0.8;
/** Lines of a value block follow with a gap under this many letter heights. */
const VALUE_LINE_GAP = 1.2;
/** A cell starting more than this many letter heights right of the anchor is another column's. */
const ANCHOR_REACH = 6;
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
function blockBelow(page: Page, q: BlockQuery): Word[][] {
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
const SCRAP_CONF = 0.3;
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

/** Mean OCR confidence of a value's words below which the value is unreadable and not answered. */
const UNREADABLE_CONF = 0.3;

/** Weight of a form label anchoring an amount when the label is printed more often than it is asked for. */
const AMBIGUOUS = 0.8;
/** A value's words start at most this many units left of the label's end (box edges overlap). */
const AFTER_SLACK = 1;
/** A word of a neighbouring line overlaps the label's band by at least this share of the smaller height. */
const LEVEL_OVERLAP = 0.5;
/** A fill-in's foot lies within this many label heights of the label's band. */
const FOOT_SLACK = 0.5;
/** Words level with the label are looked for this many lines above and below its line. */
const ROW_REACH = 3;
/** A value's column ends this many letter heights before the next label on its row. */
const COLUMN_MARGIN = 0.5;
/** A leader "word" lower than this share of a letter height… */
const FLAT_SCRAP = 0.45;
/** …read with OCR confidence below this is a dotted or dashed leader. */
const FLAT_SCRAP_CONF = 0.5;
/** A doubtful scrap standing apart before the value has at most this many characters. */
const LEADER_SCRAP_LEN = 3;
/** A string value takes at most this many lines… */
const MAX_STRING_LINES = 12;
/** …other values this many (the value and a line under it). */
const MAX_VALUE_LINES = 2;
/** A value that repeats the label's start over at least this many letters is the next column's heading. */
const MIN_REPEAT = 3;
/**
 * …and covers at least this share of the label's letters: a repeated heading is (most of) the label again, while
 * an answer naming one option of a label that lists them ("BOX OR CRATE   BOX") is only its first word.
 */
const MIN_REPEAT_SHARE = 0.5;
/** A value of at most this many words ending in a colon is a label, not a value. */
const LABEL_VALUE_WORDS = 3;
/** A value (and a line) of at least this many words is running text that may wrap. */
const RUNNING_TEXT_WORDS = 3;
/** A short value's next line has nothing starting more than this many letter heights left of the value's start. */
const SHORT_WRAP_SLACK = 0.5;
/** A value line ending within this share of the label-to-margin width of the text's right margin is full. */
const FULL_LINE = 0.25;
/** A value under its label starts at most this many letter heights below the label. */
const BELOW_LABEL_GAP = 3;
/** A label alone on its row has its answer anywhere right in its column on a line starting within this many letter heights below it. */
const HANGING_GAP = 1;

export interface FormCandidate extends Located {
  labelScore: number;
  /** Where the value was read: right of the label, below it, or a check-box mark. */
  how?: 'right' | 'below' | 'mark';
}

/**
 * A label printed over several lines ("SAMPLING / HOURS:") whose first line holds nothing after it but
 * leaders has its value beside its last line: the hit is re-anchored there (the lines above are label).
 */
function lastLineOf(page: Page, hit: LabelHit, isDelimWord: (w: Word) => boolean): LabelHit {
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

/** One claimed label as the stages of its value see it. */
interface Anchor {
  page: Page;
  /** The label's hit, re-anchored on its last line when its value is beside that line (lastLineOf). */
  hit: LabelHit;
  /** The line the label ends its row on, and the label's words in it. */
  line: Line;
  labelWords: Word[];
  /** The label's letter height. */
  h: number;
  /** The label's left edge and its right edge (where an answer glued to its last word starts). */
  lx0: number;
  lx1: number;
  /** The label's band: top and foot of its words. */
  ly0: number;
  ly1: number;
  /** An answer OCR glued to the label's last word, as a word of its own. */
  glued: Word | undefined;
  /** Is word `i` of line `li`, or a word of the page, a printed label (a delimiter)? */
  isDelim: (li: number, i: number) => boolean;
  isDelimWord: (w: Word) => boolean;
}

/** How far a value may run: to the column's right edge, from the foot of the label's row, over at most maxLines lines. */
interface Extent {
  right: number;
  rowBottom: number;
  maxLines: number;
}

/** The label of a claim as its value's stages see it: its words, their box and the page's delimiter tests. */
function anchorOf(page: Page, claimed: LabelHit, delimiters: Set<string>): Anchor {
  const keyOf = new Map<Word, string>();
  page.lines.forEach((l, li) => l.words.forEach((w, i) => keyOf.set(w, `${page.number}:${li}:${i}`)));
  const isDelim = (li: number, i: number) => delimiters.has(`${page.number}:${li}:${i}`);
  const isDelimWord = (w: Word) => delimiters.has(keyOf.get(w) ?? '');
  const hit = lastLineOf(page, claimed, isDelimWord);
  const line = page.lines[hit.line]!;
  const labelWords = line.words.slice(hit.start, hit.end);
  const h = Math.max(...labelWords.map(heightOf));
  const lx0 = labelWords[0]!.x0;
  // (An answer glued to the label's last word starts where its text starts in that word.)
  const glued = gluedAnswer(labelWords[labelWords.length - 1]!);
  const lx1 = glued ? glued.x0 : labelWords[labelWords.length - 1]!.x1;
  const ly0 = Math.min(...labelWords.map((w) => w.y0));
  const ly1 = Math.max(...labelWords.map((w) => w.y1));
  return { page, hit, line, labelWords, h, lx0, lx1, ly0, ly1, glued, isDelim, isDelimWord };
}

/** The words of line `l` right of the label's end, the label's own words left out. */
function wordsAfter(a: Anchor, l: Line): Word[] {
  return l.words.filter((w) => w.x0 >= a.lx1 - AFTER_SLACK && !a.labelWords.includes(w));
}

/**
 * The label's row: the rest of its line and the words level with the label; when that holds nothing but
 * separators, the line split off beside it (a typed fill-in sitting a little higher or lower).
 */
function labelRow(a: Anchor): Word[] {
  const { page, hit, ly0, ly1 } = a;
  let row = a.glued ? [a.glued, ...wordsAfter(a, a.line)] : wordsAfter(a, a.line);
  // Words of neighbouring lines level with the label belong to its row too (OCR splits a visual row whose
  // boxes differ in height): half of the lower box overlaps the label's band. When nothing but separators
  // stands between the label and the next label on its own line, the value is a fill-in set on a line of
  // its own (small printed labels sit on the rule at the foot of a taller typed value): then a word whose
  // foot lies within half a label height of the label's band counts too.
  const lh = Math.max(1, ly1 - ly0);
  const overlaps = (w: Word) => Math.min(w.y1, ly1) - Math.max(w.y0, ly0) >= LEVEL_OVERLAP * Math.min(heightOf(w), lh);
  const firstLabel = row.findIndex((w) => a.isDelimWord(w));
  const bare = !row.slice(0, firstLabel < 0 ? row.length : firstLabel).some((w) => !SEPARATOR.test(w.text));
  const level = (w: Word) => overlaps(w) || (bare && w.y1 >= ly0 - FOOT_SLACK * lh && w.y1 <= ly1 + FOOT_SLACK * lh && w.y0 < ly1);
  const beside: Word[] = [];
  for (let k = Math.max(0, hit.line - ROW_REACH); k < Math.min(page.lines.length, hit.line + 1 + ROW_REACH); k++)
    if (k !== hit.line) beside.push(...wordsAfter(a, page.lines[k]!).filter(level));
  row = [...row, ...beside].sort((x, y) => x.x0 - y.x0);
  if (!row.some((w) => !SEPARATOR.test(w.text))) {
    const split = splitOffLine(a);
    if (split) row = wordsAfter(a, split);
  }
  return row;
}

/**
 * The line OCR split off beside the label (its middle within the label's band, within ROW_REACH lines) nearest
 * to the label's middle that holds more than separators right of the label.
 */
function splitOffLine(a: Anchor): Line | undefined {
  const { page, hit, ly0, ly1 } = a;
  let best: Line | undefined;
  let bestDist = Infinity;
  for (let k = Math.max(0, hit.line - ROW_REACH); k < Math.min(page.lines.length, hit.line + 1 + ROW_REACH); k++) {
    const l = page.lines[k]!;
    if (k === hit.line) continue;
    const cy = (l.y0 + l.y1) / 2;
    const dist = Math.abs(cy - (ly0 + ly1) / 2);
    if (cy >= ly0 && cy <= ly1 && dist < bestDist && wordsAfter(a, l).some((w) => !SEPARATOR.test(w.text))) ((best = l), (bestDist = dist));
  }
  return best;
}

/** The right edge of the value's column: short of the next label on the label's row, else past the page's edge. */
function columnRight(a: Anchor, row: Word[]): number {
  // The column ends where the next label on the label's row starts.
  for (const w of row) if (a.isDelimWord(w) || LABEL_LIKE.test(w.text)) return w.x0 - a.h * COLUMN_MARGIN;
  return a.page.width + 1;
}

/** The answer cell right of the label: its row up to the next label, without the leaders and scraps before the value. */
function answerCell(a: Anchor, row: Word[], field: FieldDef): Word[] {
  const { h, labelWords } = a;
  // Right of the label: up to the next label, in the first cell after it.
  let rest: Word[] = [];
  for (const w of row) {
    if (a.isDelimWord(w)) break;
    rest.push(w);
  }
  // Leader lines between the label and its value, with what OCR makes of them: dashes, letters read into a
  // dotted or dashed leader (a "word" far flatter than a letter, or a doubtful scrap standing apart before the value).
  let leader = labelPart(labelWords[labelWords.length - 1]!.text) !== labelWords[labelWords.length - 1]!.text;
  const scrap = (k: number) => {
    const w = rest[k]!;
    if (heightOf(w) < FLAT_SCRAP * h && w.conf < FLAT_SCRAP_CONF) return true;
    const next = rest[k + 1];
    return (
      w.conf < SCRAP_CONF && !/\d/.test(w.text) && w.text.length <= LEADER_SCRAP_LEN && next !== undefined && next.x0 - w.x1 > h * CELL_GAP
    );
  };
  // (A lone cross is a check-box answer, however doubtful OCR is about it.)
  const markFirst = () => field.data_type === 'string' && isMark(rest[0]!.text);
  const currency = () => /^\p{Sc}$/u.test(rest[0]!.text);
  while (
    rest.length &&
    !markFirst() &&
    !currency() &&
    (isLeader(rest[0]!.text) || (leader && /^[emao]{2,}$/.test(rest[0]!.text)) || (rest.length > 1 && scrap(0)))
  ) {
    leader ||= /[-—–=~_]{2,}/.test(rest[0]!.text);
    rest = rest.slice(1);
  }
  return rest;
}

/**
 * Check-box answers: the mark right of the option ("Yes x No"), else the mark ticked in the box left of
 * it ("[X] increased [ ] decreased") when nothing but an empty box or another option follows.
 */
function markAnswer(a: Anchor, row: Word[], rest: Word[], field: FieldDef): Word | undefined {
  if (field.data_type !== 'string') return undefined;
  const boxAfter = row.length > 0 && BOX.test(row[0]!.text);
  return checkMark(a.line, a.hit.start, rest, boxAfter, a.h, a.isDelimWord, field.label ?? '');
}

/**
 * The value right of the label: the first cell of its answer (with a unit printed in a column of its own), up
 * to a label further along; none when that is a heading or another question. Running text wraps below.
 */
function valueRight(a: Anchor, rest: Word[], field: FieldDef, labels: string[], ext: Extent): Word[][] {
  const { hit, line, h } = a;
  // (A row of labels, "Invoice number ‖ Date of issue ‖ Date due", has its values on the line below.)
  // (Not when the text right of the label is in the label's own cell, "ITEM: Sprocket   DATE: Tuesday": that is its answer.)
  if (!rest.length || (field.data_type === 'string' && rest[0]!.x0 - a.lx1 > h * CELL_GAP && isLabelRow(line, hit.end))) return [];
  const first = withUnit(cells(rest, a.page.number));
  const cut = first.findIndex((w, i) => i > 0 && LABEL_LIKE.test(w.text) && !/^\(/.test(w.text));
  // (The label that word ends starts after the last clear gap before it: "J. Doe   Ordered by:".)
  const value = cut > 0 ? first.slice(0, labelStart(first, cut, h) || cut) : first;
  // The same heading printed again to the right ("Name of Account … Name of Account" over two table
  // halves) is the next column's heading: the value is below.
  const again = compact(value.map((w) => w.text).join(' '));
  const own = compact(field.label ?? '');
  const repeated = again.length >= MIN_REPEAT && again.length >= own.length * MIN_REPEAT_SHARE && own.startsWith(again);
  // Another field's label (or a piece of one, misread) right of the label is the next question: the value is below.
  const otherLabel = field.data_type === 'string' && isLabelPiece(value.map((w) => w.text).join(' '), labels, field.label);
  if (repeated || otherLabel || (value.length <= LABEL_VALUE_WORDS && LABEL_LIKE.test(value[value.length - 1]!.text))) return [];
  // Running text wraps onto the lines below, starting under the value's start.
  if (field.data_type !== 'string' || cut >= 0) return [value];
  return [value, ...wrappedLines(a, value, ext)];
}

/** The lines a string value right of the label wraps onto: under the value's start, or under the label's when the line is full. */
function wrappedLines(a: Anchor, value: Word[], ext: Extent): Word[][] {
  const { page, hit, h, lx0 } = a;
  const vx0 = value[0]!.x0;
  // A short value (a name, a code) continues only on lines with nothing printed left of its start
  // (a list of names under "cc:", a second line of an address): not into the next row's answer.
  const running = value.length >= RUNNING_TEXT_WORDS;
  // A value line that runs to the text's right margin may wrap back under the label itself.
  const margin = Math.max(...page.lines.filter((l) => l.words.length >= RUNNING_TEXT_WORDS).map((l) => l.x1));
  const full = value[value.length - 1]!.x1 >= margin - (margin - lx0) * FULL_LINE;
  const left = full ? Math.min(vx0, lx0) : vx0;
  const more = blockBelow(page, {
    firstLine: hit.line + 1,
    top: ext.rowBottom,
    left: left - h * UNDER_SLACK,
    right: ext.right,
    anchorX: vx0,
    h,
    maxLines: ext.maxLines - 1,
    isDelim: a.isDelim,
    firstGap: WRAP_LINE_GAP,
    wrap: true,
    startLeft: running ? -Infinity : vx0 - h * SHORT_WRAP_SLACK,
    firstReach: ANCHOR_REACH,
    columnLeft: lx0 - h * CELL_GAP,
  });
  return more.filter(
    (ws, i) => i > 0 || Math.abs(ws[0]!.x0 - vx0) < h * UNDER_SLACK || (full && Math.abs(ws[0]!.x0 - lx0) < h * UNDER_SLACK),
  );
}

/**
 * The value below the label, in its column: the next line's answer wherever it starts when the label is alone on
 * its row, else the block under the label's start; not another question's label, nor a table's first row.
 */
function valueBelow(a: Anchor, row: Word[], field: FieldDef, labels: string[], ext: Extent): Word[][] {
  const { page, hit, h, lx0 } = a;
  const labelBottom = Math.max(ext.rowBottom, ...(hit.more ?? []).map(([l, w]) => page.lines[l]!.words[w]!.y1));
  const column = {
    firstLine: hit.line + 1,
    top: labelBottom,
    left: lx0 - h * UNDER_SLACK,
    right: ext.right,
    anchorX: lx0,
    h,
    maxLines: ext.maxLines,
    isDelim: a.isDelim,
  };
  // A label alone on its row ("Sizes:" at the left margin, the answer typed at a tab stop further right,
  // a little lower) has its answer on the next line wherever it starts in the label's column.
  const alone = !row.some((w) => !SEPARATOR.test(w.text));
  const hanging = alone
    ? blockBelow(page, { ...column, firstGap: HANGING_GAP, wrap: false, startLeft: -Infinity, firstReach: Infinity })
    : [];
  let lines = hanging.length ? hanging : blockBelow(page, { ...column, firstGap: BELOW_LABEL_GAP });
  // Another question's label under this one is the next row, not this label's answer.
  if (field.data_type === 'string' && lines.length && isLabelPiece(lines[0]!.map((w) => w.text).join(' '), labels, field.label)) lines = [];
  // An amount under a table's column header ("Net Amount", "Totaal") is the first row's, not the document's.
  if (field.data_type === 'number' || field.data_type === 'currency')
    lines = lines.filter((ws) => !isItemRow(page.lines.find((l) => l.words.includes(ws[0]!))));
  return lines;
}

/** The typed value of a value's lines and the words it was read from: strings take the whole block, other types the first line that parses. */
function readValue(lines: Word[][], field: FieldDef, ctx: DocContext): { value: unknown; used: Word[] } {
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

/** A field's candidate from the lines of its value; undefined when they hold no plausible, readable value. */
function candidateOf(
  a: Anchor,
  field: FieldDef,
  lines: Word[][],
  how: FormCandidate['how'],
  ctx: DocContext,
  ambiguous: Set<string>,
): FormCandidate | undefined {
  const read = readValue(lines, field, ctx);
  const used = read.used;
  let value = read.value;
  // Checksummed identifiers (IBAN, VAT id) keep only the identifier out of the cell; free-form
  // answers of forms are taken as printed.
  const concepts = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  if (value !== undefined && (concepts.includes('iban') || concepts.includes('tax'))) {
    value = refine(field, value);
    if (!plausible(field, value)) return undefined;
  }
  if (value === undefined || !used.length) return undefined;
  // An amount label printed more often than asked for ("Total" over a column, per section and at the
  // end) only anchors a weaker candidate: the amount-aware locator picks among them.
  const amount = field.data_type === 'number' || field.data_type === 'currency';
  const labelScore = Math.min(1, a.hit.score) * (amount && ambiguous.has(compact(field.label ?? '')) ? AMBIGUOUS : 1);
  const conf = used.reduce((s, w) => s + w.conf, 0) / used.length;
  // Text OCR could not read (a signature, a scribble, a smudge read as letters) is no answer: a garbled
  // guess costs more than a blank. A check-box mark is a single stroke OCR is rarely sure of.
  if (how !== 'mark' && conf < UNREADABLE_CONF) return undefined;
  const page = a.page.number;
  return {
    how,
    value,
    confidence: labelScore * conf,
    labelScore,
    page,
    bbox: [
      Math.min(...used.map((w) => w.x0)),
      Math.min(...used.map((w) => w.y0)),
      Math.max(...used.map((w) => w.x1)),
      Math.max(...used.map((w) => w.y1)),
    ],
    slot: `${page}:${Math.round(used[0]!.x0)}:${Math.round(used[0]!.y0)}`,
  };
}

/** Label-anchored values of the fields whose labels are printed on the page. */
export function locateFormFields(doc: DocLayout, fields: FieldDef[], ctx: DocContext): Map<string, FormCandidate> {
  const out = new Map<string, FormCandidate>();
  const { claims, delimiters, ambiguous } = claimLabels(doc, fields);
  const labels = schemaLabels(fields);
  for (const { field, hit } of claims) {
    const page = doc.pages.find((p) => p.number === hit.page)!;
    const a = anchorOf(page, hit, delimiters);
    const row = labelRow(a);
    const rest = answerCell(a, row, field);
    const ext: Extent = {
      right: columnRight(a, row),
      rowBottom: Math.max(a.ly1, ...rest.map((w) => w.y1)),
      maxLines: field.data_type === 'string' ? MAX_STRING_LINES : MAX_VALUE_LINES,
    };
    const mark = markAnswer(a, row, rest, field);
    let how: FormCandidate['how'] = mark ? 'mark' : 'right';
    let lines = mark ? [[mark]] : valueRight(a, rest, field, labels, ext);
    if (!lines.length) ((lines = valueBelow(a, row, field, labels, ext)), (how = 'below'));
    const candidate = lines.length ? candidateOf(a, field, lines, how, ctx, ambiguous) : undefined;
    if (candidate) out.set(field.key, candidate);
  }
  return out;
}
