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
  /** Document titles ("invoice", "Rechnung", "receipt"), the words that may precede them ("copy of", "simplified") and
   * the number words of a title ("No.", "Nr."): pattern sources. */
  documentTitles?: string[];
  documentTitlePrefixes?: string[];
  titleNumberWords?: string[];
  /** Words asking for payment, and the prepositions that put a deadline on it ("pay … by"): pattern sources. */
  payWords?: string[];
  dueBefore?: string[];
  /** Words introducing a party before its name ("from", "von"). */
  partyPrefixes?: string[];
  /** Words addressing a letter to someone ("Herrn", "Attn."): pattern sources. */
  salutations?: string[];
  /** Marks of a company's legal-registration footer ("Amtsgericht", "RCS", "KvK"): pattern sources, any case. */
  registrationMarks?: string[];
  /** Closing words of a document ("thank", "merci"): a line opening with one is no name. */
  closingWords?: string[];
  /** Bank words ("bank", "IBAN") and the labels naming the holder of the account to pay into: pattern sources. */
  bankWords?: string[];
  payeeLabels?: string[];
  /** Words handing a party over to another ("c/o", "on behalf of"): pattern sources. */
  onBehalfOf?: string[];
  /** Words of a tax breakdown table ("summary", "analysis") and of its tax-code column ("code"). */
  summaryWords?: string[];
  taxCodeWords?: string[];
  /** Receipt lines: discounts, deposits deducted, rounding, and words naming the amount to pay: pattern sources. */
  discountLines?: string[];
  depositWords?: string[];
  roundingWords?: string[];
  amountToPayWords?: string[];
  /** Contact words ("tel", "fax"), tax-registration labels ("GST", "reg") and receipt body words ("cashier"): sources. */
  contactWords?: string[];
  registrationLabels?: string[];
  receiptBodyWords?: string[];
  /** Abbreviations whose closing dot ends no sentence beyond the legal forms' own ("Co"). */
  legalAbbreviations?: string[];
  /** Words opening a house, lot or unit number ("No.", "Lot", "Level"): pattern sources. */
  houseNumberWords?: string[];
  /** Words after a clock time ("hrs", "Uhr"). */
  clockWords?: string[];
  /**
   * Words that tell a document's kind for the `auto` template, lower case: `strong` ones name the kind (a title such
   * as "invoice"), `weak` ones are typical of it ("due date").
   */
  documentKinds?: Partial<Record<'invoice' | 'receipt' | 'form', { strong: string[]; weak: string[] }>>;
  /** Answers meaning yes and no ("ja", "non"), lower case. */
  yesWords?: string[];
  noWords?: string[];
  /** Words of the cash-tendered and change lines of a receipt. */
  tendered?: string[];
  change?: string[];
  /** Month names and abbreviations, lower case: twelve lists, January first. */
  months?: string[][];
  /** Suffixes printed after a day number ("15th", "1er"). */
  ordinals?: string[];
  /** Common words of running text that show the language (counted to guess the date order of undated text). */
  textWords?: string[];
  /** The date order that text in this language suggests when neither dates nor currency decide. */
  textDateOrder?: 'dmy' | 'mdy';
  /** Words printed before a year rather than an amount ("Tax year", "seit"). */
  yearWords?: string[];
  /** Words printed before a phone or fax number. */
  phoneWords?: string[];
  /** Words printed before the number of a statute's article or section ("art. 293 B du CGI", "§ 19 UStG"): no amount. */
  lawReferences?: string[];
  /**
   * Postcodes with their town in the countries of the language whose shape is not the plain run of 4–6 digits every
   * pack understands ("SW1A 2AA London", "Dublin, D02 X285", "1234 AB Stad"): regex sources, matched case-sensitively
   * anywhere in a line.
   */
  postcodes?: string[];
  /** Country prefixes of postcodes ("D-", "CH-"), upper case, without the hyphen. */
  postcodePrefixes?: string[];
  /** Labels of code lines under a line item (GTIN, article and serial numbers), regex sources (case-insensitive). */
  itemCodeLabels?: string[];
  /** Multi-word label phrases (regex sources over folded lower-case text) → the concept word(s) they stand for. */
  phrases?: Record<string, string[]>;
  /** Like `phrases`, matched on lower-case text before accents are folded away ("facturé à" but not "facture à"). */
  accentedPhrases?: Record<string, string[]>;
  /** First words (regex sources, folded) that can open one of the `phrases`. */
  phraseHeads?: string[];
  /** Words that say "excluding" before a tax word ("excl. VAT", "hors taxes": the net amount). */
  excluding?: string[];
  /** Words that say "including" before a tax word ("incl. VAT": the gross total). */
  including?: string[];
  /** Tax words combined with `excluding` / `including`. */
  taxWords?: string[];
  /** Words allowed between an excluding/including word and the tax word ("incl. of GST"). */
  taxLinks?: string[];
  /** Words of no weight in a label (articles, prepositions). */
  labelFillers?: string[];
  /** Words that, alone with a colon as a cell's label, introduce the addressee ("To:"). */
  addresseeCells?: string[];
  /** Carry-over phrases of a table split over pages ("Carried forward"), folded. */
  carryOver?: string[];
  /** Words that, opening a line with a colon, end a table ("Source:", "Note:"). */
  tableNotes?: string[];
  /** The word "page" of a field's description naming the page of a table ("page 2"). */
  pageWords?: string[];
  /** Words that mean "total" only right before a total word ("Grand total", "Sub total"). */
  totalModifiers?: string[];
  /** Words that continue a description onto the next line when they end or open it ("and", "of"). */
  connectors?: string[];
  /** Folded word beginnings of delivery-address labels ("Ship to", "Lieferadresse"). */
  deliveryLabels?: string[];
  /**
   * Currency marks printed in letters in the pack's countries (symbols such as `€` and ISO codes are generic): the ISO
   * code, the mark as a regex source used as an amount's prefix, the source that finds it in an amount's text
   * (`detect`), and optionally the source that counts it as a document's currency (`scan`; by default the mark next to
   * a figure, before or after it).
   */
  currencyMarks?: { code: string; mark: string; detect: string; scan?: string }[];
  /** Names of a value-added tax ("VAT", "MwSt"), lower case: a document naming one is not American. */
  vatNames?: string[];
  /** Shapes of a line that is only a company registration code, regex sources matched at a line's end. */
  registrationCodes?: string[];
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

