import type { DocLayout } from './layout/layout.types.js';
import { detectCurrency, ISO_CODES } from './parsers/currency.parser.js';
import type { DocContext } from './parsers/value.parser.js';
import { CURRENCY_SCAN_SOURCE, detectLocales, genericPackIds, VAT_NAME } from './locales/locale.registry.js';
import { vocabularyFor, type Vocabulary } from './locales/locale.vocabulary.js';

/** A currency symbol, or a pack's letter mark (`currencyMarks`) beside a figure: "RM 12", "4 719,00 Kč", "Rs.-5". */
const CURRENCY_MARK = new RegExp(`[$€£¥₹]|${CURRENCY_SCAN_SOURCE}`, 'gu');

const vocabularies = new WeakMap<DocLayout, Vocabulary>();

/** The locale packs' word lists for this document: those named by the caller, else those its text shows. */
export function vocabularyOf(doc: DocLayout): Vocabulary {
  const known = vocabularies.get(doc);
  if (known) return known;
  inferContext(doc);
  return vocabularies.get(doc)!;
}

/** Pins the document's locale packs (a template's `locales` setting); generic packs stay active. */
export function setDocLocales(doc: DocLayout, ids: readonly string[]): void {
  vocabularies.set(doc, vocabularyFor([...new Set([...genericPackIds(), ...ids])]));
}

/** Running-text words of a month-first language that make text without other evidence month-first (forms print few). */
const MIN_MONTH_FIRST_WORDS = 2;

/** Full text of the document, lines joined by newlines, pages by form feeds. */
export function fullText(doc: DocLayout): string {
  return doc.pages.map((p) => p.lines.map((l) => l.text).join('\n')).join('\n\f');
}

/**
 * The euro sign as TeX sets it from faces that have none: `eurosym`'s glyph, named "e" in its font, and LaTeX's
 * stand-in, a "C" with two strokes drawn across it — a lone "e" or "C" after figures with cents ("1.234,56 e"), a
 * "C" before them ("C 1.234,56"), or an "e" glued before them ("e4966.12"); never followed by a word or figure
 * ("10,00 e 20,00" is Italian for "and"). Only in text layers: a scan's reader sees the sign as drawn.
 */
const CENTS = '\\d[\\d.,\\u202f ]*[.,]\\d{2}';
const TEX_EURO = new RegExp(
  `(?<![\\p{L}\\d])(?:${CENTS}[ \\u00a0]?[eC]|C[ \\u00a0]?${CENTS}|e${CENTS})(?![\\p{L}\\d]|[ \\u00a0]+[\\p{L}\\d])`,
  'gu',
);
/** A document that names no currency prints the euro so at least this often before it is read as the euro. */
const TEX_EURO_MIN = 2;

/** The euro, `[code, votes]`, when a document naming no currency prints TeX's euro marks by its figures (a text layer's). */
function texEuro(doc: DocLayout, text: string): [string, number] | [] {
  if (doc.pages.some((p) => p.ocr)) return [];
  const n = (text.match(TEX_EURO) ?? []).length;
  return n >= TEX_EURO_MIN ? ['EUR', n] : [];
}

/**
 * Infers the document's conventions once: day/month order from unambiguous dates (a first part > 12
 * means day-first), decimal mark from how amounts with two decimals are printed, and the currency
 * most often named. Ambiguous dates then follow the document instead of a global guess.
 */
export function inferContext(doc: DocLayout): DocContext {
  const text = fullText(doc);
  let dmy = 0;
  let mdy = 0;
  for (const m of text.matchAll(/(?<![\d.])(\d{1,2})[/.-](\d{1,2})[/.-](\d{2,4})(?!\d)/g)) {
    // (A day is at most 31: "12-34-56", a bank sort code, is no date of either order.)
    if (+m[1]! > 12 && +m[1]! <= 31 && +m[2]! <= 12) dmy++;
    else if (+m[2]! > 12 && +m[2]! <= 31 && +m[1]! <= 12) mdy++;
  }
  const commaDec = (text.match(/\d,\d{2}(?![\d,.])/g) ?? []).length;
  const dotDec = (text.match(/\d\.\d{2}(?![\d,.])/g) ?? []).length;
  const counts = new Map<string, number>();
  // (Also glued before its figure, as a template may print it: "GBP61,459.86".)
  for (const m of text.matchAll(/\b[A-Z]{3}(?:\b|(?=\d))/g)) if (ISO_CODES.has(m[0])) counts.set(m[0], (counts.get(m[0]) ?? 0) + 2);
  // (Letter marks of other scripts too: "4 719,00 Kč", "120,00 zł", "133 350 Ft".)
  for (const m of text.matchAll(CURRENCY_MARK)) {
    // A symbol before a long bare integer is OCR noise in a postcode or id ("India-$60067"), not an amount.
    if (/^\s?\d{5,}(?![\d.,])/.test(text.slice(m.index! + m[0].length, m.index! + m[0].length + 12))) continue;
    const c = detectCurrency(text.slice(Math.max(0, m.index! - 3), m.index! + m[0].length + 4));
    if (c) counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const [currency, votes = 0] = [...counts.entries()].sort((a, b) => b[1] - a[1])[0] ?? texEuro(doc, text);
  if (!vocabularies.has(doc)) vocabularies.set(doc, vocabularyFor(detectLocales(text, currency)));
  const vocab = vocabularies.get(doc)!;
  // Without unambiguous dates: US dollars, or English text with no currency at all (US forms, letters),
  // suggest month-first; everything else day-first.
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  // (Running-text words of the packs: those of languages whose text suggests month-first dates, English, and the rest.)
  const english = words.filter((w) => vocab.textWords.monthFirst.has(w)).length;
  const other = words.filter((w) => vocab.textWords.other.has(w)).length;
  // (A single currency sign is weak evidence: OCR specks read as "S$" must not turn an English form day-first.)
  const weakCurrency = !currency || votes < 2;
  // (Value-added taxes, or a country pack detected whose dates are day-first, are not American: such English text
  // is day-first.)
  const notUs = VAT_NAME.test(text) || vocab.dateOrder === 'dmy';
  const dateOrder =
    dmy > mdy
      ? 'dmy'
      : mdy > dmy
        ? 'mdy'
        : currency === 'USD' || (weakCurrency && !notUs && english > other * 2 && english >= MIN_MONTH_FIRST_WORDS)
          ? 'mdy'
          : 'dmy';
  return { locales: vocab.ids, dateOrder, decimal: commaDec > dotDec ? 'comma' : dotDec > commaDec ? 'dot' : undefined, currency };
}
