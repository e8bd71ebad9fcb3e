import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { box } from '../locate/field.locator.js';
import { findDates } from '../parsers/date.parser.js';
import { findNumbers, type DocContext } from '../parsers/value.parser.js';

/** Where a value is printed: its page and the box of the words it was read from. */
export interface PagePlace {
  page: number;
  bbox: [number, number, number, number];
}

/** How a value is looked for on the page. */
export type MatchKind = 'amount' | 'date' | 'text';

/** Two amounts within this are the same printed amount (a cent's rounding); the sign is not compared (credit notes). */
const SAME_AMOUNT = 0.005;
/** Text shorter than this (squashed) is not looked for: "1" or "EA" would be found everywhere. */
const MIN_TEXT = 3;

/** Lower-case letters and digits only: spacing, punctuation and case differ between the XML and the print. */
export function squash(s: string): string {
  return s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A line's words joined by single spaces, with each word's start offset. */
function spaced(ws: readonly Word[]): { text: string; starts: number[] } {
  const starts: number[] = [];
  let text = '';
  for (const w of ws) {
    if (text) text += ' ';
    starts.push(text.length);
    text += w.text;
  }
  return { text, starts };
}

/** The words of `ws` that overlap characters [index, index + length) of their spaced text. */
function wordsAt(ws: readonly Word[], starts: number[], index: number, length: number): Word[] {
  return ws.filter((w, i) => starts[i]! < index + length && starts[i]! + w.text.length > index);
}

/** Places of an amount or date on one line, as the value parsers read the line. */
function parsedOn(line: Line, kind: 'amount' | 'date', value: number | string, ctx: DocContext): Word[][] {
  const { text, starts } = spaced(line.words);
  const hits =
    kind === 'amount'
      ? findNumbers(text, ctx).filter(
          (n) => typeof n.value === 'number' && Math.abs(Math.abs(n.value) - Math.abs(value as number)) < SAME_AMOUNT,
        )
      : findDates(text, ctx.dateOrder).filter((d) => d.iso === value);
  return hits.map((h) => wordsAt(line.words, starts, h.index, h.length)).filter((ws) => ws.length > 0);
}

/** Places of a text on one line: the squashed value inside the squashed line, words mapped back. */
function textOn(line: Line, value: string): Word[][] {
  const needle = squash(value);
  if (needle.length < MIN_TEXT) return [];
  const parts = line.words.map((w) => squash(w.text));
  const hay = parts.join('');
  const out: Word[][] = [];
  for (let at = hay.indexOf(needle); at >= 0; at = hay.indexOf(needle, at + 1)) {
    const ws: Word[] = [];
    let pos = 0;
    for (const [i, p] of parts.entries()) {
      if (pos < at + needle.length && pos + p.length > at) ws.push(line.words[i]!);
      pos += p.length;
    }
    if (ws.length) out.push(ws);
  }
  return out;
}

/**
 * Where `value` is printed: amounts as the number parser reads them (any grouping or decimal mark, either sign), dates
 * in any printed form the date parser knows, text ignoring spacing, punctuation and case (a multi-line XML name by its
 * first line). Amounts take the last printing (totals follow the lines they sum), everything else the first.
 */
export function findOnPage(doc: DocLayout, ctx: DocContext, kind: MatchKind, value: number | string): PagePlace | undefined {
  const text = kind === 'text' ? String(value).split(/\r?\n/)[0]!.trim() : '';
  let found: PagePlace | undefined;
  for (const p of doc.pages)
    for (const line of p.lines) {
      const hits = kind === 'text' ? textOn(line, text) : parsedOn(line, kind, value, ctx);
      if (!hits.length) continue;
      const ws = kind === 'amount' ? hits[hits.length - 1]! : hits[0]!;
      found = { page: line.page, bbox: box(ws).map(round) as PagePlace['bbox'] };
      if (kind !== 'amount') return found;
    }
  return found;
}

/** The box around several places on the first page among them (a table's rows). */
export function unionOnFirstPage(places: (PagePlace | undefined)[]): PagePlace | undefined {
  const known = places.filter((p): p is PagePlace => p !== undefined);
  if (!known.length) return undefined;
  const page = Math.min(...known.map((p) => p.page));
  const on = known.filter((p) => p.page === page).map((p) => p.bbox);
  return {
    page,
    bbox: [
      Math.min(...on.map((b) => b[0])),
      Math.min(...on.map((b) => b[1])),
      Math.max(...on.map((b) => b[2])),
      Math.max(...on.map((b) => b[3])),
    ],
  };
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
