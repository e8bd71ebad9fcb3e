import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { invoiceSchema, L, layoutOf, row } from '../testing/invoice-layout.test-helper.js';

// A unit column printed close beside the quantities, under one header cell with them ("Qty Unit", "Menge Einheit"):
// the units belong to the quantities, never to the description. Every text is invented.

const lineItems = (qtyHead: string, unitHead: string, unit: string) =>
  extractFromLayout(
    layoutOf([
      [
        L(50, 40, 'Atelier Brindille EURL', 14, true),
        ...row(240, [50, 'No.'], [80, 'Description'], [300, qtyHead, 'r'], [310, unitHead], [440, 'Unit price', 'r'], [545, 'Amount', 'r']),
        ...row(256, [50, '1'], [80, 'Bound notebooks'], [300, '10', 'r'], [310, unit], [440, '12.00', 'r'], [545, '120.00', 'r']),
        ...row(270, [50, '2'], [80, 'Laid paper'], [300, '2', 'r'], [310, unit], [440, '5.00', 'r'], [545, '10.00', 'r']),
        ...row(300, [380, 'Total'], [545, '130.00', 'r']),
      ],
    ]),
    invoiceSchema,
  ).result.line_items;

describe('a unit column beside the quantities', () => {
  it.each([
    ['Qty', 'Unit', 'pcs'],
    ['Qté', 'Unité', 'u.'],
    ['Menge', 'Einheit', 'Std.'],
    ['Aantal', 'Eenheid', 'm²'],
    ['Qty', 'Unit', 'm2'],
  ])('%s %s (%s)', (q, u, unit) => {
    expect(lineItems(q, u, unit)).toEqual([
      { description: 'Bound notebooks', quantity: 10, unit_price: 12, amount: 120 },
      { description: 'Laid paper', quantity: 2, unit_price: 5, amount: 10 },
    ]);
  });
});
