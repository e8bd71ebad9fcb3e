import { RE2 } from 're2-wasm';
import type { FieldDef } from './engine.types.js';

/** Compiled tenant patterns, per pattern text (a template's patterns repeat across its jobs). */
const patterns = new Map<string, RE2 | Error>();
/** Distinct patterns kept compiled at most (oldest dropped first). */
const MAX_CACHED_PATTERNS = 500;

/**
 * A tenant's `validation.regex`, compiled for RE2 (linear time in the input: a pattern like `^(a+)+$` cannot
 * stall the worker). Never the backtracking RegExp engine. A pattern RE2 cannot run (backreferences,
 * lookaround — refused at template save since ADR 0008, but older templates may hold one) is an Error.
 */
export function userPattern(source: string): RE2 | Error {
  let re = patterns.get(source);
  if (!re) {
    try {
      re = new RE2(source, 'u');
    } catch (e) {
      re = e instanceof Error ? e : new Error(String(e));
    }
    if (patterns.size >= MAX_CACHED_PATTERNS) patterns.delete(patterns.keys().next().value!);
    patterns.set(source, re);
  }
  return re;
}

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
    const re = userPattern(v.regex);
    if (re instanceof Error) errors.push(`invalid regex ${v.regex}`);
    else if (!re.test(String(value))) errors.push(`value does not match ${v.regex}`);
  }
  return errors;
}
