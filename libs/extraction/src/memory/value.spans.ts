import type { DataType } from '../engine.types.js';
import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { findDates } from '../parsers/date.parser.js';
import { findNumbers, type DocContext } from '../parsers/value.parser.js';

/** Where a value is printed: words [from, to) of a line, continued over `more` whole lines below it. */
export interface ValueSpan {
  page: Page;
  line: number;
  from: number;
  to: number;
  more: Line[];
}

/** Most words one printed number or date spans ("EUR 1 234,50", "3 March 2024"). */
const MAX_TYPED_WORDS = 4;
/** Most lines one string value spans (an address block). */
export const MAX_VALUE_LINES = 4;
/** Two amounts within this are the same printed amount. */
const SAME_AMOUNT = 0.005;
/** Characters of a span a parsed number or date may leave unread (a currency sign, a colon). */
const SPAN_SLACK = 4;

export const wordsText = (ws: readonly Word[]) => ws.map((w) => w.text).join(' ');
/** Letters and digits only, lower-case: how printed text is compared. */
export const squash = (s: string) =>
  s
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');

/** Every place the value of a field of type `type` is printed on the document. */
export function valueSpans(doc: DocLayout, type: DataType, value: unknown, ctx: DocContext): ValueSpan[] {
  if (value === null || value === undefined || type === 'table' || type === 'boolean') return [];
  const out: ValueSpan[] = [];
  for (const page of doc.pages)
    page.lines.forEach((line, i) => {
      for (let from = 0; from < line.words.length; from++) {
        const span = type === 'string' ? stringSpan(page, i, from, String(value)) : typedSpan(line, from, type, value, ctx);
        if (span) out.push({ page, line: i, from, ...span });
      }
    });
  return out;
}

function typedSpan(line: Line, from: number, type: DataType, value: unknown, ctx: DocContext): { to: number; more: Line[] } | undefined {
  const wanted = type === 'currency' && typeof value === 'object' ? (value as { value?: unknown }).value : value;
  for (let to = from + 1; to <= Math.min(line.words.length, from + MAX_TYPED_WORDS); to++) {
    const text = wordsText(line.words.slice(from, to));
    const hit =
      type === 'date'
        ? findDates(text, ctx.dateOrder).some((d) => d.iso === wanted && d.length >= text.length - SPAN_SLACK)
        : typeof wanted === 'number' &&
          findNumbers(text, ctx).some((n) => Math.abs((n.value as number) - wanted) < SAME_AMOUNT && n.length >= text.length - SPAN_SLACK);
    if (hit) return { to, more: [] };
  }
  return undefined;
}

function stringSpan(page: Page, i: number, from: number, value: string): { to: number; more: Line[] } | undefined {
  const target = squash(value);
  const words = page.lines[i]!.words;
  if (!target || !target.startsWith(squash(words[from]!.text))) return undefined;
  let got = '';
  for (let to = from + 1; to <= words.length; to++) {
    got += squash(words[to - 1]!.text);
    if (got === target) return { to, more: [] };
    if (!target.startsWith(got)) return undefined;
  }
  // The value goes on over the next lines (an address printed as a block).
  const more: Line[] = [];
  for (let j = i + 1; j < page.lines.length && more.length < MAX_VALUE_LINES - 1; j++) {
    const next = page.lines[j]!;
    got += squash(next.text);
    if (!target.startsWith(got)) return undefined;
    more.push(next);
    if (got === target) return { to: words.length, more };
  }
  return undefined;
}

/** The words of a span, its continuation lines included. */
export function spanWords(s: ValueSpan): Word[] {
  return [...s.page.lines[s.line]!.words.slice(s.from, s.to), ...s.more.flatMap((l) => l.words)];
}
