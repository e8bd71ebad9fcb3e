import { allPacksVocabulary } from '../locales/locale.registry.js';

/**
 * Parses a printed date to ISO `YYYY-MM-DD`. Month names of the locale packs (full and abbreviated).
 * Numeric dates: `YYYY-MM-DD` / `YYYY/MM/DD` first; for `a/b/yyyy` the order is decided by value (a > 12 → day-first, b > 12 → month-first) and otherwise by `order`
 * (default day-first, the convention of most of the world; callers pass 'mdy' when the document
 * context says US, e.g. `$` amounts).
 */
// Month names and day suffixes are the locale packs' (`months`, `ordinals`); a bare date string has no document, so
// every shipped pack applies.
const VOCAB = allPacksVocabulary();
const MONTHS = VOCAB.months;
const MONTH_RE = VOCAB.monthPattern;
const ORDINAL = VOCAB.ordinalPattern;
/** A word printed between a date's parts ("5 de marzo de 2024"), with the space after it; optional. */
const JOINER = `(?:(?:${VOCAB.dateJoinerPattern})\\s+)?`;
const [YEAR_UNIT, MONTH_UNIT, DAY_UNIT] = VOCAB.dateUnitPatterns;

export type DateOrder = 'dmy' | 'mdy';

/** A month name is recognised with one wrong, missing, extra or swapped letter only from this length on. */
const MIN_FUZZY_MONTH = 5;
/** A month name as OCR may read it: letters, with a 1 or 0 for a look-alike letter after the first ("Apri1", "Oct0ber"). */
const MONTH_WORD = `\\p{L}[\\p{L}10]{${MIN_FUZZY_MONTH - 2},}`;
/**
 * Between a date's day and its year: a comma, and stray dots or commas OCR reads off the paper ("May 3.1990",
 * "December 13,.1983", "JAN 19. 1995").
 */
const DAY_YEAR_SEP = '\\s*[,.]{0,2}\\s*';
const FUZZY_DMY = new RegExp(`(?<![\\p{L}\\d])(\\d{1,2})\\.?\\s+(${MONTH_WORD})\\.?,?\\s+(\\d{4})(?!\\d)`, 'gu');
const FUZZY_MDY = new RegExp(`(?<![\\p{L}])(${MONTH_WORD})\\.?\\s+(\\d{1,2})${DAY_YEAR_SEP}(\\d{4})(?!\\d)`, 'gu');
/** Day month-name year (15 March 2024, 15. März 2024, 15-Mar-24, 1er janvier 2024); built once (`matchAll` copies it). */
const NAMED_DMY = new RegExp(
  `(?<![\\p{L}\\d])(\\d{1,2})(?:${ORDINAL})?\\.?[\\s\\-/.,]*${JOINER}(${MONTH_RE})(?!\\p{L})\\.?[\\s\\-/.,]*${JOINER}(\\d{4}|\\d{2})(?!\\d)`,
  'giu',
);
/** Year month-name day, the year first with its dot (Hungarian "2024. március 5."): a four-digit year only. */
const NAMED_YMD = new RegExp(`(?<![\\p{L}\\d])(\\d{4})\\.\\s*(${MONTH_RE})(?!\\p{L})\\.?\\s*(\\d{1,2})(?![\\d])`, 'giu');
/** Year, month and day each followed by its unit mark ("2024年3月5日"). */
const UNIT_YMD = new RegExp(
  `(?<!\\d)(\\d{4})\\s*(?:${YEAR_UNIT})\\s*(\\d{1,2})\\s*(?:${MONTH_UNIT})\\s*(\\d{1,2})\\s*(?:${DAY_UNIT})`,
  'gu',
);
/** Month-name day, year (March 15, 2024 / Mar 15 2024). */
const NAMED_MDY = new RegExp(`(?<![\\p{L}])(${MONTH_RE})(?!\\p{L})\\.?\\s*(\\d{1,2})(?:${ORDINAL})?${DAY_YEAR_SEP}(\\d{4})(?!\\d)`, 'giu');

/** The month a word names with at most one edit (Damerau) or with digits for look-alike letters, when it is no exact month name. */
function fuzzyMonth(word: string): number | undefined {
  const read = word.toLowerCase();
  if (MONTHS.has(read)) return undefined;
  // (Digits read for look-alike letters are letters: "apri1" is "april".)
  const w = read.replace(/1/g, 'l').replace(/0/g, 'o');
  if (MONTHS.has(w)) return MONTHS.get(w);
  for (const [name, month] of MONTHS) if (name.length >= MIN_FUZZY_MONTH && oneEditApart(w, name)) return month;
  return undefined;
}

function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length)
    return a.slice(i + 1) === b.slice(i + 1) || (a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2));
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

