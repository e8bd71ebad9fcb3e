import type { FieldDef } from './engine.types.js';

export function isRequired(f: FieldDef): boolean {
  return Boolean(f.required || f.validation?.required);
}

/** Applies a field's validation rules to its extracted value; returns human-readable messages. */
export function validateField(f: FieldDef, value: unknown): string[] {
  const errors: string[] = [];
  const v = f.validation ?? {};
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) {
    if (isRequired(f)) errors.push('required field not found');
    return errors;
  }
  const num = typeof value === 'number' ? value : typeof value === 'object' && value && 'value' in value ? Number((value as { value: unknown }).value) : undefined;
  if (num !== undefined && Number.isFinite(num)) {
    if (v.min_value !== undefined && num < v.min_value) errors.push(`value ${num} is below min_value ${v.min_value}`);
    if (v.max_value !== undefined && num > v.max_value) errors.push(`value ${num} is above max_value ${v.max_value}`);
  }
  if (v.regex && typeof value !== 'object') {
    try {
      if (!new RegExp(v.regex).test(String(value))) errors.push(`value does not match ${v.regex}`);
    } catch {
      errors.push(`invalid regex ${v.regex}`);
    }
  }
  return errors;
}
