import type { ExtractionSchema, FieldDef } from './engine.types.js';

function synth(f: FieldDef): unknown {
  switch (f.data_type) {
    case 'number':
      return 42;
    case 'date':
      return '2024-01-15';
    case 'currency':
      return { value: 100, currency: 'USD' };
    case 'boolean':
      return true;
    case 'table':
      return [Object.fromEntries((f.fields ?? []).map((c) => [c.key, synth(c)]))];
    default:
      return `sample ${f.key}`;
  }
}

/** Deterministic placeholder result for sandbox keys: same schema, same output; no document is read. */
export function syntheticResult(schema: ExtractionSchema): Record<string, unknown> {
  return Object.fromEntries((schema?.fields ?? []).map((f) => [f.key, synth(f)]));
}
