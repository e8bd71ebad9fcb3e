import { createRequire } from 'node:module';
import type { DataType } from '../engine.types.js';
import { confidenceFeatures } from '../features/field.confidence.features.js';
import { predictSoftmax, type SoftmaxModel } from './softmax.model.js';

/**
 * A field's confidence as the probability that the value is right: the locator's raw confidence mapped through a
 * model fitted on the tune split (`npm run train`: classes `wrong`, `right`; features in
 * features/field.confidence.features.ts). docs/quality.md keeps the reliability table that checks it.
 */
const MODEL = createRequire(import.meta.url)('./weights/field-confidence.json') as SoftmaxModel;
const RIGHT = MODEL.classes.indexOf('right');
/** False while the weights are the all-zero placeholder (before the first `npm run train`). */
const FITTED = RIGHT >= 0 && MODEL.weights.some((w) => w.some((v) => v !== 0));

/** The calibrated confidence of one scalar value (two decimals); the raw one where no model has been fitted yet. */
export function calibratedConfidence(raw: number, type: DataType, scanned: boolean): number {
  if (!FITTED) return raw;
  return Math.round(predictSoftmax(MODEL, confidenceFeatures(raw, type, scanned))[RIGHT]! * 100) / 100;
}

/** Every scalar field's confidence in `meta`, calibrated in place (tables keep their own). */
export function calibrateFields(
  fields: readonly { key: string; data_type: DataType }[],
  meta: Record<string, { confidence: number }>,
  scanned: boolean,
): void {
  for (const f of fields) {
    const m = meta[f.key];
    if (m && f.data_type !== 'table') m.confidence = calibratedConfidence(m.confidence, f.data_type, scanned);
  }
}
