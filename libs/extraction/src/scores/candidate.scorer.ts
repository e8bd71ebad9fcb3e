import { createRequire } from 'node:module';
import { predictSoftmax, type SoftmaxModel } from './softmax.model.js';

/**
 * P(a candidate is the field's value) from its feature vector (features/candidate.features.ts), by a model fitted on
 * the tune split (`npm run train`: classes `wrong`, `right`). Undefined while no model has been fitted (the locator's
 * own order is kept then).
 */
const MODEL = createRequire(import.meta.url)('./weights/candidate-rank.json') as SoftmaxModel;
const RIGHT = MODEL.classes.indexOf('right');
const FITTED = RIGHT >= 0 && MODEL.weights.some((w) => w.some((v) => v !== 0));

export function candidateProbability(x: readonly number[]): number | undefined {
  return FITTED ? predictSoftmax(MODEL, x)[RIGHT] : undefined;
}
