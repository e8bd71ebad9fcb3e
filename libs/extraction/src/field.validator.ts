import { compiledUserPattern } from '@docket/contracts';
import type { FieldDef } from './engine.types.js';

export function isRequired(f: FieldDef): boolean {
  return Boolean(f.required || f.validation?.required);
}

/**
 * Applies a field's validation rules to its extracted value; returns human-readable messages. `validation.regex` runs
 * on RE2 semantics (linear time: `^(a+)+$` cannot stall the worker), compiled once per pattern and charged to
 * `patternOwner` (the job's account) in the process's bounded pattern cache. A pattern RE2 cannot run (refused at
 * save since ADR 0008, but older templates may hold one) is reported, never run.
 */
export function validateField(f: FieldDef, value: unknown, patternOwner?: string): string[] {
  const errors: string[] = [];
  const v = f.validation ?? {};
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
    if (isRequired(f)) errors.push('required field not found');
    return errors;
  }
  const num =
    typeof value === 'number'
      ? value
      : typeof value === 'object' && value && 'value' in value
        ? Number((value as { value: unknown }).value)
        : undefined;
  if (num !== undefined && Number.isFinite(num)) {
    if (v.min_value !== undefined && num < v.min_value) errors.push(`value ${num} is below min_value ${v.min_value}`);
    if (v.max_value !== undefined && num > v.max_value) errors.push(`value ${num} is above max_value ${v.max_value}`);
  }
  if (v.regex && typeof value !== 'object') {
    const { re } = compiledUserPattern(v.regex, patternOwner);
    if (!re) errors.push(`invalid regex ${v.regex}`);
    else if (!re.test(String(value))) errors.push(`value does not match ${v.regex}`);
  }
  return errors;
}
