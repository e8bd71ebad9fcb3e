import { ExtractionError, type ExtractionOptions, type FieldDef, type FieldMeta } from '../engine.types.js';
import { isRequired, validateField } from '../field.validator.js';
import { round } from '../assignment/located.js';

/** Document confidence under which a reading needs review when the template sets no threshold. */
const DEFAULT_REVIEW_THRESHOLD = 0.7;

/**
 * The validation stage: template rules per field (failures stay visible in the meta and force review), required
 * fields, and the document's confidence — the mean over the fields found, scaled by the share of required fields
 * found. Throws `required_field_missing` when required fields are missing and nothing at all was found.
 */
export function validateDocument(
  fields: FieldDef[],
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  opts: ExtractionOptions,
): { confidence: number; needsReview: boolean } {
  const threshold = opts.confidenceThreshold ?? DEFAULT_REVIEW_THRESHOLD;
  let invalid = false;
  const missingRequired: FieldDef[] = [];
  for (const f of fields) {
    const errors = validateField(f, result[f.key], opts.patternOwner);
    if (errors.length) {
      invalid = true;
      meta[f.key] = { ...(meta[f.key] ?? { confidence: 0 }), errors };
    }
    if (isRequired(f) && result[f.key] === undefined) missingRequired.push(f);
  }
  const found = Object.keys(result).length;
  if (missingRequired.length && found === 0) {
    throw new ExtractionError('required_field_missing', `required field(s) not found: ${missingRequired.map((f) => f.key).join(', ')}`);
  }
  const confs = Object.values(result).length ? Object.keys(result).map((k) => meta[k]!.confidence) : [];
  const required = fields.filter(isRequired);
  const reqShare = required.length ? (required.length - missingRequired.length) / required.length : 1;
  const confidence = round(confs.length ? (confs.reduce((a, b) => a + b, 0) / confs.length) * reqShare : 0);
  return { confidence, needsReview: invalid || missingRequired.length > 0 || confidence < threshold };
}
