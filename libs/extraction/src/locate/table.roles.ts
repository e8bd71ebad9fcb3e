/** Roles of a line-item table's cells: wordy text over codes, count × price cells, quantity × price = amount. */
import type { FieldDef } from '../engine.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import { findTyped } from '../parsers/value.parser.js';
import { conceptTokens } from './label.matcher.js';
import { productHolds, splitCountInText, splitCountTimesPrice, stripRowOrdinals } from './table.cells.js';
import { isDatesOnly } from './table.dates.js';
import type { Column } from './table.model.js';

/** An article code printed in front of an item's name ("[ART_1234] Desk Lamp", "*555010* Sea Salt") is not its description. */
export function stripItemCode(s: string): string {
  return s.replace(/^\s*(?:\[[^\]\s]{2,}\]|\*[^*\s]{2,}\*)\s+(?=\S)/u, '');
}

// One token with a digit ("100234", "WL-01") or capitals joined by a separator ("K-MON", "SVC_FEE").
const isCode = (s: string) =>
  !/\s/.test(s.trim()) && s.trim().length >= 3 && (/\d/.test(s) || /^\p{Lu}+(?:[-_./]\p{Lu}+)+$/u.test(s.trim()));
const wordCount = (s: string) => (s.match(/\p{L}{2,}/gu) ?? []).length;

/**
 * In line items the text column is the one with words on every item: when the column the header gave the
 * description holds only codes ("Artikel" = article number, next to "Omschrijving") or dates (a service period), or text on fewer rows
 * (notes beside an "Item" column that names more items), while an unclaimed column holds words on every row,
 * the words are the description and the codes or notes go aside.
 */
export function preferWordyText(rows: Record<string, string>[], cols: Column[], order: DocContext['dateOrder']): void {
  if (rows.length === 0) return;
  for (const c of cols) {
    const key = c.field?.data_type === 'string' ? c.field.key : undefined;
    if (!key) continue;
    const codesOnly = rows.every((r) => r[key] === undefined || isCode(r[key]!) || isDatesOnly(r[key]!, order));
    const filled = (k: string) => rows.filter((r) => r[k]?.trim()).length;
    const sparse = filled(key) < rows.length;
    if (!codesOnly && !sparse) continue;
    const ci = cols.indexOf(c);
    // (Words in most rows; or a word in every row and several in at least half: a unit column never has two.)
    const wordy = (i: number) => {
      const n = rows.map((r) => wordCount(r[`#${i}`] ?? ''));
      return (
        n.filter((k) => k >= 2).length >= rows.length * 0.8 || (n.every((k) => k >= 1) && n.filter((k) => k >= 2).length >= rows.length / 2)
      );
    };
    // (Notes beside names: the other column names more items than the description column does.)
    const other = cols.findIndex((o, i) => !o.field && (codesOnly ? i > ci : i !== ci && filled(`#${i}`) > filled(key)) && wordy(i));
    if (other < 0) continue;
    for (const r of rows) {
      const code = r[key];
      if (r[`#${other}`] !== undefined) r[key] = r[`#${other}`]!;
      else delete r[key];
      delete r[`#${other}`];
      if (code !== undefined) r[`#${ci}`] = code;
    }
  }
}

