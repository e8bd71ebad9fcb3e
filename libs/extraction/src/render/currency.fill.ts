import type { FieldDef } from '../engine.types.js';

/** An extracted amount: its value, and the currency printed with it or on the document (null when none is). */
interface Amount {
  value: number;
  currency: string | null;
}

const isAmount = (v: unknown): v is Amount => typeof v === 'object' && v !== null && 'value' in v && 'currency' in v;

/**
 * Fills the currency of amounts that the document prints without one from the template's `default_currency`.
 * Nothing else is filled: without the setting such an amount keeps `currency: null` (a value is never invented).
 * Table columns of type `currency` are filled the same way, row by row.
 */
export function fillDefaultCurrency(fields: readonly FieldDef[], result: Record<string, unknown>, currency: string | undefined): void {
  if (!currency) return;
  for (const f of fields) {
    const v = result[f.key];
    if (f.data_type === 'currency' && isAmount(v) && v.currency === null) result[f.key] = { ...v, currency };
    if (f.data_type === 'table' && Array.isArray(v))
      for (const row of v) fillDefaultCurrency(f.fields ?? [], row as Record<string, unknown>, currency);
  }
}
