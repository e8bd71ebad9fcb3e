import { collect, LOCALE_PACKS, type LocalePack } from './locale.pack.js';

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
  /** Words between a date's parts ("de") as one alternation (`(?!)` when none). */
  dateJoinerPattern: string;
  /** Year, month and day unit marks, each position as one alternation (`(?!)` when none). */
  dateUnitPatterns: [string, string, string];
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
  /** A due-date label word ("due", "scadenza", "echeance") ending the folded text before a date. */
  dueLabel: RegExp;
  /** A due-date label word anywhere in folded text ("Der Betrag ist bis zum 20.07.2031 fällig"). */
  dueWord: RegExp;
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

export function alternation(list: string[], literal: boolean): string | undefined {
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

/** The vocabulary of a set of active packs, compiled once per set. */
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
    ...dateAndFigureWords(packs),
    ...labelAndTableWords(packs),
  };
  cache.set(key, v);
  return v;
}

/** The word lists of dates and of the text around figures, compiled for `vocabularyFor`. */
function dateAndFigureWords(
  packs: LocalePack[],
): Pick<
  Vocabulary,
  | 'months'
  | 'monthPattern'
  | 'ordinalPattern'
  | 'dateJoinerPattern'
  | 'dateUnitPatterns'
  | 'textWords'
  | 'yearWord'
  | 'phoneWord'
  | 'lawReference'
  | 'postcodePrefix'
  | 'postcode'
  | 'itemCodeLabel'
  | 'legalFormOnly'
> {
  const all = <K extends keyof LocalePack>(k: K) => collect(packs, k);
  const words = (k: keyof LocalePack) => alternation(all(k) as string[], true) ?? '(?!)';
  const sources = (k: keyof LocalePack) => alternation(all(k) as string[], false) ?? '(?!)';
  const months = new Map<string, number>();
  for (const p of packs) p.months?.forEach((names, i) => names.forEach((n) => months.has(n) || months.set(n, i + 1)));
  const textWords = (monthFirst: boolean) =>
    new Set(packs.filter((p) => (p.textDateOrder === 'mdy') === monthFirst).flatMap((p) => p.textWords ?? []));
  return {
    months,
    monthPattern: alternation([...months.keys()], true) ?? '(?!)',
    ordinalPattern: alternation(all('ordinals'), true) ?? '',
    dateJoinerPattern: words('dateJoiners'),
    dateUnitPatterns: [0, 1, 2].map(
      (i) =>
        alternation(
          all('dateUnits').map((u) => u[i]!),
          true,
        ) ?? '(?!)',
    ) as [string, string, string],
    textWords: { monthFirst: textWords(true), other: textWords(false) },
    yearWord: new RegExp(`(?:©|\\(c\\)|\\b(?:${words('yearWords')})\\b)\\W*$`, 'iu'),
    phoneWord: new RegExp(`\\b(?:${words('phoneWords')})\\b\\.?\\W*$`, 'iu'),
    lawReference: new RegExp(`(?:§|\\b(?:${words('lawReferences')})\\b)\\.?\\s*$`, 'iu'),
    postcodePrefix: new RegExp(`\\b(?:${words('postcodePrefixes')})-$`),
    postcode: packs.some((p) => p.postcodes?.length) ? new RegExp(packs.flatMap((p) => p.postcodes ?? []).join('|'), 'u') : NEVER,
    itemCodeLabel: new RegExp(`^(?:${sources('itemCodeLabels')})(?=[\\s:#.]|$)`, 'iu'),
    legalFormOnly: new RegExp(`^(?:&\\s*)?(?:${alternation(all('legalForms').map(loosen), false) ?? '(?!)'})$`, 'iu'),
  };
}

/** The word lists of labels and tables (phrases, tax words, addressee and note cells, party words), compiled for `vocabularyFor`. */
function labelAndTableWords(
  packs: LocalePack[],
): Pick<
  Vocabulary,
  | 'phrases'
  | 'phraseHead'
  | 'netPhrase'
  | 'grossPhrase'
  | 'labelFillers'
  | 'addresseeCell'
  | 'addresseeHeading'
  | 'carryOver'
  | 'tableNote'
  | 'pageRef'
  | 'totalModifiers'
  | 'connectors'
  | 'deliveryLabel'
  | 'party'
> {
  const all = <K extends keyof LocalePack>(k: K) => collect(packs, k);
  const words = (k: keyof LocalePack) => alternation(all(k) as string[], true) ?? '(?!)';
  /** Literal phrases: a space matches any run of spaces. */
  const phrases = (k: keyof LocalePack) => words(k).replace(/ /g, '\\s+');
  const taxPhrase = (k: 'excluding' | 'including') =>
    new RegExp(`\\b(?:${words(k)})\\.?\\s+(?:(?:${words('taxLinks')})\\s+)?(?:${words('taxWords')})\\b`, 'g');
  return {
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
    dueLabel: new RegExp(`(?<!\\p{L})(?:${alternation(['due', ...packs.flatMap((p) => p.labels?.due ?? [])], true)})\\s*:?\\s*$`, 'iu'),
    dueWord: new RegExp(`(?<!\\p{L})(?:${alternation(['due', ...packs.flatMap((p) => p.labels?.due ?? [])], true)})(?!\\p{L})`, 'iu'),
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