/** One list key of several packs, concatenated in pack order. */
function collect<K extends keyof LocalePack>(packs: readonly LocalePack[], k: K): NonNullable<LocalePack[K]> {
  return packs.flatMap((p) => (p[k] as unknown[] | undefined) ?? []) as NonNullable<LocalePack[K]>;
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
  /** Month name → month number (1–12), and the names as one alternation, longest first. */
  months: ReadonlyMap<string, number>;
  monthPattern: string;
  /** Day-number suffixes as one alternation (empty when none). */
  ordinalPattern: string;
  /** Running-text words of languages whose text suggests month-first dates, and of the others. */
  textWords: { monthFirst: ReadonlySet<string>; other: ReadonlySet<string> };
  /** A year word (or ©) ending the text before a number. */
  yearWord: RegExp;
  /** A phone word ending the text before a number. */
  phoneWord: RegExp;
  /** A statute reference word (or §) ending the text before a number. */
  lawReference: RegExp;
  /** A postcode's country prefix ending the text before a number ("D-"). */
  postcodePrefix: RegExp;
  /** A postcode of one of the packs' own shapes (`postcodes`), with its town. */
  postcode: RegExp;
  /** An item code label opening a line. */
  itemCodeLabel: RegExp;
  /** A legal form printed alone ("GmbH", "Ltd.", "S.A."), loosely spaced and dotted, any case. */
  legalFormOnly: RegExp;
  /** Label phrases → concept word(s), in the order they are replaced: `accented` before folding, `folded` after. */
  phrases: { accented: readonly [RegExp, string][]; folded: readonly [RegExp, string][] };
  /** A folded word that can open a phrase (of `phrases`, or excluding/including + tax word). */
  phraseHead: RegExp;
  /** "excl. VAT" (net) and "incl. VAT" (gross) on folded text. */
  netPhrase: RegExp;
  grossPhrase: RegExp;
  labelFillers: ReadonlySet<string>;
  /** A cell that is only an addressee word with its colon ("To:"). */
  addresseeCell: RegExp;
  /** The same word alone on its line, colon or not: a heading over the addressee's block ("To"). */
  addresseeHeading: RegExp;
  /** A carry-over phrase in folded text. */
  carryOver: RegExp;
  /** A line opening with a note word and a colon. */
  tableNote: RegExp;
  /** "page <n>" in a field's description, the number captured. */
  pageRef: RegExp;
  totalModifiers: ReadonlySet<string>;
  connectors: ReadonlySet<string>;
  /** A folded label that opens with a delivery word. */
  deliveryLabel: RegExp;
  /** Issuer, address and receipt words (semantic.fallback.ts, address.block.ts), see {@link partyWords}. */
  party: PartyWords;
}

