import type { DataType } from '../engine.types.js';
import { parseBoolean } from './boolean.parser.js';
import { CURRENCY_MARK_SOURCE } from '../locales/locale.registry.js';
import { detectCurrency, ISO_CODES } from './currency.parser.js';
import { findDates, type DateOrder } from './date.parser.js';
import { parseNumber } from './number.parser.js';

/** Document-wide conventions inferred once per document and used to resolve ambiguous values. */
export interface DocContext {
  dateOrder: DateOrder;
  decimal?: 'comma' | 'dot';
  currency?: string;
  /** Active locale packs (locales/<id>.json). */
  locales?: readonly string[];
}

export interface ParsedValue {
  value: unknown;
  /** Character offsets of the value inside the text it was found in. */
  index: number;
  length: number;
  /** 0..1: how sure the parser is that this is a value of the type. */
  quality: number;
}

// A number token: optional sign/parens/currency, digits with grouping, optional decimals, optional % or trailing minus.
const NUM_RE = new RegExp(
  String.raw`(\(\s*)?([-−–+]\s?)?((?:${[...ISO_CODES].join('|')}|[$€£¥₹]|${CURRENCY_MARK_SOURCE})\s?)?` +
    /(\d{1,3}(?:[.,'’\u00a0\u202f ]\d{3})+(?:[.,]\d{1,4})?|\d+(?:[.,]\d{1,4}|\. \d{2}(?![\d.,]))?)(?!\d)(\s?(?:[A-Z]{3}\b|[€$£]))?(\s*\))?(-(?!\d))?(\s?%)?/
      .source,
  'g',
);

/** Texts whose numbers are remembered before the memo starts afresh. */
const NUMBERS_CACHE_MAX = 20_000;
// Every amount field, the reconciler and the table reader read the numbers of the same lines again: memoised per text
// and the two conventions they depend on (date order, decimal mark). Callers get their own copies.
const numbersCache = new Map<string, readonly ParsedValue[]>();

/**
 * TeX's euro sign glued before a figure with cents: `eurosym`'s glyph reads as "e", LaTeX's stand-in as "C"
 * ("e4966.12", "C86.25"). The mark stands alone (no letter or digit before it); read as "€" only in a document whose
 * currency is the euro, so "C12.50" stays an identifier elsewhere.
 */
const TEX_EURO_BEFORE = /(?<![\p{L}\d])[eC](?=\d[\d.,\u202f ]*[.,]\d{2}(?!\d))/gu;

export function findNumbers(text: string, ctx?: DocContext): ParsedValue[] {
  if (ctx?.currency === 'EUR') text = text.replace(TEX_EURO_BEFORE, '€');
  const key = `${ctx?.dateOrder ?? 'dmy'}\u0001${ctx?.decimal ?? ''}\u0001${text}`;
  let out = numbersCache.get(key);
  if (!out) {
    if (numbersCache.size >= NUMBERS_CACHE_MAX) numbersCache.clear();
    numbersCache.set(key, (out = scanNumbers(text, ctx)));
  }
  return out.map((n) => ({ ...n }));
}

function scanNumbers(text: string, ctx?: DocContext): ParsedValue[] {
  const out: ParsedValue[] = [];
  // Parts of dates are not amounts ("DUE ON August 3, 2014 $4.11").
  const dates = findDates(text, ctx?.dateOrder ?? 'dmy');
  for (const m of text.normalize('NFKC').matchAll(NUM_RE)) {
    if (dates.some((d) => m.index! < d.index + d.length && d.index < m.index! + m[0].length)) continue;
    if (m[8]) continue; // percentages are rates, not amounts
    const before = text[m.index! - 1];
    const core = m[4]!;
    // A number glued to letters (INV1001, DE361507283) is an identifier, not a quantity.
    if (before && /[\p{L}]/u.test(before) && !m[3]) continue;
    const after = text[m.index! + m[0].length];
    // (A count with its multiplication sign, "13x US$228.87", is a number: the "x" stands alone after it.)
    const times = after === 'x' && !/[\p{L}\d]/u.test(text[m.index! + m[0].length + 1] ?? '');
    if (after && /[\p{L}\d]/u.test(after) && !m[5] && !times) continue;
    // Dates and times look like numbers: skip 12.03.2024, 10:30.
    if (/^\d{1,2}[.,]\d{1,2}$/.test(core) && text[m.index! + m[0].length] === '.') continue;
    if (before === ':' || after === ':' || before === '/' || after === '/') continue;
    // (A sign glued to the digits before it joins two digit groups, "2021-8052": no negative amount.)
    if (m[2] && before && /\d/.test(before)) continue;
    // Digit groups joined by hyphens are codes, phone numbers or ranges ("774-00-01-454"), not amounts.
    if (
      (after === '-' && /\d/.test(text[m.index! + m[0].length + 1] ?? '')) ||
      (before === '-' && !m[2] && /\d/.test(text[m.index! - 2] ?? ''))
    )
      continue;
    let raw = m[0].replace(/%$/, '');
    if (m[1] && !m[6]) raw = raw.replace(/^\(/, '');
    const v = parseNumber(raw, ctx?.decimal);
    if (v === undefined) continue;
    const hasDecimals = /[.,]\d{1,2}$/.test(core);
    out.push({ value: v, index: m.index!, length: m[0].length, quality: hasDecimals || m[3] || m[5] ? 1 : 0.8 });
  }
  return out;
}

/** Parser quality of an amount whose currency is the document's (printed elsewhere on the page). */
const DOCUMENT_CURRENCY_QUALITY = 0.8;
/** Parser quality of an amount with no currency printed anywhere on the document. */
const NO_CURRENCY_QUALITY = 0.7;

export function findTyped(text: string, type: DataType, ctx: DocContext): ParsedValue[] {
  switch (type) {
    case 'date':
      return findDates(text, ctx.dateOrder).map((d) => ({ value: d.iso, index: d.index, length: d.length, quality: 1 }));
    case 'number':
      return findNumbers(text, ctx);
    case 'currency':
      return findNumbers(text, ctx).map((n) => {
        const local = detectCurrency(text.slice(Math.max(0, n.index - 4), n.index + n.length + 4));
        // An amount whose currency is printed nowhere keeps its value with no currency: never a guessed code.
        const currency = local ?? ctx.currency ?? null;
        return {
          ...n,
          value: { value: n.value as number, currency },
          quality: local ? 1 : currency ? DOCUMENT_CURRENCY_QUALITY : NO_CURRENCY_QUALITY,
        };
      });
    case 'boolean': {
      const b = parseBoolean(text);
      return b === undefined ? [] : [{ value: b, index: 0, length: text.length, quality: 0.9 }];
    }
    default: {
      const s = cleanString(text);
      return s ? [{ value: s, index: 0, length: text.length, quality: 0.9 }] : [];
    }
  }
}

/** Trims label punctuation (`:`, `-`, `#`) and whitespace around a string value. */
export function cleanString(s: string): string {
  return (
    s
      .replace(/\s+/g, ' ')
      // (A sign or a decimal point on a figure stays: "-1.2", ".75", also before the figure's currency mark: "-$3.25".)
      .replace(/^(?:[\s:;#,|]|[-–—.](?!\d|\p{Sc}\s?\d))+/u, '')
      .replace(/[\s:;|,]+$/, '')
      .trim()
  );
}
