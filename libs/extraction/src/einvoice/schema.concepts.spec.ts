import { describe, expect, it } from '@jest/globals';
import { AUTO_STANDARD_FIELDS } from '@docket/contracts';
import type { DataType, FieldDef } from '../engine.types.js';
import { invoiceSchema } from '../testing/invoice-layout.test-helper.js';
import { headerConceptOf, lineColumnsOf } from './schema.concepts.js';

const field = (label: string, data_type: DataType, key = 'f'): FieldDef => ({ key, label, data_type });
const concepts = (fields: FieldDef[]) =>
  Object.fromEntries(fields.map((f) => [f.key, f.data_type === 'table' ? Object.fromEntries(lineColumnsOf(f) ?? []) : headerConceptOf(f)]));

describe('schema fields → e-invoice concepts', () => {
  it('maps the auto template\u2019s invoice fields', () => {
    expect(concepts(AUTO_STANDARD_FIELDS.invoice as FieldDef[])).toEqual({
      invoice_number: 'invoice_number',
      invoice_date: 'invoice_date',
      due_date: 'due_date',
      vendor_name: 'seller_name',
      customer_name: 'buyer_name',
      subtotal: 'net_amount',
      tax_amount: 'tax_amount',
      total_amount: 'total_amount',
      line_items: { description: 'description', quantity: 'quantity', unit_price: 'unit_price', amount: 'amount' },
    });
  });

  it('maps the evaluation\u2019s invoice schema', () => {
    expect(concepts(invoiceSchema.fields)).toMatchObject({
      seller_name: 'seller_name',
      buyer_name: 'buyer_name',
      currency: 'currency',
      net_amount: 'net_amount',
      vat_id: 'seller_vat_id',
      iban: 'iban',
    });
  });

  it.each([
    ['Rechnungsnummer', 'string', 'invoice_number'],
    ['Invoice No.', 'string', 'invoice_number'],
    ['Date', 'date', 'invoice_date'],
    ['Fälligkeitsdatum', 'date', 'due_date'],
    ['Supplier', 'string', 'seller_name'],
    ['Bill To', 'string', 'buyer_name'],
    ['PO number', 'string', 'order_reference'],
    ['Grand total', 'currency', 'total_amount'],
    ['Invoice total', 'number', 'total_amount'],
    ['Amount due', 'currency', 'amount_due'],
    ['VAT', 'currency', 'tax_amount'],
    ['USt-IdNr', 'string', 'seller_vat_id'],
    ['Customer VAT ID', 'string', 'buyer_vat_id'],
    ['BIC', 'string', 'bic'],
    ['Payment terms', 'string', 'payment_terms'],
  ] as const)('%s (%s) → %s', (label, type, concept) => {
    expect(headerConceptOf(field(label, type))).toBe(concept);
  });

  it.each([
    ['Seller city', 'string'],
    ['Total', 'date'],
    ['Invoice number', 'number'],
    ['Tax rate', 'number'],
    ['Project code', 'string'],
  ] as const)('leaves %s (%s) to the page', (label, type) => {
    expect(headerConceptOf(field(label, type))).toBeUndefined();
  });

  it('maps line-item columns in other words and languages', () => {
    const table: FieldDef = {
      key: 'positionen',
      data_type: 'table',
      fields: [
        field('Bezeichnung', 'string', 'a'),
        field('Menge', 'number', 'b'),
        field('Einzelpreis', 'currency', 'c'),
        field('Betrag', 'number', 'd'),
        field('SKU', 'string', 'e'),
        field('VAT %', 'number', 'g'),
        field('Colour', 'string', 'h'),
      ],
    };
    expect(Object.fromEntries(lineColumnsOf(table)!)).toEqual({
      a: 'description',
      b: 'quantity',
      c: 'unit_price',
      d: 'amount',
      e: 'item_id',
      g: 'tax_rate',
    });
  });
});
