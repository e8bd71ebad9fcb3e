import { afterAll, describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import { invoiceSchema, L, pdfOf, R, row, type Item } from '../testing/invoice-layout.test-helper.js';

// An item table whose header labels each end in a colon and are set close ("Qty: Subtotal: VAT:"), its figures set
// flush right ending before the next label, and items whose names hold a totals word ("Landing net" between items,
// "Camping hammock net" last). Every name and figure is invented.

const engine = createExtractionEngine();
afterAll(() => engine.close());

const items: [string, string, string, string, string][] = [
  ['Camping stool', '6.00', '2', '12.00', '14.52'],
  ['Landing net', '11.00', '4', '44.00', '53.24'],
  ['Lantern', '9.00', '1', '9.00', '10.89'],
  ['Camping hammock net', '14.00', '3', '42.00', '50.82'],
];

function page(): Item[] {
  return [
    L(440, 44, 'INVOICE Q/00417', 12, true),
    ...row(134, [38, 'From:'], [300, 'To:']),
    ...row(150, [38, 'Quillmoor Outdoor Ltd'], [300, 'Fenwick Ramblers']),
    ...(
      [
        [37, 'Item:'],
        [266, 'Price:'],
        [331, 'Qty:'],
        [360, 'Subtotal:'],
        [429, 'VAT:'],
        [494, 'Total:'],
      ] as const
    ).map(([x, t]) => L(x, 273, t, 11, true)),
    ...items.flatMap(([name, price, qty, sub, total], i) => {
      const y = 292 + i * 18;
      return [
        L(37, y, name, 11),
        R(329, y, price, 11),
        R(358, y, qty, 11),
        R(427, y, sub, 11),
        R(492, y, '21.00', 11),
        R(558, y, total, 11),
      ];
    }),
    ...row(380, [400, 'Total:'], [558, '129.47', 'r']),
  ];
}

describe('an item table with colon-ended header labels set close', () => {
  it('keeps each label its own column and reads every item, a totals word inside an item name included', async () => {
    const out = await engine.extract({ bytes: await pdfOf([page()]), mimeType: 'application/pdf', filename: 'invoice.pdf' }, invoiceSchema);
    const got = (out.result.line_items as Record<string, unknown>[]).map((r) => [r.description, r.quantity, r.unit_price, r.amount]);
    expect(got).toEqual([
      ['Camping stool', 2, 6, 12],
      ['Landing net', 4, 11, 44],
      ['Lantern', 1, 9, 9],
      ['Camping hammock net', 3, 14, 42],
    ]);
  });
});
