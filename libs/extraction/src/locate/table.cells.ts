/**
 * Cell fixes of line-item rows that the columns alone cannot make: a count and its price printed in one cell
 * ("13x US$228.87"), and the row's ordinal printed in front of its description ("1 Garden hose").
 */
import { findTyped, type DocContext } from '../parsers/value.parser.js';
import { SUM_TOLERANCE } from './constraints.js';

/**
 * A quantity (or unit price) cell that holds two figures while the other cell of the pair is empty prints "count ×
 * price" (a "Qty & Price" column): the first figure is the count, the second the unit price.
 */
export function splitCountTimesPrice(rows: Record<string, string>[], quantity: string, price: string, ctx: DocContext): void {
  for (const r of rows) {
    // (The cell lands under either header of the pair: the other one is then empty.)
    const from = r[price] === undefined ? quantity : r[quantity] === undefined ? price : undefined;
    const cell = from && r[from];
    if (!cell) continue;
    const figures = findTyped(cell, 'number', ctx);
    if (figures.length !== 2) continue;
    const [count, each] = figures as [(typeof figures)[number], (typeof figures)[number]];
    r[quantity] = cell.slice(count.index, count.index + count.length);
    r[price] = cell.slice(each.index);
  }
}

/** Rows of at least this share opening with their ordinal make the ordinals a column of their own. */
const ORDINAL_SHARE = 0.8;
const ORDINAL = /^\s*(\d{1,3})[.)]?\s+(?=\S)/;

/**
 * Descriptions that open with the row's ordinal ("1 Garden hose", "2 Lamp oil", …, counting up) carry a "#"
 * column the header did not set apart: the ordinal is no description text.
 */
export function stripRowOrdinals(rows: Record<string, string>[], description: string): void {
  const ordinals = rows.map((r) => ORDINAL.exec(r[description] ?? '')?.[1]).map((n) => (n === undefined ? undefined : Number(n)));
  const present = ordinals.filter((n): n is number => n !== undefined);
  if (rows.length < 2 || present.length < rows.length * ORDINAL_SHARE) return;
  // (Counting up, one step at a time where consecutive: a quantity printed first would not.)
  const counting = present.every((n, i) => i === 0 || n === present[i - 1]! + 1);
  if (!counting) return;
  for (const r of rows) if (r[description] !== undefined) r[description] = r[description]!.replace(ORDINAL, '');
}

/** A line amount may differ from quantity × unit price by this share (rounded prices), or by SUM_TOLERANCE. */
const PRODUCT_SHARE = 0.01;

/** Whether quantity × unit price gives the line amount. */
export function productHolds(quantity: number, price: number, amount: number): boolean {
  return Math.abs(quantity * price - amount) <= Math.max(SUM_TOLERANCE, Math.abs(amount) * PRODUCT_SHARE);
}

/** "2 x Blueberry muffins @ 3.00": a count and a multiplication sign opening an item's text, a unit price closing it. */
const COUNT_IN_TEXT = /^\s*(\d{1,4}(?:[.,]\d{1,3})?)\s*[x×]\s+(.+?)(?:\s+(?:@|à)\s*(\S.*))?\s*$/iu;

/** The line-item columns a count printed in the description fills. */
export interface CountKeys {
  description: string;
  quantity: string;
  price?: string;
  amount?: string;
}

/**
 * An item's text that opens with its count ("2 x Blueberry muffins @ 3.00") on a row whose quantity cell is empty:
 * the count is the quantity and the figure after "@" the unit price — when count × price gives the row's amount (or
 * no amount or price is printed to check against) — and the description is the words between.
 */
export function splitCountInText(rows: Record<string, string>[], keys: CountKeys, ctx: DocContext): void {
  const num = (s: string | undefined) => (s === undefined ? undefined : (findTyped(s, 'number', ctx)[0]?.value as number | undefined));
  for (const r of rows) {
    const m = r[keys.quantity] === undefined ? COUNT_IN_TEXT.exec(r[keys.description] ?? '') : null;
    if (!m) continue;
    const [count, each, amount] = [num(m[1]), num(m[3]), num(keys.amount && r[keys.amount])];
    if (count === undefined || (m[3] !== undefined && each === undefined)) continue;
    if (each !== undefined && amount !== undefined && !productHolds(count, each, amount)) continue;
    r[keys.quantity] = m[1]!;
    r[keys.description] = m[2]!;
    if (each !== undefined && keys.price && r[keys.price] === undefined) r[keys.price] = m[3]!;
  }
}
