/** The spans of printed header words that may name a table field's columns, and how far a match of them can reach. */
import type { FieldDef } from '../engine.types.js';
import type { Word } from '../layout/layout.types.js';
import { allSpans, fold, lineConcepts } from './label.matcher.js';
import { columnSpec } from './table.model.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';

/**
 * Printed header words: a line's, or the words of stacked lines in x order. Each word's own top is the printed row it
 * was read on (stacked header lines interleave in x order, and a label is read from the words of one row).
 */
export interface PrintedWords {
  words: readonly Word[];
}

/** Every span of the printed words that may name a column: by its label's concepts, or spelled with spaces lost. */
export function headerCandidates(printed: PrintedWords, cols: FieldDef[], open = openColumns(printed, cols)): HeaderCandidate[] {
  return [...labelCandidates(cols, open), ...squashedCandidates(printed, cols, open), ...symbolCandidates(printed, cols, open)].filter(
    (c) => !namesCodeColumn(printed.words, c, cols[c.ci]!) && !crossesCells(printed.words, c),
  );
}

/**
 * Does a span of stacked header rows read words of two header cells as one label? A word of a lower row continues the
 * upper word it stands under (`Paid` over "out" beside "Paid in": `out Paid` would read the first heading's second word
 * and the next heading's first as "Paid out").
 */
function crossesCells(words: readonly Word[], c: HeaderCandidate): boolean {
  const span = words.slice(c.start, c.end);
  if (span.every((w) => w.y0 === span[0]!.y0)) return false;
  return span.some((w) => {
    const over = wordAbove(words, w);
    return over !== undefined && !span.includes(over);
  });
}

/** The word of a higher printed row that `w` stands under (sharing most of its width with it), if any. */
function wordAbove(words: readonly Word[], w: Word): Word | undefined {
  let best: Word | undefined;
  let most = 0;
  for (const u of words) {
    if (u.y0 >= w.y0) continue;
    const shared = Math.min(u.x1, w.x1) - Math.max(u.x0, w.x0);
    if (shared > most) [best, most] = [u, shared];
  }
  return most > UNDER_SHARE * Math.min(w.x1 - w.x0, best ? best.x1 - best.x0 : 0) ? best : undefined;
}
/** A lower word stands under an upper one when they share more than this part of the narrower one's width. */
const UNDER_SHARE = 0.5;

/** The packs' item-code labels ("Item code", "SKU", "Art.-Nr."): every shipped pack's, as header words carry no locale. */
const CODE_LABEL = allPacksVocabulary().itemCodeLabel;
/** Words of one header row read after a span's start to see whether it begins an item-code label. */
const CODE_LABEL_WORDS = 3;

/**
 * A span that begins a header cell printing an item-code label ("Item code" over article numbers: "item" alone would
 * name the description) names no column but a code column: codes are their own column, never description text.
 */
function namesCodeColumn(words: readonly Word[], c: HeaderCandidate, col: FieldDef): boolean {
  if (CODE_LABEL.test(col.label ?? '')) return false;
  const row = words[c.start]!.y0;
  const span = words.slice(c.start, c.end).filter((w) => w.y0 === row).length;
  const n = codeLabelAt(words, c.start);
  return n > 0 && n >= span;
}

/** How many words of one printed row, from `k`, print an item-code label ("Item code", "Art.-Nr."); 0 when none does. */
export function codeLabelAt(words: readonly Word[], k: number): number {
  const row = words[k]!.y0;
  const onRow = words.slice(k, k + CODE_LABEL_WORDS).filter((w) => w.y0 === row);
  const m = CODE_LABEL.exec(onRow.map((w) => w.text).join(' '));
  if (!m) return 0;
  let n = 0;
  let length = -1;
  for (const w of onRow) {
    length += w.text.length + 1;
    n++;
    if (length >= m[0].length) break;
  }
  return n;
}

/** Squashed labels shorter than this are not looked for spelled with spaces lost (too many chance spellings). */
const MIN_SQUASHED_LABEL = 8;
/** A squashed spelling spans at most this many words. */
const MAX_SQUASHED_WORDS = 8;

/**
 * The columns some span of the printed words may name, found by one look at each word: the spans are looked for only
 * there, and no match of these words names more columns than are open.
 */
