import { EN_CHARSET } from './paddle.sessions.js';

/** PaddleOCR recognition output → characters and words: CTC decoding with hints, look-alikes fixed by context. */

/**
 * A character read below this probability is dropped as noise (a speck, a stray rule). Low on purpose: a doubtful
 * letter the model still rated best is right more often than a dropped one (0.2 → 0.05: sroie-wide tune 0.799 →
 * 0.806, check 0.750 → 0.757; funsd-wide equal on both halves).
 */
const REC_MIN_CHAR_PROB = 0.05;
/**
 * Word gaps the model did not print as a space: a gap between two characters wider than this many times the
 * segment's median character pitch splits the word (small receipt print runs "20/12/2018 8:13PM" together).
 */
const GAP_SPLIT_FACTOR = 1.8;
/** A look-alike of the neighbours' kind (digit among digits, letter among letters) wins at this probability. */
const CONTEXT_ALT_MIN_PROB = 0.1;
/** Space probability on the blank steps between two characters above which they are two words. */
const SPACE_HINT_PROB = 0.15;
/**
 * Narrow punctuation (a comma or full stop after a word) is often left to the blank class by CTC, most of all at a
 * segment's end: when one of these classes reaches PUNCT_HINT_PROB on the blank steps after a character, it is put in.
 */
const PUNCT_HINT_PROB = 0.15;
const HINTED_PUNCTUATION = /^[.,]$/;
/** Segments with fewer characters than this have no reliable pitch; they are split on printed spaces only. */
const MIN_CHARS_FOR_PITCH = 6;

/** A character read by CTC: its text, probability and centre x within the recognition input (0..1 of its width). */
export interface CtcChar {
  ch: string;
  prob: number;
  /** The time step the character was read at most surely (its probabilities decide look-alikes). */
  step?: number;
  /** First and last time step of the character, as shares of the input width. */
  from: number;
  to: number;
  /** Put in from a hint on steps another class won (kept below REC_MIN_CHAR_PROB). */
  hinted?: boolean;
}

/**
 * Greedy CTC decoding of one segment's [T × C] probabilities, with each character's span of time steps (as shares of
 * `span` steps). A word gap the model left to the blank class still shows as space probability on the blank steps
 * between two characters: above SPACE_HINT_PROB there, a space is put in.
 */
export function ctcDecode(
  probs: Float32Array,
  steps: number,
  classes: number,
  charset: readonly string[] = EN_CHARSET,
  span = steps,
  allowed?: Uint8Array,
): CtcChar[] {
  const spaces: number[] = [];
  const puncts: number[] = [];
  charset.forEach((ch, i) => (ch === ' ' ? spaces.push(i + 1) : HINTED_PUNCTUATION.test(ch) && puncts.push(i + 1)));
  const out: CtcChar[] = [];
  let prev = 0;
  let gap = newGap(0);
  let punct = newPunct();
  for (let t = 0; t < steps; t++) {
    const { best, bestP } = argmax(probs, t, classes, allowed);
    if (best === 0 || (best === prev && out.length)) notePunct(punct, probs, t, classes, puncts);
    if (best === 0) {
      if (prev !== 0) gap = newGap(t);
      gap.space = Math.max(gap.space, classSum(probs, t, classes, spaces));
    } else if (best === prev && out.length) {
      const last = out[out.length - 1]!;
      last.to = (t + 1) / span;
      if (bestP > last.prob) ((last.prob = bestP), (last.step = t));
    } else {
      const ch = charset[best - 1] ?? '';
      const spaced = prev === 0 && gap.space >= SPACE_HINT_PROB;
      addHintedPunct(out, punct, charset, span, spaced ? ' ' : ch);
      const last = out[out.length - 1];
      if (spaced && last && last.ch !== ' ' && ch !== ' ') out.push({ ch: ' ', prob: gap.space, from: gap.from / span, to: t / span });
      out.push({ ch, prob: bestP, from: t / span, to: (t + 1) / span, step: t });
      punct = newPunct();
    }
    prev = best;
  }
  addHintedPunct(out, punct, charset, span, undefined);
  const kept = out.filter((c) => c.ch && (c.hinted || c.prob >= REC_MIN_CHAR_PROB));
  fitContext(kept, (t, kind) => bestOfKind(probs, t, classes, charset, kind, allowed));
  return kept;
}

/** The blank steps between two characters: where they start and how probable a word gap (space class) is there. */
interface Gap {
  from: number;
  space: number;
}
const newGap = (from: number): Gap => ({ from, space: 0 });

/** The most probable narrow punctuation on the steps since the last character began (its repeats and the blanks). */
interface PunctHint {
  prob: number;
  cls: number;
  step: number;
}
const newPunct = (): PunctHint => ({ prob: 0, cls: 0, step: 0 });

