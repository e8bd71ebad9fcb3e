import { documentKindWords } from '../locales/locale.registry.js';

/**
 * The evidence the document-kind scorer weighs (scores/kind.scorer.ts), one named number each, computed from the
 * engine's text rendering of a document (its Markdown) and the declared media type. Generic only: word evidence comes
 * from the locale packs' `documentKinds` lists, the rest is the shape of the text.
 *
 * | feature | meaning |
 * |---|---|
 * | `<kind>_strong`, `<kind>_weak` | log(1 + number of the packs' strong / typical words of invoices, receipts, forms found) |
 * | `table_lines` | share of non-empty lines that are Markdown table rows |
 * | `tabular_type` | 1 when the declared type is CSV or TSV |
 * | `lines` | log(1 + non-empty lines) |
 * | `line_length` | mean characters per non-empty line, / 40 |
 * | `short_lines` | share of non-empty lines under 25 characters |
 * | `amount_lines` | share of non-empty lines ending in a decimal amount |
 * | `label_lines` | share of non-empty lines holding a "Label:" pair |
 * | `digit_share` | share of digits among the non-space characters |
 * | `blank_marks` | log(1 + blanks and boxes to fill in: runs of underscores or dots, ☐ ☑ ☒) |
 */
export const KIND_FEATURES = [
  'invoice_strong',
  'invoice_weak',
  'receipt_strong',
  'receipt_weak',
  'form_strong',
  'form_weak',
  'table_lines',
  'tabular_type',
  'lines',
  'line_length',
  'short_lines',
  'amount_lines',
  'label_lines',
  'digit_share',
  'blank_marks',
] as const;

/** A line shorter than this (in characters) counts as short (receipt item lines, form captions). */
const SHORT_LINE = 25;
/** Characters per line that `line_length` is divided by. */
const LINE_LENGTH_UNIT = 40;
const TABULAR_TYPES = new Set(['text/csv', 'application/csv', 'application/vnd.ms-excel', 'text/tab-separated-values']);

const KIND_WORDS = documentKindWords();
const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordPattern = (w: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(w)}(?![\\p{L}\\p{N}])`, 'u');
const PATTERNS = Object.entries(KIND_WORDS).map(([kind, v]) => ({
  kind,
  strong: v.strong.map(wordPattern),
  weak: v.weak.map(wordPattern),
}));

/** The feature vector of a document, in {@link KIND_FEATURES} order. */
export function kindFeatures(markdown: string, mimeType = ''): number[] {
  const text = markdown.toLowerCase();
  const words = PATTERNS.flatMap((p) => [p.strong, p.weak].map((list) => Math.log1p(list.filter((re) => re.test(text)).length)));
  const lines = markdown
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const n = Math.max(1, lines.length);
  const share = (test: (l: string) => boolean) => lines.filter(test).length / n;
  const chars = markdown.replace(/\s+/g, '');
  return [
    ...words,
    share((l) => l.startsWith('|')),
    TABULAR_TYPES.has(mimeType.toLowerCase()) ? 1 : 0,
    Math.log1p(lines.length),
    lines.reduce((s, l) => s + l.length, 0) / n / LINE_LENGTH_UNIT,
    share((l) => l.length < SHORT_LINE),
    share((l) => /\d[.,]\d{2}\W{0,3}$/.test(l)),
    share((l) => /^[^:|]{2,40}:\s*\S/.test(l)),
    chars.length ? (chars.match(/\d/g) ?? []).length / chars.length : 0,
    Math.log1p((markdown.match(/_{3,}|\.{5,}|[☐☑☒]/g) ?? []).length),
  ];
}

/** True when a document shows no kind evidence at all: no kind word and no table line. */
export function noKindEvidence(x: readonly number[]): boolean {
  return x.slice(0, 7).every((v) => v === 0) && x[KIND_FEATURES.indexOf('tabular_type')] === 0;
}