export interface OpenColumns {
  /** Per column: does some word's concept start one of its label phrasings (`allSpans` starts a span nowhere else)? */
  byLabel: boolean[];
  /** Per column: does its squashed label hold some word's squashed text (a spelling with spaces lost needs one)? */
  bySquash: boolean[];
  /** Per column: is its label a symbol ("%", "#") printed as a word of its own? */
  bySymbol: boolean[];
  /** Columns open either way. */
  count: number;
  /** Concepts and squashed text per word (no squashed text when no column is looked for squashed). */
  concepts: string[][];
  squashedWords: string[];
}

export function openColumns(printed: PrintedWords, cols: FieldDef[]): OpenColumns {
  const concepts = lineConcepts(printed);
  const { starters, squashedLabels } = columnLook(cols);
  // (Words are squashed only for a table with a label long enough to be looked for squashed.)
  const squashedWords = squashedLabels.length > 0 ? printed.words.map((w) => squash(w.text)) : [];
  const byLabel = cols.map(() => false);
  for (const cs of concepts) for (const x of cs) for (const ci of startedBy(starters, cols, x)) byLabel[ci] = true;
  const bySquash = cols.map(() => false);
  for (const [ci, sq] of squashedLabels) bySquash[ci] = squashedWords.some((w) => w.length > 0 && sq.includes(w));
  const bySymbol = cols.map((c) => isSymbolLabel(c.label) && printed.words.some((w) => w.text === c.label!.trim()));
  const count = cols.filter((_, ci) => byLabel[ci] || bySquash[ci] || bySymbol[ci]).length;
  return { byLabel, bySquash, bySymbol, count, concepts, squashedWords };
}

/** What the columns of one table field are looked for by: the word concepts starting their labels, their squashed labels. */
interface ColumnLook {
  /** Per word concept: the columns one of whose label phrasings it starts. */
  starters: Map<string, number[]>;
  /** The columns whose label is long enough to be looked for squashed, with it. */
  squashedLabels: [number, string][];
}

/** Word concepts per table field beyond which the columns they start are looked up afresh. */
const START_CACHE_MAX = 5_000;
const looks = new WeakMap<FieldDef[], ColumnLook>();

function columnLook(cols: FieldDef[]): ColumnLook {
  let look = looks.get(cols);
  if (!look) {
    const squashedLabels = cols
      .map((c, ci): [number, string] => [ci, squash(c.label ?? '')])
      .filter(([, sq]) => sq.length >= MIN_SQUASHED_LABEL);
    looks.set(cols, (look = { starters: new Map(), squashedLabels }));
  }
  return look;
}

/** The columns a word concept starts a label span of: those where a one-word `allSpans` finds one (memoised). */
function startedBy(starters: Map<string, number[]>, cols: FieldDef[], concept: string): number[] {
  let found = starters.get(concept);
  if (!found) {
    if (starters.size >= START_CACHE_MAX) starters.clear();
    found = [];
    cols.forEach((c, ci) => {
      if (allSpans([[concept]], columnSpec(c), -Infinity).length > 0) found!.push(ci);
    });
    starters.set(concept, found);
  }
  return found;
}

/** What a match of some words can reach at most: its named columns and its score. */
export interface MatchBound {
  named: number;
  score: number;
}

/** Each open column named with a full score: the bound before any span is looked for. */
export function openBound(open: OpenColumns): MatchBound {
  return { named: open.count, score: open.count };
}

/** Each column with a candidate named by its best one: a match picks one candidate per column and loses a penalty. */
export function candidateBound(cands: readonly HeaderCandidate[]): MatchBound {
  const top = new Map<number, number>();
  for (const c of cands) top.set(c.ci, Math.max(top.get(c.ci) ?? 0, Math.min(1, c.score)));
  let score = 0;
  for (const s of top.values()) score += s;
  return { named: top.size, score };
}

/** Spans of header words that read as a column's label (or one of its phrasings). */
function labelCandidates(cols: FieldDef[], open: OpenColumns): Cand[] {
  const cands: Cand[] = [];
  cols.forEach((c, ci) => {
    if (!open.byLabel[ci]) return;
    for (const m of allSpans(open.concepts, columnSpec(c), 0.5))
      cands.push({ ci, start: m.start, end: m.end, score: m.score - 0.01 * (m.end - m.start) });
  });
  return cands;
}

