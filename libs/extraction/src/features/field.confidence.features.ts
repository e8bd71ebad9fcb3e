import type { DataType } from '../engine.types.js';

/**
 * The evidence the confidence calibrator weighs (scores/confidence.calibrator.ts), one named number each, for one
 * extracted scalar value:
 *
 * | feature | meaning |
 * |---|---|
 * | `raw` | the locator's own confidence (label match × value-type fit × OCR confidence), 0..1 |
 * | `raw_logit` | log(raw / (1 − raw)), clipped: lets the fit bend the raw scale |
 * | `type_string`, `type_number`, `type_date`, `type_currency` | the field's data type (boolean counts as string) |
 * | `scanned` | 1 when the document was read by OCR (its words carry confidences below 1) |
 */
export const CONFIDENCE_FEATURES = ['raw', 'raw_logit', 'type_string', 'type_number', 'type_date', 'type_currency', 'scanned'] as const;

/** Raw confidences are clipped to [ε, 1 − ε] before the logit. */
const LOGIT_EPSILON = 1e-3;

/** The feature vector of one value, in {@link CONFIDENCE_FEATURES} order. */
export function confidenceFeatures(raw: number, type: DataType, scanned: boolean): number[] {
  const p = Math.min(1 - LOGIT_EPSILON, Math.max(LOGIT_EPSILON, raw));
  return [raw, Math.log(p / (1 - p)), ...typeOneHot(type), scanned ? 1 : 0];
}

/** `type_string`, `type_number`, `type_date`, `type_currency`: the field's data type (boolean counts as string). */
export function typeOneHot(type: DataType): number[] {
  const kind = type === 'number' || type === 'date' || type === 'currency' ? type : 'string';
  return [+(kind === 'string'), +(kind === 'number'), +(kind === 'date'), +(kind === 'currency')];
}
