import { describe, expect, it } from '@jest/globals';
import type { ExtractionSchema } from '../engine.types.js';
import { extractFromLayout } from '../extraction.engine.js';
import { block, L, layoutOf, R, row } from '../testing/invoice-layout.test-helper.js';

// An invented invoice that prints its amounts without any currency sign or code anywhere on the page.
const page = [
  ...block(50, 40, ['Brimwell Joinery Ltd', '4 Tollgate Row', 'Fenmarch FM2 7QD']),
  L(400, 40, 'INVOICE', 14, true),
  ...row(100, [380, 'Invoice no.'], [470, 'BJ-2207']),
  ...block(50, 120, ['Bill to:', 'Orrin Castleby', '12 Quarry Lane']),
  ...row(200, [50, 'Description'], [470, 'Amount', 'r']),
  ...row(214, [50, 'Oak shelving, fitted'], [470, '400.00', 'r']),
  ...row(260, [380, 'Subtotal'], [545, '400.00', 'r']),
  ...row(274, [380, 'VAT 20%'], [545, '80.00', 'r']),
  R(545, 292, '480.00', 9, true),
  L(380, 292, 'Total', 9, true),
];
const schema: ExtractionSchema = {
  fields: [
    { key: 'subtotal', label: 'Subtotal', data_type: 'currency' },
    { key: 'tax', label: 'VAT', data_type: 'currency' },
    { key: 'total', label: 'Total', data_type: 'currency' },
  ],
};

describe('amounts whose currency is printed nowhere', () => {
  it('are returned with their value and no currency, never a guessed code, and none is dropped', () => {
    const { result } = extractFromLayout(layoutOf([page]), schema);
    expect(result).toEqual({
      subtotal: { value: 400, currency: null },
      tax: { value: 80, currency: null },
      total: { value: 480, currency: null },
    });
  });

  it("take the template's default_currency when it sets one", () => {
    const { result } = extractFromLayout(layoutOf([page]), schema, { defaultCurrency: 'GBP' });
    expect(result['total']).toEqual({ value: 480, currency: 'GBP' });
    expect(result['tax']).toEqual({ value: 80, currency: 'GBP' });
  });

  it('keep a printed currency over the default', () => {
    const priced = page.map((it) => (it.t === '480.00' ? { ...it, t: '€480.00' } : it));
    const { result } = extractFromLayout(layoutOf([priced]), schema, { defaultCurrency: 'GBP' });
    expect(result['total']).toEqual({ value: 480, currency: 'EUR' });
  });
});
