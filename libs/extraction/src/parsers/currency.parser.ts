import { CURRENCY_MARK_SOURCE, CURRENCY_MARKS } from '../locales/locale.registry.js';
import { parseNumber } from './number.parser.js';

/**
 * Symbol → ISO 4217. Ambiguous `$` maps to USD unless a more specific prefix is printed (C$, A$, …). Marks printed in
 * letters (`RM`, `zł`, `Kč` …) are the locale packs' `currencyMarks`, tried before the bare `$`.
 */
const SYMBOLS: readonly (readonly [RegExp, string])[] = [
  [/US\$|U\.S\.\$/i, 'USD'],
  [/C\$|CA\$/i, 'CAD'],
  [/A\$|AU\$/i, 'AUD'],
  [/NZ\$/i, 'NZD'],
  [/S\$/i, 'SGD'],
  [/HK\$/i, 'HKD'],
  [/R\$/, 'BRL'],
  [/€/, 'EUR'],
  [/£/, 'GBP'],
  [/₹|\bINR\b/, 'INR'],
  [/¥|円/, 'JPY'],
  [/₽/, 'RUB'],
  [/₩/, 'KRW'],
  [/₺/, 'TRY'],
  [/\bCHF\b/, 'CHF'],
  ...CURRENCY_MARKS,
  [/\$/, 'USD'],
];

export const ISO_CODES = new Set(
  'USD EUR GBP JPY CHF CAD AUD NZD CNY HKD SGD INR MYR SEK NOK DKK PLN CZK HUF RON BGN RUB TRY BRL MXN ZAR KRW THB IDR PHP VND AED SAR ILS TWD'.split(
    ' ',
  ),
);

/** A word that is only a currency mark: an ISO code, a symbol, a pack's letter mark ("Fr.", "RM"), "US$". */
const MARK_ONLY = new RegExp(`^(?:[A-Z]{0,3}[$€£¥₹₽₩₺]|${CURRENCY_MARK_SOURCE})$`, 'u');
export function isCurrencyMark(word: string): boolean {
  return ISO_CODES.has(word) || MARK_ONLY.test(word);
}

const MARK_SOURCE = `(?:[A-Z]{3}|[A-Z]{0,3}[$€£¥₹₽₩₺]|${CURRENCY_MARK_SOURCE})`;
const LEADING_MARK = new RegExp(`^${MARK_SOURCE}\\s?(?=[-+(]?\\d)`, 'u');
const TRAILING_MARK = new RegExp(`(?<=\\d\\)?)\\s?${MARK_SOURCE}$`, 'u');
/** A figure without the currency mark printed on it: "€1,467.44" → "1,467.44", "12,50€" → "12,50", "Fr.2.56" → "2.56". */
export function withoutCurrencyMark(word: string): string {
  return word.replace(LEADING_MARK, '').replace(TRAILING_MARK, '');
}

/** A word of three capitals: an ISO 4217 code when `ISO_CODES` has it. */
const CODE_WORD = /\b[A-Z]{3}\b/g;

/** The ISO 4217 codes a text prints as words, in order ("EURO (EUR)" → ["EUR"]). */
export function isoCodesIn(text: string): string[] {
  return [...text.matchAll(CODE_WORD)].map((m) => m[0]).filter((c) => ISO_CODES.has(c));
}

/** The text without the ISO 4217 codes it prints as words ("632.00 EUR" → "632.00 "). */
export function withoutIsoCodes(text: string): string {
  return text.replace(CODE_WORD, (c) => (ISO_CODES.has(c) ? '' : c));
}

/** Finds the currency named in a piece of text: an ISO code first (explicit), then a symbol. */
export function detectCurrency(text: string): string | undefined {
  const code = isoCodesIn(text)[0];
  if (code) return code;
  for (const [re, code] of SYMBOLS) if (re.test(text)) return code;
  return undefined;
}

export interface CurrencyValue {
  value: number;
  currency: string;
}

/** Parses `$1,234.50`, `1.234,50 €`, `EUR 12`, `-14,73`, `(12.50)`; `fallback` is the document currency. */
export function parseCurrency(raw: string, fallback?: string): CurrencyValue | undefined {
  const value = parseNumber(raw);
  if (value === undefined) return undefined;
  const currency = detectCurrency(raw) ?? fallback;
  if (!currency) return undefined;
  return { value, currency };
}
