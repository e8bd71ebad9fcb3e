import type { FieldDef } from '../engine.types.js';
import { CELL_GAP } from '../layout/layout.builder.js';
import type { Line, Page, Word } from '../layout/layout.types.js';
import { CLOSE_MARK } from './form.mark.js';
import { compact, heightOf, memoised, WORD_CACHE_MAX } from './form.text.js';

/**
 * Printed labels on forms, looked up character by character: OCR garbles letters, spacing and punctuation, splits
 * words and glues neighbours on. Claiming assigns each field of the schema one printing of its label.
 */

// Two reusable rows: labels are compared with thousands of spans per page.
let rowA = new Uint16Array(64);
let rowB = new Uint16Array(64);
function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (rowA.length <= b.length) [rowA, rowB] = [new Uint16Array(b.length * 2 + 1), new Uint16Array(b.length * 2 + 1)];
  let prev = rowA;
  let cur = rowB;
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (ca === b.charCodeAt(j - 1) ? 0 : 1));
    [prev, cur] = [cur, prev];
  }
  return prev[b.length]!;
}

/** 1 − edit distance / longer length. */
export function similarity(a: string, b: string): number {
  const n = Math.max(a.length, b.length);
  return n === 0 ? 1 : 1 - levenshtein(a, b) / n;
}

/** Leader dashes glued to a printed label ("Print-———eeee"): OCR reads dashes as dashes, `=`, `~` and e/m/a/o. */
const LEADER_RUN = /[-—–=~_.·]{2,}/;

/**
 * A label glued by OCR to the word before it ("11/16New Balance:", "oMugs"): the part of the word from an
 * upper-case letter that follows a digit, a lower-case letter or punctuation.
 */
const gluedTail = memoised((text: string): string | undefined => {
  const m = /^(.*?[\d\p{Ll}\p{P}])(\p{Lu}\p{L}{2,}.*)$/u.exec(text);
  return m ? labelPart(m[2]!) : undefined;
});

/** The option a mark is glued to the front of ("XYES" → "YES"), as a label to look for. */
const markedTail = memoised((text: string): string | undefined => {
  const m = CLOSE_MARK.exec(text);
  return m ? labelPart(text.slice(m[0].length)) : undefined;
});

/**
 * An answer OCR glued to the end of its label across the blank it is typed on or after its colon
 * ("WORK:_approximately", "DATE_June", "FAX:(202)555-0100"): the label (two letters at least, not a check
 * mark), the underscores of the blank or the colon, then the answer's first word.
 */
