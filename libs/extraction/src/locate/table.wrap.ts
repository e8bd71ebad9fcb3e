/** Whether a table cell's text wraps onto the next line: phrases left open, words that did not fit, a period heading. */
import { allPacksVocabulary } from '../locales/locale.registry.js';
import { findDates } from '../parsers/date.parser.js';
import type { RowBand } from './table.bands.js';

/**
 * A line of dates only ("Apr 1 – Apr 30, 2024", "01.03.2024 – 31.03.2024"): over the first item of a line-item
 * table it is the billing period heading the items, not the start of a description.
 */
export function isPeriodLine(text: string): boolean {
  const t = text.trim();
  const dates = findDates(t);
  if (!dates.length) return false;
  const rest = dates.reduceRight((s, d) => s.slice(0, d.index) + s.slice(d.index + d.length), t);
  // (The range's first end may omit the year: "Apr 1 –", "01.03. –".)
  const months = allPacksVocabulary().months;
  return (rest.toLowerCase().match(/[\p{L}\d]+/gu) ?? []).every((w) => months.has(w) || /^\d{1,2}$/.test(w));
}

/** Words that leave a phrase open (the locale packs' `connectors`, every pack: rows are judged without their document). */
const CONNECTORS = allPacksVocabulary().connectors;

/** Whether `next` reads as the continuation of `prev` (same cell wrapped): it opens in lower case or closes a bracket, or `prev` breaks off mid-phrase. */
export function continuesText(prev: string, next: string): boolean {
  const p = prev.trim();
  const n = next.trim();
  if (!p || !n) return false;
  if (/^[\p{Ll}]/u.test(n) && !/^\p{Ll}[.)]\s/u.test(n)) return true;
  if (/^[)\]]/.test(n) || (/^\(/.test(n) && !/^\(\w\)/.test(n))) return true;
  if (/[,;&/(\-–]$/.test(p)) return true;
  const last = p.split(/\s+/).pop()!.toLowerCase();
  return CONNECTORS.has(last);
}

/** A word space in line heights: the room a word needs besides its own width after the last word of a line. */
const WORD_SPACE = 0.25;
/** Slack in line heights for a wrapped line starting left of the line it continues (hanging text starts at or right of it). */
const WRAP_ALIGN = 0.5;

/**
 * Whether the text of column `k` in `next` continues the one in `prev` because it did not fit: `prev` holds
 * several words, `next` opens with a word that, after a word space, would run past the column's right edge
 * `right`; and it starts no further left than `prev`.
 */
export function breakForced(prev: RowBand, next: RowBand, k: string, right: number, lh: number): boolean {
  const p = prev.geom?.[k];
  const n = next.geom?.[k];
  if (!p || !n || !Number.isFinite(right)) return false;
  // Text wrapped at a word boundary: a line of words before, words after (not a footnote mark or a figure).
  if (!/\s/.test((prev.cells[k] ?? '').trim()) || !/^[\p{L}(]/u.test((next.cells[k] ?? '').trim())) return false;
  return p.x1 + lh * WORD_SPACE + n.firstW > right && n.x0 >= p.x0 - lh * WRAP_ALIGN;
}
