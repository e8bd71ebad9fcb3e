import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { L, layoutOf, row, type Item } from '../testing/invoice-layout.test-helper.js';
import type { Column, Header } from './table.model.js';
import { resumeLine } from './table.pages.js';

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

describe('where a table resumes overleaf (resumeLine)', () => {
  const cols = (keys: string[], weak = false): Column[] =>
    keys.map((key, i) => ({
      field: { key, label: key, data_type: key === 'description' ? 'string' : 'number' },
      x0: 60 + i * 130,
      x1: 180 + i * 130,
      ...(weak && i % 2 === 0 ? { inferred: true } : {}),
    }));
  const keys = ['description', 'quantity', 'unit_price', 'amount'];
  const table: Header = { page: 1, lineIndex: 0, lastLine: 0, columns: cols(keys), score: 0.9 };
  // Page 2 opens with an item; further down a unit line above the totals line names two columns by chance.
  const page = layoutOf([
    [],
    [...row(40, [60, 'Widget model 20'], [300, '2'], [430, '€4.50'], [560, '€9.00']), L(300, 90, 'pcs'), L(560, 102, 'Total')],
  ]).pages[1]!;
  const at = (score: number, columns: Column[]): Header => ({ page: page.number, lineIndex: 1, lastLine: 2, columns, score });

  it('goes on at the first row when the page holds only a weak header match (fewer columns, lower score)', () => {
    expect(resumeLine(page, table, 11, true, [table, at(0.5, cols(keys, true))])).toBe(0);
  });

  it('does not go on when the page prints a header of the same columns, about as good', () => {
    expect(resumeLine(page, table, 11, true, [table, at(0.85, cols(keys))])).toBe(-1);
  });
});