const GLUED_ANSWER = /^([^_:]*\p{L}{2}[^_:]*?)(?::_*|_+)([\p{L}\d(].*)$/u;
/** The label part of a word, without leader dashes or a blank and the answer typed on it glued to its end. */
export const labelPart = memoised((text: string): string => {
  const m = LEADER_RUN.exec(text);
  const cut = Math.min(m && m.index > 0 ? m.index : text.length, GLUED_ANSWER.exec(text)?.[1]!.length ?? text.length);
  return text.slice(0, cut);
});
/**
 * The answer glued by OCR to the label's last word across the blank ("WORK:_approximately" → "approximately"), as
 * a word of its own placed at its share of the word's width; undefined when nothing is glued on.
 */
export function gluedAnswer(w: Word): Word | undefined {
  const m = GLUED_ANSWER.exec(w.text);
  if (!m) return undefined;
  const tail = m[2]!;
  const x0 = w.x0 + ((w.x1 - w.x0) * (w.text.length - tail.length)) / w.text.length;
  return { ...w, text: tail, x0 };
}

export interface LabelHit {
  page: number;
  line: number;
  /** First and one past the last word of the label in the line. */
  start: number;
  end: number;
  score: number;
  /** Words of the lines below that continue a label printed over several lines, as [line, word] pairs. */
  more?: [number, number][];
  /** Printed as a label: opening a cell, ending in a colon or in the schema label's own case (not a word of running text). */
  standalone?: boolean;
}

/** Labels of at most this many letters ("No", "TO") must match exactly. */
const SHORT_LABEL = 3;
/** Labels of at most this many letters are of medium length… */
const MEDIUM_LABEL = 6;
/** …and need this similarity (about one letter in five misread)… */
const MEDIUM_SIMILARITY = 0.8;
/** …longer labels this one (OCR errors grow with length). */
const LONG_SIMILARITY = 0.75;
/** A gap wider than this many letter heights before a word opens a cell. */
export const OPEN_GAP = 1.2;
/** Needed similarity by label length: short labels ("No", "TO") must match exactly. */
function needed(len: number): number {
  return len <= SHORT_LABEL ? 1 : len <= MEDIUM_LABEL ? MEDIUM_SIMILARITY : LONG_SIMILARITY;
}

/** Does the word open a cell: first in its line, after a wide gap, or after a word ending a label? */
function opensCell(line: Line, i: number): boolean {
  if (i === 0) return true;
  const prev = line.words[i - 1]!;
  const w = line.words[i]!;
  return w.x0 - prev.x1 > heightOf(w) * OPEN_GAP || /[:?]$/.test(prev.text);
}

/** A span and a label are compared on their first this many letters before the full comparison. */
const START_LETTERS = 3;
/** …which must agree at least this much (one letter of three misread). */
const START_SIMILARITY = 0.6;
/** The first three letters of a span and a label nearly agree (OCR errors aside); memoised, it is asked per span. */
const startCache = new Map<string, Map<string, boolean>>();
function startsAlike(span: string, target: string): boolean {
  const t = target.length > START_LETTERS ? target.slice(0, START_LETTERS) : target;
  const sp = span.length > START_LETTERS ? span.slice(0, START_LETTERS) : span;
  let byTarget = startCache.get(t);
  if (!byTarget) startCache.set(t, (byTarget = new Map()));
  let ok = byTarget.get(sp);
  if (ok === undefined) {
    if (byTarget.size > WORD_CACHE_MAX) byTarget.clear();
    byTarget.set(sp, (ok = similarity(sp, t) >= START_SIMILARITY));
  }
  return ok;
}

/**
 * Bonus of a span printed letter for letter as the schema's label, case included: the schema gives the
 * question as printed, so where a label occurs twice ("PROJECT LEADER" heading a field, "Project Leader"
 * in a list of names), the one in the label's own case is the question.
 */
const CASE_BONUS = 0.04;
/** Letters and digits as printed (case kept). */
const letters = memoised((s: string) => s.normalize('NFKC').replace(/[^\p{L}\d]/gu, ''));

/** A printed label may span this many words more than the schema's label (OCR splits words). */
const EXTRA_LABEL_WORDS = 2;
/**
 * …and OCR may read each printed word in up to this many pieces ("P roje ct Type"): the span's letters, not its
 * word count, bound it (SPAN_OVERRUN).
 */
const WORD_PIECES = 2;
/**
 * …or, a long label OCR read nearly letter by letter ("An tic ipa ted Har ves ting"), in pieces of at
 * least this many letters on average: the span may hold as many words as the label has pieces of this size.
 */
const MIN_PIECE_LETTERS = 3;
/** A span stops growing past this many times the label's length… */
const SPAN_OVERRUN = 1.4;
/** …plus this many letters. */
const SPAN_SLACK = 2;
/** Bonus of a span that opens a cell (a printed label, not a word in a sentence). */
const OPENING_BONUS = 0.03;
/** Bonus of a span ending in a colon or question mark. */
const COLON_BONUS = 0.03;
/** Penalty of a span read from a label glued by OCR to the word before it. */
const GLUED_PENALTY = 0.02;
/**
 * The words of one printed label stand closer than this many letter heights: a wider gap ends the cell ("Sprockets"
 * of one answer then "COLOUR" of the next column's heading is no label "HOSE COLOUR").
 */
const LABEL_CELL_GAP = CELL_GAP;
/** Only labels of at least this many letters are looked for printed over several lines. */
const MULTI_MIN_LABEL = 10;
/** A line's words reduced once for every label looked for on it (the memoised reductions cost a lookup per word). */
interface LineParts {
  /** `labelPart` of each word, and its `compact` and `letters` forms. */
  part: string[];
  compact: string[];
  letters: string[];
  /** The spans' possible first parts per word: the label part, a label glued to its end, an option after a mark. */
  firsts: (string | undefined)[][];
}
const lineParts = new WeakMap<Line, LineParts>();
function partsOf(line: Line): LineParts {
  let lp = lineParts.get(line);
  if (!lp) {
    const part = line.words.map((w) => labelPart(w.text));
    lp = {
      part,
      compact: part.map(compact),
      letters: part.map(letters),
      firsts: line.words.map((w, i) => [part[i], gluedTail(w.text), markedTail(w.text)]),
    };
    lineParts.set(line, lp);
  }
  return lp;
}

/** Every place on the page where `label` is printed, best first. */
export function findLabel(page: Page, label: string): LabelHit[] {
  const target = compact(label);
  if (!target) return [];
  const maxWords = Math.max(label.split(/\s+/).length * WORD_PIECES + EXTRA_LABEL_WORDS, Math.ceil(target.length / MIN_PIECE_LETTERS));
  const need = needed(target.length);
  const printedAs = letters(label);
  const hits: LabelHit[] = [];
  page.lines.forEach((line, li) => {
    const ws = line.words;
    const lp = partsOf(line);
    for (let i = 0; i < ws.length; i++) {
      let best: LabelHit | undefined;
      // The span read from the whole first word; also from a label glued to its end.
      let text = '';
      for (const first of lp.firsts[i]!) {
        if (first === undefined) continue;
        const glued = first !== lp.part[i];
        let span = '';
        let raw = '';
        for (let j = i; j < Math.min(ws.length, i + maxWords); j++) {
          // A printed label does not cross a cell gap: words beyond one belong to another cell.
          if (j > i && ws[j]!.x0 - ws[j - 1]!.x1 > heightOf(ws[j - 1]!) * LABEL_CELL_GAP) break;
          span += j === i ? compact(first) : lp.compact[j]!;
          raw += j === i ? letters(first) : lp.letters[j]!;
          if (!glued) text = span;
          if (span.length > target.length * SPAN_OVERRUN + SPAN_SLACK) break;
          // The span must start with the label's start (OCR errors aside), not somewhere in its middle.
          if (!span || (span[0] !== target[0] && !startsAlike(span, target))) break;
          // similarity ≤ 1 − |length difference| / longer length: skip the edit distance when that bound already fails.
          if (1 - Math.abs(span.length - target.length) / Math.max(span.length, target.length) < need) continue;
          let s = similarity(span, target);
          if (s < need) continue;
          const opening = opensCell(line, i);
          const colon = /[:?]$/.test(ws[j]!.text);
          // Short labels are common words ("No", "on"): only as a printed label, i.e. opening a cell or with a colon.
          if (target.length <= SHORT_LABEL && !opening && !colon) continue;
          // Nor is a label inside a sentence a printed label: "Please quote the invoice number with your payment".
          if (!opening && !colon && /^\p{Ll}{2,}$/u.test(ws[i - 1]?.text ?? '') && /^\p{Ll}/u.test(ws[j + 1]?.text ?? '')) continue;
          s +=
            (opening ? OPENING_BONUS : 0) + (colon ? COLON_BONUS : 0) - (glued ? GLUED_PENALTY : 0) + (raw === printedAs ? CASE_BONUS : 0);
          if (!best || s > best.score)
            best = { page: page.number, line: li, start: i, end: j + 1, score: s, standalone: opening || colon || raw === printedAs };
        }
      }
      // A long label printed over several lines ("Final Review Due / (Vendor Memo) / Batch(es)"): the
      // start of the label ends its cell, and the lines just below, starting under it, hold the rest.
      if (!best && target.length >= MULTI_MIN_LABEL && text.length >= MULTI_FIRST) {
        const multi = continued(page, li, i, target, need);
        if (multi) hits.push(multi);
      }
      if (best) hits.push(best);
    }
  });
  return hits.sort((a, b) => b.score - a.score);
}

/** Fewest letters of the first line of a label printed over several lines (shorter first lines are common words). */
const MULTI_FIRST = 5;

/** The first line of a label printed over several lines holds less than this share of its letters. */
const MULTI_FIRST_SHARE = 0.85;
/** A label printed over several lines continues over at most this many words below its first line. */
const MULTI_MAX_WORDS = 12;
/** Its lines follow with a gap under this many letter heights. */
const MULTI_LINE_GAP = 0.8;
/** A line continues under another when it starts within this many letter heights of its start. */
export const UNDER_SLACK = 2;
/** The continued part may run this many times the label's length (plus SPAN_SLACK letters). */
const MULTI_OVERRUN = 1.2;
/** A label pieced together over several lines scores this much less than one read on a single line. */
const MULTI_PENALTY = 0.05;
function continued(page: Page, li: number, i: number, target: string, need: number): LabelHit | undefined {
  const line = page.lines[li]!;
  const ws = line.words;
  const h = heightOf(ws[i]!);
  let text = '';
  let j = i;
  // The first part: words up to the end of the cell, matching the start of the label.
  for (; j < ws.length; j++) {
    if (j > i && ws[j]!.x0 - ws[j - 1]!.x1 > h * CELL_GAP) break;
    text += compact(labelPart(ws[j]!.text));
  }
  if (
    text.length < MULTI_FIRST ||
    text.length >= target.length * MULTI_FIRST_SHARE ||
    similarity(text, target.slice(0, text.length)) < need
  )
    return undefined;
  const more: [number, number][] = [];
  let bottom = line.y1;
  for (let k = li + 1; k < page.lines.length && more.length < MULTI_MAX_WORDS && text.length < target.length; k++) {
    const l = page.lines[k]!;
    if ((l.y0 + l.y1) / 2 <= bottom) continue;
    if (l.y0 - bottom > h * MULTI_LINE_GAP) break;
    const start = l.words.findIndex((w) => Math.abs(w.x0 - ws[i]!.x0) < h * UNDER_SLACK);
    if (start < 0) continue;
    let part = '';
    for (let m = start; m < l.words.length; m++) {
      if (m > start && l.words[m]!.x0 - l.words[m - 1]!.x1 > h * CELL_GAP) break;
      const next = part + compact(labelPart(l.words[m]!.text));
      if ((text + next).length > target.length * MULTI_OVERRUN + SPAN_SLACK) break;
      part = next;
      more.push([k, m]);
    }
    text += part;
    bottom = l.y1;
  }
  const score = similarity(text, target);
  if (!more.length || score < need) return undefined;
  return { page: page.number, line: li, start: i, end: j, score: score - MULTI_PENALTY, more };
}

/** The distinct printed labels of a schema's scalar fields (what isLabelPiece compares against). */
export function schemaLabels(fields: readonly FieldDef[]): string[] {
  return [...new Set(fields.flatMap((f) => (f.data_type !== 'table' && f.label ? [f.label] : [])))];
}

/** A piece of another label is compared only when it holds at least this many letters (shorter ones are common words). */
const LABEL_PIECE_MIN = 2;
/**
 * Is `text` another field's printed label, or the first or last words of one ("Weight" or "(Kg /Box)" of a label
 * "Weight (Kg /Box)" printed over two lines), as OCR read it? Such text is a question, never an answer. The
 * field's own label is left out: an answer may repeat one of the options it lists ("Paid or Free" → "Free").
 * The comparison is the one labels are found with (similarity by length, short pieces exactly); `pieces`
 * false compares whole labels only.
 */
export function isLabelPiece(text: string, labels: readonly string[], own?: string, pieces = true): boolean {
  const c = compact(text);
  if (c.length < LABEL_PIECE_MIN) return false;
  const need = needed(c.length);
  const mine = own === undefined ? '' : compact(own);
  for (const label of labels) {
    if (compact(label) === mine) continue;
    const ws = label.split(/\s+/).map(compact).filter(Boolean);
    const found = [ws.join('')];
    for (let k = 1; pieces && k < ws.length; k++) found.push(ws.slice(0, k).join(''), ws.slice(k).join(''));
    for (const p of found) {
      if (1 - Math.abs(p.length - c.length) / Math.max(p.length, c.length) < need) continue;
      if (similarity(c, p) >= need) return true;
    }
  }
  return false;
}