/** The keys of a line-item table's roles, from its columns' labels: description, quantity, unit price, amount. */
export function lineItemRoles(fields: readonly FieldDef[]): { description?: string; quantity?: string; price?: string; amount?: string } {
  const keyWhere = (test: (f: FieldDef) => boolean) => fields.find(test)?.key;
  const concepts = (f: FieldDef) => conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`);
  const numeric = (f: FieldDef) => f.data_type !== 'string';
  return {
    description: keyWhere((f) => !numeric(f)),
    quantity: keyWhere((f) => numeric(f) && concepts(f).includes('quantity')),
    price: keyWhere((f) => numeric(f) && isUnitPriceConcept(concepts(f))),
    amount: keyWhere((f) => numeric(f) && isLineAmountConcept(concepts(f)) && !isUnitPriceConcept(concepts(f))),
  };
}

/** Count-times-price cells, counts printed in the description and row ordinals of priced line items (table.cells.ts). */
export function lineItemCells(rows: Record<string, string>[], cols: Column[], ctx: DocContext): void {
  const { description, quantity, price, amount } = lineItemRoles(cols.flatMap((c) => (c.field ? [c.field] : [])));
  if (quantity && price) splitCountTimesPrice(rows, quantity, price, ctx);
  if (description && quantity) splitCountInText(rows, { description, quantity, price, amount }, ctx);
  if (description) stripRowOrdinals(rows, description);
}

/**
 * A column's role in quantity × unit price = amount, from its label's concepts: the head word decides a compound
 * ("Gesamtpreis" = total price is the line amount, "Einzelbetrag" = unit amount is the price, "Unit price", "Price").
 */
function isUnitPriceConcept(t: string[]): boolean {
  return t.includes('unit') ? t.includes('price') || t.includes('amount') : t.includes('price') && !t.includes('total');
}
function isLineAmountConcept(t: string[]): boolean {
  return t.includes('amount') || t.includes('total');
}

/**
 * Line items obey quantity × unit price = amount. When the header words mislead (an "Amount" column that
 * holds quantities, a "Total" column left unclaimed), the assignment of numeric columns that satisfies the
 * product on most rows wins over the one the labels suggested.
 */
export function reconcileArithmetic(rows: Record<string, string>[], cols: Column[], ctx: DocContext): void {
  const conceptsOfColumn = (c: Column) => conceptTokens(`${c.field!.key.replace(/_/g, ' ')} ${c.field!.label ?? ''}`);
  const keyWhere = (test: (concepts: string[]) => boolean) =>
    cols.find((c) => c.field && c.field.data_type !== 'string' && test(conceptsOfColumn(c)))?.field?.key;
  const q = keyWhere((t) => t.includes('quantity'));
  const p = keyWhere(isUnitPriceConcept);
  const a = keyWhere((t) => isLineAmountConcept(t) && !isUnitPriceConcept(t));
  if (!q || !p || !a || rows.length < 2) return;
  // Parse every cell once: the permutation search below reads each value many times.
  const parsed = rows.map(
    (r) => new Map(Object.entries(r).map(([k, v]) => [k, findTyped(v, 'number', ctx)[0]?.value as number | undefined])),
  );
  const num = (r: Record<string, string>, k: string) => parsed[rows.indexOf(r)]!.get(k);
  const sources = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter(
    (k) => k === q || k === p || k === a || (k.startsWith('#') && rows.filter((r) => num(r, k) !== undefined).length >= rows.length / 2),
  );
  if (sources.length > 8) return;
  const fits = (sq: string, sp: string, sa: string) =>
    parsed.filter((m) => {
      const [x, y, z] = [m.get(sq), m.get(sp), m.get(sa)];
      return x !== undefined && y !== undefined && z !== undefined && productHolds(x, y, z);
    }).length;
  const current = fits(q, p, a);
  // Among equally fitting readings, the one that moves fewest columns away from their printed headers: quantity ×
  // unit price is symmetric, so only the headers tell the two factors apart.
  const moves = (sq: string, sp: string, sa: string) => Number(sq !== q) + Number(sp !== p) + Number(sa !== a);
  let best = { n: current, sq: q, sp: p, sa: a, moved: 0 };
  for (const sq of sources)
    for (const sp of sources)
      for (const sa of sources) {
        if (sq === sp || sp === sa || sq === sa) continue;
        const n = fits(sq, sp, sa);
        const moved = moves(sq, sp, sa);
        if (n > best.n || (n === best.n && n > current && moved < best.moved)) best = { n, sq, sp, sa, moved };
      }
  if (best.n === current || best.n < Math.max(2, rows.length * 0.6)) return;
  for (const r of rows) {
    const [vq, vp, va] = [r[best.sq], r[best.sp], r[best.sa]];
    for (const k of [q, p, a]) delete r[k];
    if (vq !== undefined) r[q] = vq;
    if (vp !== undefined) r[p] = vp;
    if (va !== undefined) r[a] = va;
  }
}
