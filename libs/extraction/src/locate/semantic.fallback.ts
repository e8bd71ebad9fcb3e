import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { findDates } from '../parsers/date.parser.js';
import { findNumbers, type DocContext } from '../parsers/value.parser.js';
import { conceptTokens, weightOf } from './label.matcher.js';
import type { Located } from './field.locator.js';

/**
 * Fallbacks when no label is printed, chosen by what the field means (its key, label and description
 * reduced to concepts) and its data type — never by document or vendor. Confidence stays low so that
 * such values push the document towards review.
 */
export function locateBySemantics(doc: DocLayout, f: FieldDef, ctx: DocContext, used: Set<string>): Located | undefined {
  const concepts = new Set(conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`));
  const desc = (f.description ?? '').toLowerCase();
  const lines = doc.pages.flatMap((p) => p.lines);
  if (!lines.length) return undefined;
  const at = (l: Line, ws: Word[], value: unknown, confidence: number): Located => ({
    value,
    confidence,
    page: l.page,
    bbox: [Math.min(...ws.map((w) => w.x0)), Math.min(...ws.map((w) => w.y0)), Math.max(...ws.map((w) => w.x1)), Math.max(...ws.map((w) => w.y1))],
    slot: '',
  });

  // IBAN: its check-digit format is unambiguous wherever it is printed.
  if (concepts.has('iban')) {
    for (const l of lines) {
      const m = l.text.replace(/IBAN:?/i, ' ').match(/\b([A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,3})?)\b/);
      if (m) return at(l, l.words, m[1]!.replace(/\s+/g, ' ').trim(), 0.6);
    }
  }
  // A currency code field: the document's dominant currency.
  if (concepts.has('currency') && f.data_type === 'string' && ctx.currency) {
    return at(lines[0]!, lines[0]!.words.slice(0, 1), ctx.currency, 0.6);
  }
  // Generic date ("Date", "Invoice date"): the first date printed, unless the label names a specific
  // kind of date (due, delivery, birth …) that a first-date guess would get wrong.
  if (f.data_type === 'date') {
    const specific = [...concepts].some((c) => weightOf(c) >= 1);
    if (!specific) {
      for (const l of lines) {
        const d = findDates(l.text, ctx.dateOrder)[0];
        if (d) return at(l, l.words, d.iso, 0.5);
      }
    }
  }
  // Issuer name: the first prominent line at the top of the first page.
  if (f.data_type === 'string' && (concepts.has('seller') || concepts.has('company') || /issu|merchant|shop|vendor|seller/.test(desc))) {
    const page = doc.pages[0]!;
    const top = page.lines.filter((l) => l.y0 < page.height * 0.35 && /\p{L}{3}/u.test(l.text));
    const heights = page.lines.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
    const median = heights[Math.floor(heights.length / 2)] ?? 1;
    const big = top.find((l) => l.y1 - l.y0 > median * 1.3 && !findDates(l.text).length);
    const l = big ?? top.find((x) => !/invoice|receipt|rechnung|facture|tax|page/i.test(x.text));
    if (l) return at(l, l.words, l.text.trim(), 0.4);
  }
  // Grand total without a readable label: the largest amount on the document.
  if ((f.data_type === 'number' || f.data_type === 'currency') && concepts.has('total') && !concepts.has('net') && !concepts.has('tax')) {
    let best: { l: Line; v: number } | undefined;
    for (const l of lines) for (const n of findNumbers(l.text, ctx)) if (n.quality === 1 && (!best || Math.abs(n.value as number) > Math.abs(best.v))) best = { l, v: n.value as number };
    if (best) return at(best.l, best.l.words, f.data_type === 'currency' ? { value: best.v, currency: ctx.currency ?? 'USD' } : best.v, 0.4);
  }
  void used;
  return undefined;
}
