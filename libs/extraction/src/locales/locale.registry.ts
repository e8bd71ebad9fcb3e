import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Locale packs: every word list the engine matches against lives in `locales/<id>.json`, one file per language
 * (`de`, `fr` …) or language-and-country (`ms-MY`). Generic code asks for a {@link Vocabulary} built from the packs
 * that apply to a document and never names words of a language or country itself.
 *
 * - A pack with `"generic": true` (the European languages) is always active: label words of every such language are
 *   understood on every document, as invoices mix them.
 * - A country pack (`"generic": false`: street, region and company-form words of one country, its OCR fixes) is
 *   active only when the document shows it: its currency and/or enough of its `detect.words` (see {@link detectLocales}),
 *   or when the caller names it (a template's `locales` setting).
 */
export interface LocalePack {
  id: string;
  name?: string;
  country?: string;
  generic?: boolean;
  detect?: { currencies?: string[]; words?: string[]; minScore?: number };
  /** The usual date order of the country ('dmy' | 'mdy'), used when the document's own dates leave it open. */
  dateOrder?: 'dmy' | 'mdy';
  /** Label words per concept (see label.matcher.ts): folded, accent-free, lower case. */
  labels?: Record<string, string[]>;
  /** Legal-form suffixes of company names, as regular-expression sources (case-sensitive). */
  legalForms?: string[];
  /** Words that mark a line as part of a postal address (street kinds, building words). */
  addressWords?: string[];
  /** States, regions and country names printed as the last line of an address. */
  regions?: string[];
  /** Upper-case words that OCR misreads and {@link correctWords} restores, whole tokens only. */
  dictionary?: string[];
  /** Letter look-alikes OCR confuses: misread character → intended character. */
  ocrConfusions?: Record<string, string>;
  /** Known OCR misreadings of multi-character forms: [regex source, replacement]. */
  ocrFixes?: [string, string][];
  /** Greetings printed above a shop's name. */
  greetings?: string[];
  /** Words of the cash-tendered and change lines of a receipt. */
  tendered?: string[];
  change?: string[];
}

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** Every pack shipped with the engine, by id. */
export const LOCALE_PACKS: ReadonlyMap<string, LocalePack> = new Map(
  readdirSync(here)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => require(`./${f}`) as LocalePack)
    .map((p) => [p.id, p]),
);

/** Detection evidence: a document's currency being the country's counts this much … */
const CURRENCY_EVIDENCE = 2;
/** … and each distinct detection word found once; a pack is active from its `minScore` (default below). */
const DEFAULT_MIN_SCORE = 2;

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
    const score = (currency && d.currencies?.includes(currency) ? CURRENCY_EVIDENCE : 0) + (d.words ?? []).filter((w) => words.has(w)).length;
    if (score >= (d.minScore ?? DEFAULT_MIN_SCORE)) out.push(p.id);
  }
  return out;
}

/** The word lists of a set of active packs, compiled once per set. */
export interface Vocabulary {
  ids: readonly string[];
  dateOrder?: 'dmy' | 'mdy';
  legalForm: RegExp;
  addressWord: RegExp;
  regions: ReadonlySet<string>;
  dictionary: readonly string[];
  confusions: Readonly<Record<string, string>>;
  ocrFixes: readonly [RegExp, string][];
  greeting: RegExp;
  tendered: RegExp;
  change: RegExp;
  /** True when a country pack is active (its conventions beat language-only guesses). */
  countrySpecific: boolean;
}

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** Longest first, so that "welcome to" is tried before "welcome" and "S.A.S." before "S.A.". */
const byLength = (a: string, b: string) => b.length - a.length;
const NEVER = /(?!)/;

function alternation(list: string[], literal: boolean): string | undefined {
  const uniq = [...new Set(list)].sort(byLength);
  return uniq.length ? uniq.map((w) => (literal ? escape(w) : w)).join('|') : undefined;
}

const cache = new Map<string, Vocabulary>();

