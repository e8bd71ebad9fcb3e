import type { ExtractionEngine, ExtractionInput, ExtractionOptions, ExtractionOutput, ExtractionSchema } from '../engine.types.js';
import { scoreDocumentKind } from '../scores/kind.scorer.js';

/** The kinds the `auto` template tells apart (the same list as `DOCUMENT_KINDS` in @docket/contracts). */
export type AutoDocumentKind = 'invoice' | 'receipt' | 'form' | 'table_document' | 'other';

export interface KindChoice {
  kind: AutoDocumentKind;
  /** 0..1: the kind scorer's probability of the chosen kind. */
  confidence: number;
}

/**
 * Classifies a document from its text (the engine's Markdown rendering) and declared type: the learned kind scorer
 * (scores/kind.scorer.ts) weighs every piece of evidence together, so no single title word ("Tax invoice" on a till
 * receipt) decides the kind.
 */
export function classifyDocument(markdown: string, mimeType = ''): KindChoice {
  const { kind, confidence } = scoreDocumentKind(markdown, mimeType);
  return { kind, confidence };
}

/**
 * The `auto` template: extract with the invoice fields (the commonest kind) and classify the document from
 * that reading's text; a document of another kind is extracted again with its own fields (a second read).
 * The result carries `document_type` (`resultKey`) first, with the classification's confidence in `fields`. A document
 * that declares its kind (an e-invoice read from its XML) is that kind.
 */
export async function extractAuto(
  engine: Pick<ExtractionEngine, 'extract'>,
  input: ExtractionInput,
  schemas: Readonly<Record<AutoDocumentKind, ExtractionSchema>>,
  opts: ExtractionOptions = {},
  resultKey = 'document_type',
): Promise<ExtractionOutput & { kind: AutoDocumentKind }> {
  const first = await engine.extract(input, schemas.invoice, opts);
  // (An e-invoice's data says what it is: no guess from its text.)
  const choice: KindChoice = first.documentKind
    ? { kind: first.documentKind, confidence: 1 }
    : classifyDocument(first.markdown, input.mimeType);
  const output = choice.kind === 'invoice' ? first : await engine.extract(input, schemas[choice.kind], opts);
  return {
    ...output,
    kind: choice.kind,
    result: { [resultKey]: choice.kind, ...output.result },
    fields: { [resultKey]: { confidence: choice.confidence, errors: [] }, ...output.fields },
  };
}