function iso(y: number, m: number, d: number): string | undefined {
  // Two-digit years: the century that puts the date within 80 years back / 20 years ahead of today
  // (archived forms print '68 for 1968; current invoices '24 for 2024).
  if (y < 100) y += y + 2000 > new Date().getUTCFullYear() + 20 ? 1900 : 2000;
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2100) return undefined;
  const dt = new Date(Date.UTC(y, m - 1, d));
  if (dt.getUTCMonth() !== m - 1) return undefined;
  return `${y}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

export interface DateMatch {
  iso: string;
  index: number;
  length: number;
}

/** Finds the first date in free text. */
export function findDate(text: string, order: DateOrder = 'dmy'): DateMatch | undefined {
  const all = findDates(text, order);
  return all[0];
}

/** Texts whose dates are remembered before the memo starts afresh. */
const DATES_CACHE_MAX = 20_000;
// The locators ask for the dates of the same lines and cells many times per document (every field, every table
// test): memoised per text and order. Callers get their own copies.
const datesCache = new Map<string, readonly DateMatch[]>();

/** Finds all dates in free text, in order of appearance. */
export function findDates(text: string, order: DateOrder = 'dmy'): DateMatch[] {
  const key = `${order}\u0001${text}`;
  let found = datesCache.get(key);
  if (!found) {
    if (datesCache.size >= DATES_CACHE_MAX) datesCache.clear();
    datesCache.set(key, (found = scanDates(text, order)));
  }
  return found.map((d) => ({ ...d }));
}

/**
 * Every date shape below holds at least this many digits (a day and a two-digit year, "5 Mar 24"): a text with fewer
 * holds no date, and is not run through the month-name patterns of every locale.
 */
const DATE_MIN_DIGITS = 3;

function scanDates(text: string, order: DateOrder): DateMatch[] {
  const s = text.normalize('NFKC');
  const found: DateMatch[] = [];
  if ((s.match(/\d/g)?.length ?? 0) < DATE_MIN_DIGITS) return found;
  const push = (m: RegExpMatchArray, v: string | undefined) => {
    if (v && !found.some((f) => m.index! < f.index + f.length && f.index < m.index! + m[0].length))
      found.push({ iso: v, index: m.index!, length: m[0].length });
  };
  // ISO-like: 2024-03-15, 2024/03/15, 2024.03.15 (also with a time after it).
  for (const m of s.matchAll(/(?<!\d)(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?!\d)/g)) push(m, iso(+m[1]!, +m[2]!, +m[3]!));
  // Day month-name year: 15 March 2024, 15. März 2024, 15-Mar-24, 1er janvier 2024.
  for (const m of s.matchAll(NAMED_DMY)) push(m, iso(+m[3]!, MONTHS.get(m[2]!.toLowerCase())!, +m[1]!));
  // Year month-name day (2024. március 15.), and year, month, day with unit marks (2024年3月15日).
  for (const m of s.matchAll(NAMED_YMD)) push(m, iso(+m[1]!, MONTHS.get(m[2]!.toLowerCase())!, +m[3]!));
  for (const m of s.matchAll(UNIT_YMD)) push(m, iso(+m[1]!, +m[2]!, +m[3]!));
  // Month-name day, year: March 15, 2024 / Mar 15 2024.
  for (const m of s.matchAll(NAMED_MDY)) push(m, iso(+m[3]!, MONTHS.get(m[1]!.toLowerCase())!, +m[2]!));
  // The same with a month name misspelt or misread by one letter ("Ocotber 9, 1968", "15 Febuary 2024"): a word of
  // some length one edit from a month name, in a full day-month-year date.
  // (Both need a four-digit year: a text without four digits in a row is not run through them, the slowest patterns.)
  if (/\d{4}/.test(s) && mayHoldFuzzyMonth(s)) fuzzyNamedDates(s, push);
  // Numeric a/b/yyyy, a.b.yy, a-b-yyyy.
  // (A time glued to the year by OCR, "23/03/201813:08", still ends the date; a fourth group after the same mark,
  // "05.22.95.66.66", makes it a phone number.)
  for (const m of s.matchAll(/(?<![\d.,])(\d{1,2})\s?([-/.])\s?(\d{1,2})\s?\2\s?(?:(\d{4})(?=\d{1,2}:\d{2})|(\d{4}|\d{2})(?!\d|\2\d))/g)) {
    const y = m[4] ?? m[5]!;
    push(m, numericDate(m[1]!, m[3]!, y, order) ?? numericDate(...lookAlikes([m[1]!, m[3]!, y]), order));
  }
  // Compact 8-digit yyyymmdd (common in XML-derived prints); only when it is a plausible date.
  for (const m of s.matchAll(/(?<!\d)(20\d{2})(\d{2})(\d{2})(?!\d)/g)) push(m, iso(+m[1]!, +m[2]!, +m[3]!));
  found.sort((a, b) => a.index - b.index);
  return found;
}

/**
 * Where the fuzzy patterns' month word can start: a letter after no letter. The word they capture is then the whole
 * run of letters and look-alike digits from there (the patterns go on with a dot, comma or space, none of which the
 * word's characters include). Every start is found, also one inside a run after a look-alike digit ("x1Octber").
 */
const MONTH_WORD_START = /(?<!\p{L})(?=(\p{L}[\p{L}10]*))/gu;
/** Shortest word the fuzzy patterns take for a month name (`MONTH_WORD`). */
const MIN_MONTH_WORD = MIN_FUZZY_MONTH - 1;

/** What follows the month word in `FUZZY_MDY` (a day, then a year), and in `FUZZY_DMY` (a year); tried where the word ends. */
const AFTER_FUZZY_MDY = new RegExp(`\\.?\\s+\\d{1,2}${DAY_YEAR_SEP}\\d{4}(?!\\d)`, 'y');
const AFTER_FUZZY_DMY = /\.?,?\s+\d{4}(?!\d)/y;
/** Whitespace, and a digit, as the patterns read them. */
const SPACE = /\s/;
const DIGIT = /\d/;

/** Whether a day precedes the month word at `at` as `FUZZY_DMY` needs it: a digit, an optional dot, then spaces. */
function dayBefore(s: string, at: number): boolean {
  let i = at - 1;
  if (!SPACE.test(s[i] ?? '')) return false;
  while (i >= 0 && SPACE.test(s[i]!)) i--;
  if (s[i] === '.') i--;
  return DIGIT.test(s[i] ?? '');
}

/**
 * Whether some word of the text could be read by `fuzzyNamedDates` as a misspelt month name: a word of the patterns'
 * shape one edit from a month name, followed by what one of the patterns needs after it. Those patterns are the
 * slowest of the date scan (for a text with characters beyond Latin-1, V8 spends hundreds of milliseconds on them, and
 * again after its caches are dropped), and almost no text holds such a word: a text without one yields no fuzzy date
 * and is not run through them. Every test here is one the patterns make too, so no fuzzy date is lost.
 */
export function mayHoldFuzzyMonth(s: string): boolean {
  MONTH_WORD_START.lastIndex = 0;
  for (let m = MONTH_WORD_START.exec(s); m; m = MONTH_WORD_START.exec(s)) {
    const word = m[1]!;
    const end = m.index + word.length;
    if (
      word.length >= MIN_MONTH_WORD &&
      fuzzyMonth(word) !== undefined &&
      (followedBy(AFTER_FUZZY_MDY, s, end) || (dayBefore(s, m.index) && followedBy(AFTER_FUZZY_DMY, s, end)))
    )
      return true;
    // (A zero-width match: step past the letter, as `matchAll` would.)
    MONTH_WORD_START.lastIndex = m.index + (word.codePointAt(0)! > 0xffff ? 2 : 1);
  }
  return false;
}

function followedBy(sticky: RegExp, s: string, at: number): boolean {
  sticky.lastIndex = at;
  return sticky.test(s);
}

/** Dates whose month name is misspelt or misread by one letter (see `fuzzyMonth`). */
function fuzzyNamedDates(s: string, push: (m: RegExpMatchArray, v: string | undefined) => void): void {
  for (const m of s.matchAll(FUZZY_DMY)) {
    const month = fuzzyMonth(m[2]!);
    if (month) push(m, iso(+m[3]!, month, +m[1]!));
  }
  for (const m of s.matchAll(FUZZY_MDY)) {
    const month = fuzzyMonth(m[1]!);
    if (month) push(m, iso(+m[3]!, month, +m[2]!));
  }
}

function numericDate(da: string, db: string, dy: string, order: DateOrder): string | undefined {
  const [a, b, y] = [+da, +db, +dy];
  if (a > 12) return iso(y, b, a);
  if (b > 12) return iso(y, a, b);
  return order === 'mdy' ? iso(y, a, b) : iso(y, b, a);
}

/** Digits OCR reads in place of others in small receipt print: a misread 0 comes out as 8. */
const DIGIT_LOOKALIKES: Record<string, string> = { '8': '0' };
/**
 * A numeric date that is no valid date as read ("17/83/2817") is tried once more with look-alike digits undone in
 * the parts that are out of range (a month above 12, a year beyond the calendar window), never in valid parts.
 */
function lookAlikes([a, b, y]: string[]): [string, string, string] {
  const undo = (x: string) => x.replace(/./g, (c) => DIGIT_LOOKALIKES[c] ?? c);
  const impossible = (x: string) => +x > 31;
  let [na, nb] = [impossible(a!) ? undo(a!) : a!, impossible(b!) ? undo(b!) : b!];
  // (Day and month both above 12: one of them is a misread month.)
  if (+na > 12 && +nb > 12) [na, nb] = /8/.test(nb) ? [na, undo(nb)] : [undo(na), nb];
  return [na, nb, +y! > MAX_YEAR ? undo(y!) : y!];
}
/** Latest year a printed date may have. */
const MAX_YEAR = 2100;

export function parseDate(raw: string, order: DateOrder = 'dmy'): string | undefined {
  return findDate(raw, order)?.iso;
}
