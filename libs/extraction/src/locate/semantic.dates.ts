import { parseDate } from '../parsers/date.parser.js';
import type { DocContext } from '../parsers/value.parser.js';

// The payment and deadline words of the due-date sentence are the locale packs' (`payWords`, `dueBefore`).

/** A figure with two decimals, as prices are printed ("1,204.80", "13,12"). */
const PRICE = /(?<![\d.,])\d{1,3}(?:[.,' ]?\d{3})*[.,]\d{2}(?![\d.,]*\d)/;

/** A dated line that also prints a price is an item's row: its date is the item's, not the document's. */
export function isPricedRow(text: string, date: { index: number; length: number }): boolean {
  return PRICE.test(text.slice(0, date.index) + ' ' + text.slice(date.index + date.length));
}

/** A label concept of at least this weight names a specific kind of value (due date, delivery date …). */
export const SPECIFIC_CONCEPT_WEIGHT = 1;
/** A compact date is trusted less than a printed one. */
export const COMPACT_DATE_CONFIDENCE = 0.35;
/** A compact date's year lies within this many years before the current one (or in the next): older is an id. */
const COMPACT_DATE_YEARS = 30;
/** A standalone run of eight digits read as day, month, year (or month, day, year), when that is a recent date. */
export function compactDate(text: string, order: DocContext['dateOrder']): string | undefined {
  const now = new Date().getUTCFullYear();
  for (const m of text.matchAll(/(?<![\d.,/-])(\d{2})(\d{2})(\d{4})(?![\d.,/-])/g)) {
    const year = +m[3]!;
    if (year < now - COMPACT_DATE_YEARS || year > now + 1) continue;
    const [day, month] = order === 'mdy' ? [m[2]!, m[1]!] : [m[1]!, m[2]!];
    const iso = parseDate(`${day}/${month}/${m[3]}`, 'dmy');
    if (iso) return iso;
  }
  return undefined;
}
/** The deadline word of a due-date sentence is printed within this many characters before the date. */
export const DUE_WORD_REACH = 24;