/** The word patterns of the no-label fallbacks: issuer and addressee, address block, receipt totals. */
export interface PartyWords {
  /** A document title opening a line ("Tax invoice", "Copy of receipt", "Page"). */
  documentTitle: RegExp;
  /** A document number printed as a title ("Invoice 2024-17"): the number captured. */
  titleNumber: RegExp;
  payWord: RegExp;
  /** A deadline preposition ending the text before a date. */
  dueBefore: RegExp;
  /** A party-introducing word and its colon opening a text. */
  partyPrefix: RegExp;
  salutation: RegExp;
  registration: RegExp;
  /** A line opening with a closing or page word. */
  closing: RegExp;
  bank: RegExp;
  /** A bank word opening a cell that ends in a colon within a few words ("Bankverbindung:", "Bank details:"). */
  bankLabel: RegExp;
  /** A payee label followed by the name (captured). */
  payee: RegExp;
  /** A name followed by a hand-over word and another party: the name captured. */
  onBehalfOf: RegExp;
  taxSummary: RegExp;
  discountLine: RegExp;
  depositWord: RegExp;
  rounding: RegExp;
  amountToPay: RegExp;
  /** Contact or tax-registration words, an e-mail or web address. */
  contact: RegExp;
  /** A word opening the contact part of a line ("TEL:", "Date", "@"). */
  contactWord: RegExp;
  registrationLabel: RegExp;
  receiptBody: RegExp;
  /** A closing legal-form dot ("Ltd.", "s.r.o.") at the end of a text. */
  legalDot: RegExp;
  /** A line opening with a house, lot or unit number ("No. 7", "Lot 12", "Level 3", "12,", "G-05"). */
  houseOpener: RegExp;
  /** A clock time or opening hours ("10:30", "1000 HRS"). */
  time: RegExp;
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

/**
 * A legal-form source loosened for a form printed alone: every dot optional ("SA", "S.A"), every space any run of
 * spaces ("GmbH&Co KG").
 */
const loosen = (src: string) => src.replace(/\\\.(?!\?)/g, '\\.?').replace(/ \??/g, '\\s*');

/** Concept → regex sources of every pack, merged (concepts in first-seen order). */
function phraseTable(packs: LocalePack[], key: 'phrases' | 'accentedPhrases', wrap: (alt: string) => RegExp): [RegExp, string][] {
  const merged = new Map<string, string[]>();
  for (const p of packs) for (const [c, list] of Object.entries(p[key] ?? {})) merged.set(c, [...(merged.get(c) ?? []), ...list]);
  return [...merged].map(([c, list]) => [wrap(alternation(list, false)!), ` ${c} `]);
}

export function vocabularyFor(ids: readonly string[]): Vocabulary {
  const key = [...ids].sort().join(',');
  const hit = cache.get(key);
  if (hit) return hit;
  const packs = ids.map((id) => LOCALE_PACKS.get(id)).filter((p): p is LocalePack => !!p);
  const all = <K extends keyof LocalePack>(k: K) => collect(packs, k);
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
    // (Forms may follow each other: "ACME TRADING SDN BHD", "Nordwind GmbH & Co. KG"; the name runs to the last.
    // A registration code in brackets may follow without a space: "ACME SDN BHD(123456-X)".)
    legalForm: legal ? new RegExp(`^(.{2,60}?\\b(?:${legal})(?:[\\s,]+(?:${legal}))*)(?=$|[\\s,.;)\\-]|\\([^)]*\\d)`) : NEVER,
    addressWord: new RegExp(`(?<!\\p{L})(?:${address ?? '(?!)'})(?!\\p{L})|^\\d+[-/]\\p{L}`, 'iu'),
    regions: new Set((all('regions') as string[]).map((w) => w.toLowerCase())),
    dictionary: [...new Set(all('dictionary') as string[])],
    confusions: Object.assign({}, ...packs.map((p) => p.ocrConfusions ?? {})),
    ocrFixes: (all('ocrFixes') as [string, string][]).map(([re, to]) => [new RegExp(re), to]),
    greeting: phrase(all('greetings') as string[]),
    tendered: phrase(all('tendered') as string[]),
    change: phrase(all('change') as string[]),
    countrySpecific: packs.some((p) => !p.generic),
    ...moreWords(packs),
  };
  cache.set(key, v);
  return v;
}

/** The word lists of the extraction steps (dates, amounts, labels, tables), compiled for `vocabularyFor`. */
function moreWords(
  packs: LocalePack[],
): Omit<
  Vocabulary,
  | 'ids'
  | 'dateOrder'
  | 'legalForm'
  | 'addressWord'
  | 'regions'
  | 'dictionary'
  | 'confusions'
  | 'ocrFixes'
  | 'greeting'
  | 'tendered'
  | 'change'
  | 'countrySpecific'
