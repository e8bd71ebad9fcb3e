import type { Word } from '../layout/layout.types.js';
import { CELL_GAP } from '../layout/layout.builder.js';
import { fold } from './label.matcher.js';

/** Word-level text helpers shared by the form locator's label, mark and value stages. */

/** Letters and digits only, folded: how printed labels are compared. */
// Every label is compared with every word span of every line: memoise the per-word reduction.
const compactCache = new Map<string, string>();
export function compact(s: string): string {
  let c = compactCache.get(s);
  if (c === undefined) {
    if (compactCache.size > 50_000) compactCache.clear();
    c = fold(s).replace(/[^\p{L}\p{N}]/gu, '');
    compactCache.set(s, c);
  }
  return c;
}

/** Words cached by a memoised per-word function before it starts afresh. */
export const WORD_CACHE_MAX = 50_000;
/** A per-word string function, memoised: every label of the schema is compared with every word span of a page. */
export function memoised<T>(fn: (s: string) => T): (s: string) => T {
  // (Boxed, so that one lookup tells a cached `undefined` from a miss.)
  const cache = new Map<string, { v: T }>();
  return (s) => {
    let hit = cache.get(s);
    if (!hit) {
      if (cache.size >= WORD_CACHE_MAX) cache.clear();
      cache.set(s, (hit = { v: fn(s) }));
    }
    return hit.v;
  };
}

/** A word's letter height (at least 1). */
export const heightOf = (w: Word) => Math.max(1, w.y1 - w.y0);

/** Leader dots, dashes, underscores and other marks between a label and its value. */
export const SEPARATOR = /^[^\p{L}\d]+$/u;
/** A word that ends with a colon is a printed label of its own ("Date:", "No.:"), not part of a value. */
export const LABEL_LIKE = /\p{L}{2,}\.?[:?]$/u;

/**
 * The printed label runs on past the schema's label to a colon of its own ("Total Qty:" for "Total", "Date Received:"
 * for "Date"): the word right after the label (no leader between), in the label's cell, ends in a colon and a value
 * follows. That longer label asks another question, so nothing right of it answers this one.
 */
export function runsOnToColon(label: Word, row: readonly Word[], h: number): boolean {
  const next = row[0];
  return !!next && row.length > 1 && !/[:?]$/.test(label.text) && LABEL_LIKE.test(next.text) && next.x0 - label.x1 <= h * CELL_GAP;
}