export function vocabularyFor(ids: readonly string[]): Vocabulary {
  const key = [...ids].sort().join(',');
  const hit = cache.get(key);
  if (hit) return hit;
  const packs = ids.map((id) => LOCALE_PACKS.get(id)).filter((p): p is LocalePack => !!p);
  const all = <K extends keyof LocalePack>(k: K) => packs.flatMap((p) => (p[k] as unknown[] | undefined) ?? []) as NonNullable<LocalePack[K]>;
  const legal = alternation(all('legalForms') as string[], false);
  const address = alternation(all('addressWords') as string[], true);
  const phrase = (list: string[]) => {
    const alt = alternation(list, true);
    return alt ? new RegExp(`^\\W*(?:${alt.replace(/ /g, '\\s+')})(?!\\p{L})`, 'iu') : NEVER;
  };
  const country = packs.find((p) => !p.generic && p.dateOrder);
  const v: Vocabulary = {
    ids: [...ids],
    dateOrder: country?.dateOrder,
    // A name of 2–60 characters ending in a legal form, at the end of the text or before punctuation.
    legalForm: legal ? new RegExp(`^(.{2,60}?\\b(?:${legal}))(?=$|[\\s,.;)\\-])`) : NEVER,
    addressWord: new RegExp(`(?<!\\p{L})(?:${address ?? '(?!)'})(?!\\p{L})|^\\d+[-/]\\p{L}`, 'iu'),
    regions: new Set((all('regions') as string[]).map((w) => w.toLowerCase())),
    dictionary: [...new Set(all('dictionary') as string[])],
    confusions: Object.assign({}, ...packs.map((p) => p.ocrConfusions ?? {})),
    ocrFixes: (all('ocrFixes') as [string, string][]).map(([re, to]) => [new RegExp(re), to]),
    greeting: phrase(all('greetings') as string[]),
    tendered: phrase(all('tendered') as string[]),
    change: phrase(all('change') as string[]),
    countrySpecific: packs.some((p) => !p.generic),
  };
  cache.set(key, v);
  return v;
}

/** Label words per concept over every pack (label matching understands all shipped languages at once). */
export function labelWords(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of LOCALE_PACKS.values()) for (const [c, ws] of Object.entries(p.labels ?? {})) out.set(c, [...(out.get(c) ?? []), ...ws]);
  return out;
}

/**
 * OCR correction on whole tokens: a token that is not itself a dictionary word, has the length of one, and differs
 * from it in exactly one position where the misread character is a listed look-alike of the intended one ("TAMAN"
 * read as "TRMAN" with R→A listed) becomes that word; case is kept. Then the pack's known multi-character fixes
 * apply. Words with an unlisted difference ("JAPAN" vs a dictionary "JALAN": P is no look-alike of L) are left alone.
 */
export function correctWords(text: string, v: Vocabulary): string {
  let out = text;
  if (v.dictionary.length) {
    out = out.replace(/[\p{L}\d|]+/gu, (w) => {
      const up = w.toUpperCase();
      if (up.length < MIN_CORRECTED_LENGTH || !/\p{L}/u.test(w) || v.dictionary.includes(up)) return w;
      const hit = v.dictionary.find((d) => d.length === up.length && differsByOneLookAlike(up, d, v.confusions));
      if (!hit) return w;
      return w === up ? hit : w === w.toLowerCase() ? hit.toLowerCase() : hit[0] + hit.slice(1).toLowerCase();
    });
  }
  for (const phrase of v.dictionary.filter((d) => d.includes(' '))) out = correctPhrase(out, phrase);
  for (const [re, to] of v.ocrFixes) out = out.replace(re, to);
  return out;
}

/**
 * A dictionary phrase of several words ("SDN BHD") read with one wrong letter in one of its words while the others
 * are exact ("SON BHD", "SDN 8HD") is that phrase: the exact words make the intent clear, so any letter counts.
 */
function correctPhrase(text: string, phrase: string): string {
  const want = phrase.split(' ');
  const re = new RegExp(`(?<![\\p{L}\\d])${want.map((w) => `[\\p{L}\\d]{${w.length}}`).join('\\s+')}(?![\\p{L}\\d])`, 'gu');
  return text.replace(re, (m) => {
    const got = m.split(/\s+/);
    let wrong = 0;
    for (const [i, w] of want.entries()) {
      const g = got[i]!.toUpperCase();
      if (g === w) continue;
      if ([...w].filter((c, k) => c !== g[k]).length !== 1 || ++wrong > 1) return m;
    }
    if (!wrong) return m;
    const upper = m === m.toUpperCase();
    return upper ? phrase : m;
  });
}

/** Shorter tokens are too ambiguous to correct (every two-letter word is one look-alike from another). */
const MIN_CORRECTED_LENGTH = 3;

function differsByOneLookAlike(read: string, word: string, confusions: Readonly<Record<string, string>>): boolean {
  let diffs = 0;
  for (let i = 0; i < word.length; i++) {
    if (read[i] === word[i]) continue;
    if (confusions[read[i]!] !== word[i] || ++diffs > 1) return false;
  }
  return diffs === 1;
}
