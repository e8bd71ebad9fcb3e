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
  /**
   * Month names and abbreviations, lower case: twelve lists, January first. A name languages give different months
   * ("listopad": November in Czech and Polish, October in Croatian) is listed only by the packs of the majority.
   */
  months?: string[][];
  /** Suffixes printed after a day number ("15th", "1er"). */
  ordinals?: string[];
  /** Words printed between a date's day, month name and year ("5 de marzo de 2024"), lower case. */
  dateJoiners?: string[];
  /**
   * The unit marks printed after a date's year, month and day in that order ("2024年3月5日"): one triple per
   * writing convention.
   */
  dateUnits?: [string, string, string][];
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

/** One list key of several packs, concatenated in pack order. */
export function collect<K extends keyof LocalePack>(packs: readonly LocalePack[], k: K): NonNullable<LocalePack[K]> {
  return packs.flatMap((p) => (p[k] as unknown[] | undefined) ?? []) as NonNullable<LocalePack[K]>;
}
