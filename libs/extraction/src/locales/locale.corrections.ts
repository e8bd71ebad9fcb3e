import type { Vocabulary } from './locale.vocabulary.js';

/**
 * OCR correction on whole tokens: a token that is not itself a dictionary word, has the length of one, and differs
 * from it in exactly one position where the misread character is a listed look-alike of the intended one ("TAMAN"
 * read as "TRMAN" with R→A listed) becomes that word; case is kept. Then the pack's known multi-character fixes
 * apply. Words with an unlisted difference ("JAPAN" vs a dictionary "JALAN": P is no look-alike of L) are left alone,
 * unless the dictionary word is long (LONG_WORD).
 */
export function correctWords(text: string, v: Vocabulary): string {
  let out = text;
  if (v.dictionary.length) {
    out = out.replace(/[\p{L}\d|]+/gu, (w) => {
      const up = w.toUpperCase();
      if (up.length < MIN_CORRECTED_LENGTH || !/\p{L}/u.test(w) || v.dictionary.includes(up)) return w;
      const hit = v.dictionary.find(
        (d) => d.length === up.length && (differsByOne(up, d, v.confusions) || (d.length >= LONG_WORD && differsByOne(up, d))),
      );
      if (!hit) return w;
      return w === up ? hit : w === w.toLowerCase() ? hit.toLowerCase() : hit[0] + hit.slice(1).toLowerCase();
    });
  }
  for (const phrase of v.dictionary.filter((d) => d.includes(' '))) out = correctPhrase(out, phrase);
  for (const [re, to] of v.ocrFixes) out = out.replace(re, to);
  return digitsRead(markForLetter(out, v));
}

/**
 * A figure read with the letter O for a zero ("4O0O0", "5600o"): a run of at least MIN_FIGURE_DIGITS digits with only
 * O or o among them is a number, and its O's are zeros. Fewer digits are too ambiguous ("NO 1O" may be a word).
 */
function digitsRead(text: string): string {
  return text.replace(/(?<![\p{L}\d])[\dOo]+(?![\p{L}\d])/gu, (t) =>
    (t.match(/\d/g)?.length ?? 0) >= MIN_FIGURE_DIGITS && /[Oo]/.test(t) ? t.replace(/[Oo]/g, '0') : t,
  );
}
/** A figure holds at least this many digits before its O's are read as zeros. */
const MIN_FIGURE_DIGITS = 3;

/**
 * A dictionary word read with one thin letter as a punctuation mark ("PERS!ARAN", "KUA-A"): letters,
 * one mark, letters, as long as the word, every letter as printed in it, is that word. (A real hyphenated or
 * colon-joined pair of words matches no single dictionary word letter for letter.)
 */
function markForLetter(text: string, v: Vocabulary): string {
  if (!v.dictionary.length) return text;
  return text.replace(/(?<![\p{L}\d])(\p{L}+)[:;!|\-](\p{L}+)(?![\p{L}\d])/gu, (t, a: string, b: string) => {
    const up = t.toUpperCase();
    if (up.length < MIN_CORRECTED_LENGTH) return t;
    const hit = v.dictionary.find(
      (d) => d.length === up.length && !d.includes(' ') && d.startsWith(a.toUpperCase()) && d.endsWith(b.toUpperCase()),
    );
    if (!hit) return t;
    return t === up ? hit : t === t.toLowerCase() ? hit.toLowerCase() : hit[0] + hit.slice(1).toLowerCase();
  });
}

/**
 * A dictionary phrase of several words ("SDN BHD") read with one wrong letter in one of its words while the others
 * are exact ("SON BHD", "SDN 8HD", "Sdn.Rhd", "SDN. BHZ") is that phrase: the exact words make the intent clear, so
 * any letter counts. The words may be parted by a space or an abbreviation dot; the separators and the case of
 * the text as read are kept (a title-case reading gets the word in title case).
 */
function correctPhrase(text: string, phrase: string): string {
  const want = phrase.split(' ');
  // (Matched by lookahead at every word start: a short word before the phrase, "OWL SON BHD", must not hide it.)
  const re = new RegExp(
    `(?<![\\p{L}\\d])(?=(${want.map((w) => `([\\p{L}\\d]{${w.length}})`).join(PHRASE_SEPARATOR)})(?![\\p{L}\\d]))`,
    'gu',
  );
  let out = text;
  for (const hit of [...text.matchAll(re)].reverse()) {
    const m = hit[1]!;
    const got = hit.slice(2, 2 + want.length) as string[];
    let wrong = -1;
    let ok = true;
    for (const [i, w] of want.entries()) {
      const g = got[i]!.toUpperCase();
      if (g === w) continue;
      if ([...w].filter((c, k) => c !== g[k]).length !== 1 || wrong >= 0) ok = false;
      wrong = i;
    }
    if (!ok || wrong < 0) continue;
    const bad = got[wrong]!;
    // (Only a reading whose other words share one case: an exact word in capitals or in title case.)
    const others = got.filter((_, i) => i !== wrong);
    const fix = others.every((o) => o === o.toUpperCase())
      ? want[wrong]!
      : others.every((o) => o === o[0] + o.slice(1).toLowerCase())
        ? want[wrong]![0] + want[wrong]!.slice(1).toLowerCase()
        : undefined;
    if (!fix) continue;
    const at = hit.index! + m.indexOf(bad, got.slice(0, wrong).join('').length);
    out = out.slice(0, at) + fix + out.slice(at + bad.length);
  }
  return out;
}
/** The words of a dictionary phrase are parted by spaces or by an abbreviation dot ("SDN. BHD", "Sdn.Bhd"). */
const PHRASE_SEPARATOR = '(?:\\.\\s*|\\s+)';

/** Shorter tokens are too ambiguous to correct (every two-letter word is one look-alike from another). */
const MIN_CORRECTED_LENGTH = 3;

/**
 * A dictionary word of at least this many letters read with any one letter wrong ("PERSIARAN" as "PERSIARAW") is that
 * word: no other word of the language is one letter away from a word this long, so no look-alike table is needed.
 */
const LONG_WORD = 8;

/**
 * Does `read` differ from `word` (same length) in exactly one position, where the misread character is a listed
 * look-alike of the intended one (`confusions`), or any character when no table is given?
 */
function differsByOne(read: string, word: string, confusions?: Readonly<Record<string, string>>): boolean {
  let diffs = 0;
  for (let i = 0; i < word.length; i++) {
    if (read[i] === word[i]) continue;
    if ((confusions && confusions[read[i]!] !== word[i]) || ++diffs > 1) return false;
  }
  return diffs === 1;
}
