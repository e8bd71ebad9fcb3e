import type { FieldDef } from '../engine.types.js';
import type { DocLayout } from '../layout/layout.types.js';
import { candidateFeatures, valueCounts, type RankedCandidate } from '../features/candidate.features.js';
import { candidateProbability } from '../scores/candidate.scorer.js';

/** One (field, candidate) pair of the assignment, with the scorer's probability that the candidate is the value. */
export interface ScoredCandidate<C extends RankedCandidate> {
  f: FieldDef;
  c: C;
  /** P(right) from the candidate scorer; undefined while no scorer is fitted. */
  p?: number;
}

/** A training example: the field, the candidate's value and its feature vector (`npm run train` labels it). */
export interface CandidateExample {
  key: string;
  value: unknown;
  features: number[];
}

/**
 * Scores every candidate of every field with the learned candidate scorer (features/candidate.features.ts), and hands
 * the feature vectors to `collect` when given (training). Candidates keep the locator's order within a field.
 */
export function scoreCandidates<C extends RankedCandidate>(doc: DocLayout, pairs: readonly { f: FieldDef; c: C }[], collect?: (examples: CandidateExample[]) => void): ScoredCandidate<C>[] {
  const all = pairs.map(({ f, c }) => ({ key: f.key, value: c.value }));
  const byField = new Map<string, C[]>();
  for (const { f, c } of pairs) byField.set(f.key, [...(byField.get(f.key) ?? []), c]);
  const rankOf = new Map<C, number>();
  for (const list of byField.values()) list.forEach((c, i) => rankOf.set(c, i));
  const examples: CandidateExample[] = [];
  const out = pairs.map(({ f, c }) => {
    const x = candidateFeatures({ doc, type: f.data_type, own: byField.get(f.key)!, otherValues: valueCounts(all, f.key) }, rankOf.get(c)!);
    examples.push({ key: f.key, value: c.value, features: x });
    return { f, c, p: candidateProbability(x) };
  });
  collect?.(examples);
  return out;
}

/** Two scored probabilities closer than this are a tie (the locator's own order decides). */
const PROBABILITY_TIE = 1e-6;

/** Orders scored pairs by the scorer's probability, best first; ties and unscored pairs by `fallback`. */
export function byProbability<C extends RankedCandidate>(fallback: (a: ScoredCandidate<C>, b: ScoredCandidate<C>) => number) {
  return (a: ScoredCandidate<C>, b: ScoredCandidate<C>): number => {
    if (a.p !== undefined && b.p !== undefined && Math.abs(b.p - a.p) > PROBABILITY_TIE) return b.p - a.p;
    return fallback(a, b);
  };
}
