import { CURRENCY_CODE, type FieldDefDto } from '../common/field-def.dto.js';
import { compiledUserPattern } from '../common/user-pattern.js';

/** One refused field of a correction: `details` of 422 `invalid_correction`. */
export interface CorrectionProblem {
  field: string;
  message: string;
}

/** Longest corrected string value, and most rows of a corrected table. */
export const MAX_CORRECTED_STRING = 10_000;
export const MAX_CORRECTED_ROWS = 1_000;

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isIsoDate(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const m = ISO_DATE.exec(v);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The type check of one value; a message when it does not fit `data_type`. */
function typeProblem(f: FieldDefDto, v: unknown): string | undefined {
  switch (f.data_type) {
    case 'string':
      if (typeof v !== 'string') return 'must be a string';
      return v.length > MAX_CORRECTED_STRING ? `must be at most ${MAX_CORRECTED_STRING} characters` : undefined;
    case 'number':
      return typeof v === 'number' && Number.isFinite(v) ? undefined : 'must be a number';
    case 'boolean':
      return typeof v === 'boolean' ? undefined : 'must be true or false';
    case 'date':
      return isIsoDate(v) ? undefined : 'must be a date as YYYY-MM-DD';
    case 'currency':
      if (!isPlainObject(v) || typeof v.value !== 'number' || !Number.isFinite(v.value))
        return 'must be { "value": number, "currency": code }';
      if (Object.keys(v).some((k) => k !== 'value' && k !== 'currency')) return 'must have only `value` and `currency`';
      return v.currency === null || v.currency === undefined || (typeof v.currency === 'string' && CURRENCY_CODE.test(v.currency))
        ? undefined
        : 'currency must be an ISO 4217 code such as EUR, or null';
    case 'table':
      if (!Array.isArray(v) || !v.every(isPlainObject)) return 'must be an array of row objects';
      return v.length > MAX_CORRECTED_ROWS ? `must have at most ${MAX_CORRECTED_ROWS} rows` : undefined;
    default:
      return 'has a data type corrections do not support';
  }
}

/** The field's `validation` rules on a value that has the right type (the engine applies the same rules). */
function ruleProblem(f: FieldDefDto, v: unknown, patternOwner: string): string | undefined {
  const rules = f.validation ?? {};
  const num = typeof v === 'number' ? v : isPlainObject(v) && typeof v.value === 'number' ? v.value : undefined;
  if (num !== undefined && rules.min_value !== undefined && num < rules.min_value)
    return `value ${num} is below min_value ${rules.min_value}`;
  if (num !== undefined && rules.max_value !== undefined && num > rules.max_value)
    return `value ${num} is above max_value ${rules.max_value}`;
  if (rules.regex && typeof v === 'string') {
    const { re } = compiledUserPattern(rules.regex, patternOwner);
    if (re && !re.test(v)) return `value does not match ${rules.regex}`;
  }
  return undefined;
}

const isEmpty = (v: unknown) => v === null || v === '' || (Array.isArray(v) && v.length === 0);
const isRequired = (f: FieldDefDto) => Boolean(f.required || f.validation?.required);

function fieldProblems(f: FieldDefDto, v: unknown, path: string, owner: string): CorrectionProblem[] {
  if (v === undefined || isEmpty(v)) return isRequired(f) ? [{ field: path, message: 'is required and cannot be cleared' }] : [];
  const problem = typeProblem(f, v) ?? ruleProblem(f, v, owner);
  if (problem) return [{ field: path, message: problem }];
  if (f.data_type !== 'table') return [];
  const columns = new Map((f.fields ?? []).map((c) => [c.key, c]));
  return (v as Record<string, unknown>[]).flatMap((row, i) =>
    Object.entries(row).flatMap(([k, cell]) => {
      const col = columns.get(k);
      if (!col) return [{ field: `${path}[${i}].${k}`, message: 'is not a column of this table' }];
      return isEmpty(cell)
        ? []
        : fieldProblems({ ...col, required: false, validation: { ...col.validation, required: false } }, cell, `${path}[${i}].${k}`, owner);
    }),
  );
}

/**
 * Checks corrected values against the job's schema (the template version it ran with): every key must be a field of
 * it, and every value must fit the field's `data_type` and `validation` rules. Returns one problem per refused
 * value; empty when the correction can be stored. `patternOwner` is the account charged for compiled patterns.
 */
export function correctionProblems(
  schema: { fields: FieldDefDto[] },
  values: Record<string, unknown>,
  patternOwner: string,
): CorrectionProblem[] {
  const byKey = new Map(schema.fields.map((f) => [f.key, f]));
  return Object.entries(values).flatMap(([key, value]) => {
    const f = byKey.get(key);
    if (!f) return [{ field: key, message: 'is not a field of the template this job ran with' }];
    return fieldProblems(f, value, key, patternOwner);
  });
}

/** Keys whose value differs between two results (deep, order-sensitive JSON comparison). */
export function changedFieldKeys(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null)).sort();
}