/** A label of signs only ("%", "#", "±"): no word of it has a concept, so it is looked for as printed. */
const isSymbolLabel = (label: string | undefined) => !!label?.trim() && !/[\p{L}\p{N}]/u.test(label);

/** A column headed by a sign alone ("%" over percentages): a header word printing exactly that sign names it. */
function symbolCandidates(printed: PrintedWords, cols: FieldDef[], open: OpenColumns): Cand[] {
  const cands: Cand[] = [];
  cols.forEach((c, ci) => {
    if (!open.bySymbol[ci]) return;
    printed.words.forEach((w, i) => {
      if (w.text === c.label!.trim()) cands.push({ ci, start: i, end: i + 1, score: SYMBOL_LABEL_SCORE });
    });
  });
  return cands;
}
/** A sign is a short label, and read exactly: as good as a one-word label read whole. */
const SYMBOL_LABEL_SCORE = 0.99;

/** Labels printed with their spaces lost or added ("Railtravellersrules" for "Rail travellers rules"). */
function squashedCandidates(printed: PrintedWords, cols: FieldDef[], open: OpenColumns): Cand[] {
  const cands: Cand[] = [];
  const { words } = printed;
  const { squashedWords } = open;
  cols.forEach((c, ci) => {
    if (!open.bySquash[ci]) return;
    const sq = squash(c.label ?? '');
    // (Which words' squashed text is part of the label: a span spelling it is made of such words only.)
    const parts = squashedWords.map((w) => sq.includes(w));
    for (let i = 0; i < words.length; i++) {
      // Stacked header lines interleave in x order: a label is read from the words of one printed line.
      const row = words[i]!.y0;
      let acc = '';
      let n = 0;
      for (let j = i; j < Math.min(words.length, i + MAX_SQUASHED_WORDS) && acc.length < sq.length; j++) {
        if (words[j]!.y0 !== row) continue;
        acc += squashedWords[j]!;
        if (acc === sq) cands.push({ ci, start: i, end: j + 1, score: 1 - 0.01 * n });
        // (More words only lengthen a span that no longer spells the label's start.)
        if (!sq.startsWith(acc)) break;
        n++;
      }
      wrappedCandidates({ words, squashedWords, parts, sq, ci, i }, cands);
    }
  });
  return cands;
}

/** The words of a span starting at `i` that may spell the squashed label `sq` of column `ci`. */
interface SquashedSpan {
  words: readonly Word[];
  squashedWords: string[];
  /** Per word: is its squashed text part of `sq`? */
  parts: boolean[];
  sq: string;
  ci: number;
  i: number;
}

/**
 * A label wrapped over the stacked lines: the span's words read line by line. (The span's letters are
 * counted first: only a span exactly as long as the label can spell it, whatever the reading order.)
 */
function wrappedCandidates(at: SquashedSpan, cands: Cand[]): void {
  const { words, squashedWords, parts, sq, ci, i } = at;
  let spanLength = squashedWords[i]!.length;
  for (let j = i + 1; j < Math.min(words.length, i + MAX_SQUASHED_WORDS); j++) {
    spanLength += squashedWords[j]!.length;
    if (spanLength > sq.length) break;
    // (A word that is no part of the label spoils every span holding it.)
    if (!parts[i] || !parts[j]) break;
    if (spanLength < sq.length) continue;
    const ws = words.slice(i, j + 1).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
    if (ws.map((w) => squash(w.text)).join('') === sq) cands.push({ ci, start: i, end: j + 1, score: 1 - 0.01 * (j - i) });
  }
}

/** Letters and digits of the folded text (memoised: header matching squashes each word once per candidate span). */
const squashed = new Map<string, string>();
const SQUASH_CACHE_MAX = 20_000;
function squash(s: string): string {
  let q = squashed.get(s);
  if (q === undefined) {
    if (squashed.size >= SQUASH_CACHE_MAX) squashed.clear();
    squashed.set(s, (q = fold(s).replace(/[^\p{L}\p{N}]/gu, '')));
  }
  return q;
}

/** A span of header words (start … end - 1) that may name schema column `ci`, and how well. */
export interface HeaderCandidate {
  ci: number;
  start: number;
  end: number;
  score: number;
}
type Cand = HeaderCandidate;