> {
  const all = <K extends keyof LocalePack>(k: K) => collect(packs, k);
  const words = (k: keyof LocalePack) => alternation(all(k) as string[], true) ?? '(?!)';
  const sources = (k: keyof LocalePack) => alternation(all(k) as string[], false) ?? '(?!)';
  /** Literal phrases: a space matches any run of spaces. */
  const phrases = (k: keyof LocalePack) => words(k).replace(/ /g, '\\s+');
  const months = new Map<string, number>();
  for (const p of packs) p.months?.forEach((names, i) => names.forEach((n) => months.has(n) || months.set(n, i + 1)));
  const textWords = (monthFirst: boolean) =>
    new Set(packs.filter((p) => (p.textDateOrder === 'mdy') === monthFirst).flatMap((p) => p.textWords ?? []));
  const taxPhrase = (k: 'excluding' | 'including') =>
    new RegExp(`\\b(?:${words(k)})\\.?\\s+(?:(?:${words('taxLinks')})\\s+)?(?:${words('taxWords')})\\b`, 'g');
  return {
    months,
    monthPattern: alternation([...months.keys()], true) ?? '(?!)',
    ordinalPattern: alternation(all('ordinals'), true) ?? '',
    textWords: { monthFirst: textWords(true), other: textWords(false) },
    yearWord: new RegExp(`(?:©|\\(c\\)|\\b(?:${words('yearWords')})\\b)\\W*$`, 'iu'),
    phoneWord: new RegExp(`\\b(?:${words('phoneWords')})\\b\\.?\\W*$`, 'iu'),
    lawReference: new RegExp(`(?:§|\\b(?:${words('lawReferences')})\\b)\\.?\\s*$`, 'iu'),
    postcodePrefix: new RegExp(`\\b(?:${words('postcodePrefixes')})-$`),
    postcode: packs.some((p) => p.postcodes?.length) ? new RegExp(packs.flatMap((p) => p.postcodes ?? []).join('|'), 'u') : NEVER,
    itemCodeLabel: new RegExp(`^(?:${sources('itemCodeLabels')})(?=[\\s:#.]|$)`, 'iu'),
    legalFormOnly: new RegExp(`^(?:&\\s*)?(?:${alternation(all('legalForms').map(loosen), false) ?? '(?!)'})$`, 'iu'),
    phrases: {
      accented: phraseTable(packs, 'accentedPhrases', (alt) => new RegExp(`(?<!\\p{L})(?:${alt})(?!\\p{L})`, 'gu')),
      // (Not followed by a word character rather than `\b`: a phrase may end in punctuation, "Exmo.(s) Sr.(s)".)
      folded: phraseTable(packs, 'phrases', (alt) => new RegExp(`\\b(?:${alt})(?!\\w)`, 'g')),
    },
    phraseHead: new RegExp(
      `\\b(?:${alternation([...all('phraseHeads'), ...all('excluding').map(escape), ...all('including').map(escape)], false) ?? '(?!)'})\\.?$`,
    ),
    netPhrase: taxPhrase('excluding'),
    grossPhrase: taxPhrase('including'),
    labelFillers: new Set(all('labelFillers')),
    addresseeCell: new RegExp(`^(?:${words('addresseeCells')}):$`, 'i'),
    addresseeHeading: new RegExp(`^(?:${words('addresseeCells')}):?$`, 'i'),
    carryOver: new RegExp(`\\b(?:${phrases('carryOver')})\\b`),
    tableNote: new RegExp(`^(?:${words('tableNotes')})\\b\\s*:`, 'i'),
    pageRef: new RegExp(`\\b(?:${words('pageWords')})\\s+(\\d+)\\b`, 'i'),
    totalModifiers: new Set(all('totalModifiers')),
    connectors: new Set(all('connectors')),
    deliveryLabel: new RegExp(`^(?:${words('deliveryLabels')})`),
    party: partyWords(packs),
  };
}

/** Date words shorter than this do not open the contact part of a line. */
const MIN_CONTACT_DATE_WORD = 4;