function argmax(probs: Float32Array, t: number, classes: number, allowed?: Uint8Array): { best: number; bestP: number } {
  let best = 0;
  let bestP = -1;
  for (let c = 0; c < classes; c++) {
    const p = probs[t * classes + c]!;
    if (p > bestP && (!allowed || allowed[c])) ((bestP = p), (best = c));
  }
  return { best, bestP };
}

function classSum(probs: Float32Array, t: number, classes: number, set: number[]): number {
  let sum = 0;
  for (const c of set) sum += probs[t * classes + c]!;
  return sum;
}

function notePunct(hint: PunctHint, probs: Float32Array, t: number, classes: number, puncts: number[]): void {
  for (const c of puncts) {
    const p = probs[t * classes + c]!;
    if (p > hint.prob) ((hint.prob = p), (hint.cls = c), (hint.step = t));
  }
}

/**
 * Puts in the hinted punctuation after a letter, digit or closing bracket where a word ends: at the segment's end,
 * before a space, or where letters turn to digits or back ("STREET,12"); never inside a word ("SOL.D").
 */
function addHintedPunct(out: CtcChar[], hint: PunctHint, charset: readonly string[], span: number, next: string | undefined): void {
  const last = out[out.length - 1];
  if (!last || hint.prob < PUNCT_HINT_PROB || !/^[\p{L}\p{N})]$/u.test(last.ch)) return;
  const wordEnd =
    next === undefined || next === ' ' || (kindOf(next) !== undefined && kindOf(last.ch) !== undefined && kindOf(next) !== kindOf(last.ch));
  if (!wordEnd) return;
  out.push({
    ch: charset[hint.cls - 1]!,
    prob: hint.prob,
    from: hint.step / span,
    to: (hint.step + 1) / span,
    step: hint.step,
    hinted: true,
  });
}

type CharKind = 'digit' | 'letter';
const kindOf = (ch: string | undefined): CharKind | undefined =>
  ch === undefined ? undefined : /^\d$/.test(ch) ? 'digit' : /^\p{L}$/u.test(ch) ? 'letter' : undefined;

/** The most probable character of a kind at one time step, with its probability. */
function bestOfKind(
  probs: Float32Array,
  t: number,
  classes: number,
  charset: readonly string[],
  kind: CharKind,
  allowed?: Uint8Array,
): { ch: string; prob: number } | undefined {
  let best: { ch: string; prob: number } | undefined;
  for (let c = 1; c < classes; c++) {
    if (allowed && !allowed[c]) continue;
    const ch = charset[c - 1];
    const p = probs[t * classes + c]!;
    if (kindOf(ch) === kind && (!best || p > best.prob)) best = { ch: ch!, prob: p };
  }
  return best;
}

/**
 * Look-alikes decided by their neighbours: a letter read between two digits ("7/1l8") becomes the digit the model
 * rated next, and a digit between two letters ("Peta1ing") the letter, when that reading is at least
 * CONTEXT_ALT_MIN_PROB probable at the character's own time step. Works on the model's probabilities, not on a
 * confusion table.
 */
export function fitContext(
  chars: CtcChar[],
  alternative: (step: number, kind: CharKind) => { ch: string; prob: number } | undefined,
): void {
  for (let i = 1; i + 1 < chars.length; i++) {
    const [before, c, after] = [chars[i - 1]!, chars[i]!, chars[i + 1]!];
    const around = kindOf(before.ch);
    const own = kindOf(c.ch);
    if (!around || !own || own === around || kindOf(after.ch) !== around || c.step === undefined) continue;
    const alt = alternative(c.step, around);
    if (alt && alt.prob >= CONTEXT_ALT_MIN_PROB) ((c.ch = alt.ch), (c.prob = alt.prob));
  }
}

/**
 * Characters of one segment → words: split at printed spaces and at gaps much wider than the segment's usual
 * character pitch. Positions stay shares of the segment's width.
 */
export function splitWords(chars: CtcChar[]): CtcChar[][] {
  const visible = chars.filter((c) => c.ch !== ' ');
  const pitches: number[] = [];
  for (let i = 1; i < chars.length; i++)
    if (chars[i]!.ch !== ' ' && chars[i - 1]!.ch !== ' ') pitches.push(centre(chars[i]!) - centre(chars[i - 1]!));
  pitches.sort((a, b) => a - b);
  const pitch = visible.length >= MIN_CHARS_FOR_PITCH && pitches.length ? pitches[pitches.length >> 1]! : Infinity;
  const words: CtcChar[][] = [];
  let cur: CtcChar[] = [];
  for (const c of chars) {
    if (c.ch === ' ') {
      if (cur.length) words.push(cur);
      cur = [];
      continue;
    }
    const last = cur[cur.length - 1];
    if (last && centre(c) - centre(last) > GAP_SPLIT_FACTOR * pitch) {
      words.push(cur);
      cur = [];
    }
    cur.push(c);
  }
  if (cur.length) words.push(cur);
  return words;
}

const centre = (c: CtcChar) => (c.from + c.to) / 2;
