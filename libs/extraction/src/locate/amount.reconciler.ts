import type { FieldDef, FieldMeta } from '../engine.types.js';
import { conceptTokens } from './label.matcher.js';

type Role = 'total' | 'net' | 'tax';

/** Which summary amount a number/currency field asks for, from its key and label ("Net amount", "tax_amount"). */
function roleOf(field: FieldDef): Role | undefined {
  if (field.data_type !== 'number' && field.data_type !== 'currency') return undefined;
  const c = new Set(conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`));
  // Rates, identifiers and other quantities are not summary amounts.
  if (['id', 'number', 'rate', 'price', 'quantity', 'unit'].some((x) => c.has(x))) return undefined;
  if (c.has('net')) return 'net';
  if (c.has('tax')) return 'tax';
  if (c.has('total')) return 'total';
  return undefined;
}

function amountOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'number') return (v as { value: number }).value;
  return undefined;
}

function withAmount(like: unknown, value: number): unknown {
  const rounded = Math.round(value * 100) / 100;
  return like && typeof like === 'object' ? { ...(like as object), value: rounded } : rounded;
}

/**
 * Invoices obey total = net + tax. When exactly one of the three summary amounts is missing and the other
 * two were printed, the net amount is derived (total − tax). Tax is not derived from total − net:
 * shipping, discounts or deposits printed between them would make a wrong tax look certain. The derived
 * value carries a lower confidence and no bounding box (it is not printed where one could point).
 */
export function reconcileAmounts(fields: FieldDef[], result: Record<string, unknown>, meta: Record<string, FieldMeta>): void {
  const byRole = new Map<Role, FieldDef>();
  for (const f of fields) {
    const r = roleOf(f);
    if (r && !byRole.has(r)) byRole.set(r, f);
  }
  const net = byRole.get('net');
  const tax = byRole.get('tax');
  const total = byRole.get('total');
  if (!net || !tax || !total || result[net.key] !== undefined) return;
  const t = amountOf(result[total.key]);
  const x = amountOf(result[tax.key]);
  if (t === undefined || x === undefined || x < 0 || t <= 0 || x >= t) return;
  result[net.key] = withAmount(result[total.key], t - x);
  const conf = Math.min(meta[total.key]?.confidence ?? 0, meta[tax.key]?.confidence ?? 0) * 0.9;
  meta[net.key] = { confidence: Math.round(conf * 1000) / 1000, page: meta[total.key]?.page, errors: [] };
}
