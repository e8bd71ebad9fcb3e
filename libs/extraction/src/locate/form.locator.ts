import type { FieldDef } from '../engine.types.js';
import { CELL_GAP } from '../layout/layout.builder.js';
import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import { conceptTokens } from './label.matcher.js';
import { isItemRow, isLabelRow, plausible, refine, type Located } from './field.locator.js';
import { gluedAnswer, isLabelPiece, labelPart, schemaLabels, UNDER_SLACK, type LabelHit } from './form.label.js';
import { claimLabels } from './form.claim.js';
import { BOX, checkMark, isMark } from './form.mark.js';
import { compact, heightOf, LABEL_LIKE, runsOnToColon, SEPARATOR } from './form.text.js';
import {
  ANCHOR_REACH,
  isLeader,
  lastLineOf,
  blockBelow,
  cells,
  labelStart,
  ROW_REACH,
  readValue,
  SCRAP_CONF,
  withUnit,
  WRAP_LINE_GAP,
} from './form.block.js';

export { isLeader } from './form.block.js';

/**
 * Printed-label location for forms: the schema's labels are the questions exactly as printed on the page
 * ("Name / Room No", "DATE RECEIVED"), so they are looked up character by character (OCR garbles
 * letters, spacing and punctuation) rather than by concept. The value is the text right of the label on
 * its line, else the block below it; it ends at another field's printed label (every label of the schema
 * is a delimiter), at a wide gap, at a new column or at a vertical gap.
 */

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
    if (!a.glued && runsOnToColon(a.labelWords[a.labelWords.length - 1]!, row, a.h)) continue;
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
