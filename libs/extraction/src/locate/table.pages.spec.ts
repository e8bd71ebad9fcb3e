import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { L, layoutOf, row, type Item } from '../testing/invoice-layout.test-helper.js';

// Line items that run over a page break without the header printed again. Every name and figure is invented.

const schema: ExtractionSchema = {
  fields: [
    {
      key: 'line_items',
      data_type: 'table',
      fields: [
        { key: 'description', label: 'Description', data_type: 'string' },
        { key: 'amount', label: 'Amount', data_type: 'number' },
      ],
    },
  ],
};

const items = (from: number, n: number, y0: number): Item[] =>
  Array.from({ length: n }, (_, i) => row(y0 + i * 25, [60, `Widget model ${from + i}`], [550, `€${(from + i) * 10}.00`, 'r'])).flat();

describe('a table continued on the next page', () => {
  it('reads the rows at the top of the next page when their amounts carry a currency sign', () => {
    const page1: Item[] = [L(60, 40, 'Invoice 12', 14, true), ...row(260, [60, 'Description'], [550, 'Amount', 'r']), ...items(1, 19, 290)];
    const page2: Item[] = [...items(20, 3, 40), ...row(140, [400, 'Total'], [550, '€2,530.00', 'r'])];
    const rows = extractFromLayout(layoutOf([page1, page2]), schema).result.line_items as unknown[];
    expect(rows).toHaveLength(22);
    expect(rows[21]).toEqual({ description: 'Widget model 22', amount: 220 });
  });
});