/** Compiles the {@link PartyWords} of a set of packs. */
function partyWords(packs: LocalePack[]): PartyWords {
  const all = (k: keyof LocalePack) => collect(packs, k) as string[];
  const src = (k: keyof LocalePack) => alternation(all(k), false) ?? '(?!)';
  const lit = (k: keyof LocalePack) => alternation(all(k), true) ?? '(?!)';
  const titles = `${src('documentTitles')}|${lit('pageWords')}`;
  // (Date label words of some length: "dt" alone is too short to end an address line.)
  const dateWords = [...packs.flatMap((p) => p.labels?.date ?? []).filter((w) => w.length >= MIN_CONTACT_DATE_WORD), 'date'];
  // Legal forms printed with a closing dot, the dot left off: "Ltd\\.?" → "Ltd".
  const dotted = all('legalForms')
    .filter((f) => /\\\.\??$/.test(f))
    .map((f) => f.replace(/\\\.\??$/, ''));
  return {
    documentTitle: new RegExp(`^(?:(?:${src('documentTitlePrefixes')})\\s+)?(?:(?:${lit('taxWords')})\\s+)?(?:${titles})\\b`, 'i'),
    titleNumber: new RegExp(
      `^\\s*(?:${src('documentTitles')})\\s*(?:${src('titleNumberWords')})?\\s*:?\\s*([A-Z0-9][A-Z0-9\\-/._]*\\d[A-Z0-9\\-/._]*)\\s*$`,
      'i',
    ),
    payWord: new RegExp(`(?<!\\p{L})(?:${src('payWords')})(?!\\p{L})`, 'iu'),
    dueBefore: new RegExp(`\\b(?:${src('dueBefore')})\\s*$`, 'i'),
    partyPrefix: new RegExp(`^(?:${src('partyPrefixes')})\\s*:?\\s+`, 'i'),
    salutation: new RegExp(`^(?:${src('salutations')})(?=\\s|:|$)`, 'i'),
    registration: new RegExp(`\\b(?:${src('registrationMarks')})\\b`, 'i'),
    closing: new RegExp(`^(?:${lit('pageWords')}|${src('closingWords')})\\b`, 'i'),
    bank: new RegExp(`\\b(?:${src('bankWords')})\\b`, 'i'),
    bankLabel: new RegExp(`^\\s*(?:${src('bankWords')})\\b[^:]{0,20}:`, 'i'),
    payee: new RegExp(`\\b(?:${src('payeeLabels')})\\s*:?\\s+(.+)$`, 'i'),
    onBehalfOf: new RegExp(`^(.*?\\p{L}{2}.*?)[\\s,]+(?:${src('onBehalfOf')})\\s+\\S`, 'iu'),
    taxSummary: new RegExp(
      [
        `\\b(?:${lit('taxWords')})\\b.*\\b(?:${lit('summaryWords')})\\b`,
        `\\b(?:${lit('summaryWords')})\\b.*\\b(?:${lit('taxWords')})\\b`,
        `\\b(?:amount|amt|${
          alternation(
            packs.flatMap((p) => p.labels?.amount ?? []),
            true,
          ) ?? 'amount'
        })\\b.*\\b(?:${lit('taxWords')})\\s*\\(`,
        `\\b(?:${lit('taxWords')})\\s*(?:${lit('taxCodeWords')})\\b`,
      ].join('|'),
      'i',
    ),
    discountLine: new RegExp(`\\b(?:${src('discountLines')})\\b`, 'i'),
    depositWord: new RegExp(`\\b(?:${src('depositWords')})\\b`, 'i'),
    rounding: new RegExp(`\\b(?:${src('roundingWords')})\\b`, 'i'),
    amountToPay: new RegExp(`\\b(?:${src('amountToPayWords')})`, 'i'),
    contact: new RegExp(`\\b(?:${src('contactWords')}|${src('registrationLabels')})\\b|@|www\\.`, 'i'),
    // (A date label in another language cuts a line only with its colon: "DATO" may be part of a street name.)
    contactWord: new RegExp(`^(?:${src('contactWords')}|www|http|date)\\b|^(?:${alternation(dateWords, true)})\\s*:|@`, 'i'),
    registrationLabel: new RegExp(`\\b(?:${src('registrationLabels')})\\b`, 'i'),
    receiptBody: new RegExp(`^(?:${src('receiptBodyWords')})\\b`, 'i'),
    houseOpener: new RegExp(`^\\W{0,2}(?:${src('houseNumberWords')}|g-?\\d|\\d)`, 'i'),
    time: new RegExp(`\\b\\d{1,2}:\\d{2}\\b|\\b\\d{3,4}\\s?(?:${lit('clockWords')})\\b`, 'i'),
    legalDot: new RegExp(`\\b(?:${alternation([...dotted, ...all('legalAbbreviations')], false) ?? '(?!)'})\\.$`, 'i'),
  };
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
  return out;
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
