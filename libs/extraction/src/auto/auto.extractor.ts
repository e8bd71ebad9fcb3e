import type { ExtractionEngine, ExtractionInput, ExtractionOptions, ExtractionOutput, ExtractionSchema } from '../engine.types.js';
import { documentKindWords } from '../locales/locale.registry.js';

/** Kind words of every locale pack (`documentKinds`): data, not rules. */
const KIND_VOCABULARY = documentKindWords();

/** The kinds the `auto` template tells apart (the same list as `DOCUMENT_KINDS` in @docket/contracts). */
export type AutoDocumentKind = 'invoice' | 'receipt' | 'form' | 'table_document' | 'other';

export interface KindChoice {
  kind: AutoDocumentKind;
  /** 0..1: how clearly the winning kind's words outnumber the runner-up's. */
  confidence: number;
}

/** A strong word (the kind's own name) counts this much; a typical word counts 1. */
const STRONG_WEIGHT = 3;
/** Below this score no word-based kind is chosen. */
const MIN_KIND_SCORE = 3;
/** A document whose non-empty lines are at least this share table rows is a table document. */
const TABLE_LINE_SHARE = 0.5;
const TABLE_MIME_TYPES = new Set(['text/csv', 'application/vnd.ms-excel', 'text/tab-separated-values']);

const escape = (w: string) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordPattern = (w: string) => new RegExp(`(?<![\\p{L}\\p{N}])${escape(w)}(?![\\p{L}\\p{N}])`, 'u');
const PATTERNS = Object.fromEntries(
  Object.entries(KIND_VOCABULARY).map(([kind, v]) => [kind, { strong: v.strong.map(wordPattern), weak: v.weak.map(wordPattern) }]),
) as Record<keyof typeof KIND_VOCABULARY, { strong: RegExp[]; weak: RegExp[] }>;

/** Classifies a document from its text (the engine's Markdown rendering) and declared type. */
export function classifyDocument(markdown: string, mimeType = ''): KindChoice {
  const text = markdown.toLowerCase();
  const scores = (Object.keys(PATTERNS) as (keyof typeof PATTERNS)[])
    .map((kind) => ({
      kind,
      score: PATTERNS[kind].strong.filter((p) => p.test(text)).length * STRONG_WEIGHT + PATTERNS[kind].weak.filter((p) => p.test(text)).length,
    }))
    .sort((a, b) => b.score - a.score);
  const [best, next] = scores;
  if (best.score >= MIN_KIND_SCORE && best.score > next.score) {
    return { kind: best.kind, confidence: round(best.score / (best.score + next.score + 1)) };
  }
  if (TABLE_MIME_TYPES.has(mimeType.toLowerCase()) || tableShare(markdown) >= TABLE_LINE_SHARE) return { kind: 'table_document', confidence: 0.9 };
  return { kind: 'other', confidence: round(best.score ? 0.5 : 0.8) };
}

function tableShare(markdown: string): number {
  const lines = markdown.split('\n').map((l) => l.trim()).filter(Boolean);
  if (!lines.length) return 0;
  return lines.filter((l) => l.startsWith('|')).length / lines.length;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * The `auto` template: extract with the invoice fields (the commonest kind) and classify the document from
 * that reading's text; a document of another kind is extracted again with its own fields (a second read).
 * The result carries `document_type` (`resultKey`) first, with the classification's confidence in `fields`.
 */
export async function extractAuto(
  engine: Pick<ExtractionEngine, 'extract'>,
  input: ExtractionInput,
  schemas: Readonly<Record<AutoDocumentKind, ExtractionSchema>>,
  opts: ExtractionOptions = {},
  resultKey = 'document_type',
): Promise<ExtractionOutput & { kind: AutoDocumentKind }> {
  const first = await engine.extract(input, schemas.invoice, opts);
  const choice = classifyDocument(first.markdown, input.mimeType);
  const output = choice.kind === 'invoice' ? first : await engine.extract(input, schemas[choice.kind], opts);
  return {
    ...output,
    kind: choice.kind,
    result: { [resultKey]: choice.kind, ...output.result },
    fields: { [resultKey]: { confidence: choice.confidence, errors: [] }, ...output.fields },
  };
}
