import { collect, LOCALE_PACKS, type LocalePack } from './locale.pack.js';
import { alternation, vocabularyFor, type Vocabulary } from './locale.vocabulary.js';

/**
 * Which locale packs apply to a document (every language pack, and each country pack the document shows), and the
 * word lists of every shipped pack for code with no document at hand. The packs themselves: locale.pack.ts; their
 * compiled vocabulary: locale.vocabulary.ts; OCR word corrections: locale.corrections.ts.
 */

/** Detection evidence: a document's currency being the country's counts this much … */
const CURRENCY_EVIDENCE = 2;
/** … and each distinct detection word found once; a pack is active from its `minScore` (default below). */
const DEFAULT_MIN_SCORE = 2;

/** Shorter place words ("lot", "kg") are too common elsewhere to count as evidence of a country. */
const MIN_EVIDENCE_WORD_LENGTH = 5;
const evidence = new Map<string, ReadonlySet<string>>();
/**
 * A country pack's evidence: its detection words, and its street words of some length. (Not its region list as such:
 * it names neighbouring countries too, which documents of other countries print.)
 */
function evidenceWords(p: LocalePack): ReadonlySet<string> {
  let set = evidence.get(p.id);
  if (!set) {
    const places = (p.addressWords ?? []).filter((w) => w.length >= MIN_EVIDENCE_WORD_LENGTH);
    set = new Set([...(p.detect?.words ?? []), ...places].map((w) => w.toLowerCase()));
    evidence.set(p.id, set);
  }
  return set;
}

/** The ids of the packs that are always active (the languages). */
export function genericPackIds(): string[] {
  return [...LOCALE_PACKS.values()].filter((p) => p.generic).map((p) => p.id);
}

/** The packs that apply to a document: every generic pack, plus each country pack its text and currency show. */
export function detectLocales(text: string, currency?: string): string[] {
  const words = new Set(text.toLowerCase().match(/\p{L}+/gu) ?? []);
  const out: string[] = [];
  for (const p of LOCALE_PACKS.values()) {
    if (p.generic) {
      out.push(p.id);
      continue;
    }
    const d = p.detect ?? {};
    const score =
      (currency && d.currencies?.includes(currency) ? CURRENCY_EVIDENCE : 0) + [...evidenceWords(p)].filter((w) => words.has(w)).length;
    if (score >= (d.minScore ?? DEFAULT_MIN_SCORE)) out.push(p.id);
  }
  return out;
}

/** Yes and no words of every shipped pack (a bare answer has no document to detect a language from). */
export function yesNoWords(): { yes: ReadonlySet<string>; no: ReadonlySet<string> } {
  const packs = [...LOCALE_PACKS.values()];
  return { yes: new Set(packs.flatMap((p) => p.yesWords ?? [])), no: new Set(packs.flatMap((p) => p.noWords ?? [])) };
}

/** The document-kind words of every shipped pack (the `auto` template classifies before any language is known). */
export function documentKindWords(): Record<'invoice' | 'receipt' | 'form', { strong: string[]; weak: string[] }> {
  const out = {
    invoice: { strong: [] as string[], weak: [] as string[] },
    receipt: { strong: [] as string[], weak: [] as string[] },
    form: { strong: [] as string[], weak: [] as string[] },
  };
  for (const p of LOCALE_PACKS.values())
    for (const kind of ['invoice', 'receipt', 'form'] as const) {
      out[kind].strong.push(...(p.documentKinds?.[kind]?.strong ?? []));
      out[kind].weak.push(...(p.documentKinds?.[kind]?.weak ?? []));
    }
  return out;
}

/** The vocabulary of every shipped pack, for code with no document at hand (pure parsers, label matching). */
export function allPacksVocabulary(): Vocabulary {
  return vocabularyFor([...LOCALE_PACKS.keys()]);
}

/** The vocabulary of the given active packs (a DocContext's `locales`), else of every shipped pack. */
export function vocabularyOrAll(ids: readonly string[] | undefined): Vocabulary {
  return ids?.length ? vocabularyFor(ids) : allPacksVocabulary();
}

/** Label words per concept over every pack (label matching understands all shipped languages at once). */
export function labelWords(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of LOCALE_PACKS.values()) for (const [c, ws] of Object.entries(p.labels ?? {})) out.set(c, [...(out.get(c) ?? []), ...ws]);
  return out;
}

/** The letter currency marks of every pack, as [detector, ISO code], in pack order (see `currencyMarks`). */
export const CURRENCY_MARKS: readonly (readonly [RegExp, string])[] = [...LOCALE_PACKS.values()].flatMap((p) =>
  (p.currencyMarks ?? []).map((m) => [new RegExp(m.detect, 'u'), m.code] as const),
);

/** The letter currency marks of every pack as one alternation of regex sources ("RM|Rs\\.?|zł"), longest first. */
export const CURRENCY_MARK_SOURCE: string =
  alternation(
    [...LOCALE_PACKS.values()].flatMap((p) => (p.currencyMarks ?? []).map((m) => m.mark)),
    false,
  ) ?? '(?!)';

/** A pack's letter currency mark printed as a document's currency: its `scan`, else the mark beside a figure. */
const markScan = (m: { mark: string; scan?: string }) =>
  m.scan ?? `(?<!\\p{L})(?:${m.mark})(?=\\s?-?\\d)|(?<=\\d\\s{0,3})(?:${m.mark})(?!\\p{L})`;

/** Every pack's letter currency marks as printed for a document's currency, one alternation of sources. */
export const CURRENCY_SCAN_SOURCE: string =
  [...LOCALE_PACKS.values()].flatMap((p) => (p.currencyMarks ?? []).map(markScan)).join('|') || '(?!)';

/** A value-added tax named anywhere in a text, any case (every pack's `vatNames`). */
export const VAT_NAME: RegExp = new RegExp(
  `(?<![\\p{L}])(?:${alternation(collect([...LOCALE_PACKS.values()], 'vatNames'), true) ?? '(?!)'})(?![\\p{L}])`,
  'iu',
);

/** A line ending in a company registration code of one of the packs' shapes (`registrationCodes`). */
export const REGISTRATION_CODE: RegExp = new RegExp(alternation(collect([...LOCALE_PACKS.values()], 'registrationCodes'), false) ?? '(?!)');
