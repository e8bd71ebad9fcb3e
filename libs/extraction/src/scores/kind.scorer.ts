import { createRequire } from 'node:module';
import { KIND_FEATURES, kindFeatures, noKindEvidence } from '../features/document.kind.features.js';
import { predictSoftmax, type SoftmaxModel } from './softmax.model.js';

/** The document kinds the scorer tells apart; `other` is the answer when no kind is evidenced. */
export type ScoredKind = 'invoice' | 'receipt' | 'form' | 'table_document';

/** The fitted model (`npm run train` writes it from the tune split of the development sets; see its `training`). */
const MODEL = createRequire(import.meta.url)('./weights/document-kind.json') as SoftmaxModel;

/** Below this probability the best kind is not chosen: the document is `other`. */
export const MIN_KIND_PROBABILITY = 0.5;
/** Confidence of `other` for a document without a single kind word or table line. */
const NO_EVIDENCE_CONFIDENCE = 0.8;
/** Confidence of a table document known by its declared type (CSV, TSV). */
const TABULAR_TYPE_CONFIDENCE = 0.9;

export interface ScoredKindChoice {
  kind: ScoredKind | 'other';
  /** The scorer's probability of the chosen kind (for `other`, of it not being the best kind). */
  confidence: number;
  /** Every kind's probability, in the model's class order. */
  probabilities: Record<string, number>;
}

/** The kind of a document from the evidence in its text rendering, scored by the fitted model. */
export function scoreDocumentKind(markdown: string, mimeType = ''): ScoredKindChoice {
  const x = kindFeatures(markdown, mimeType);
  const p = predictSoftmax(MODEL, x);
  const probabilities = Object.fromEntries(MODEL.classes.map((c, i) => [c, round(p[i]!)]));
  if (x[KIND_FEATURES.indexOf('tabular_type')] === 1) return { kind: 'table_document', confidence: TABULAR_TYPE_CONFIDENCE, probabilities };
  if (noKindEvidence(x)) return { kind: 'other', confidence: NO_EVIDENCE_CONFIDENCE, probabilities };
  const best = p.indexOf(Math.max(...p));
  if (p[best]! < MIN_KIND_PROBABILITY) return { kind: 'other', confidence: round(1 - p[best]!), probabilities };
  return { kind: MODEL.classes[best] as ScoredKind, confidence: round(p[best]!), probabilities };
}

const round = (n: number) => Math.round(n * 100) / 100;
