import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// A statistical table as web pages print it: a long row label set a word space before its figures. Every word and
// figure is invented.

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });

describe('rows set close to a long label', () => {
  it('read a label running into its figures as a row, not as prose ending the table', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (page 1)',
          data_type: 'table' as const,
          fields: [column('item', 'Item'), column('north', 'North'), column('south', 'South'), column('all', 'All')],
        },
      ],
    };
    // "Hand tools and spare parts 4.20 -310.75 12.06" at 4.5 a character: the figures end at these right edges.
    const rights = [199.5, 235.5, 262.5];
    const row = (y: number, label: string, figs: string[]): Item[] => [L(60, y, label), ...figs.map((f, k) => R(rights[k]!, y, f))];
    const items: Item[] = [
      L(60, 100, 'Item'),
      ...['North', 'South', 'All'].map((t, k) => R(rights[k]!, 100, t)),
      ...row(113, 'Rope', ['1.95', '-435.66', '8.10']),
      ...row(126, 'Lamps', ['-2.81', '581.62', '3.02']),
      L(60, 139, 'Hand tools and spare parts 4.20 -310.75 12.06'),
      ...row(152, 'Nails', ['3.93', '270.98', '0.44']),
      ...row(165, 'Total', ['7.27', '106.19', '23.62']),
    ];
    const rows = extractFromLayout(layoutOf([items]), schema).result.table_1 as Record<string, string>[];
    expect(rows.map((r) => r.item)).toEqual(['Rope', 'Lamps', 'Hand tools and spare parts', 'Nails', 'Total']);
    expect(rows[2]).toEqual({ item: 'Hand tools and spare parts', north: '4.20', south: '-310.75', all: '12.06' });
  });

  it('keep a label word set a word space before the first figure column in the label, in a table typed as text', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (page 1)',
          data_type: 'table' as const,
          fields: [column('item', 'Item'), column('north', 'North'), column('south', 'South')],
        },
      ],
    };
    // The figure columns end at 250 and 300; the label runs up to its figure a word space before it, under "North".
    const items: Item[] = [
      L(60, 100, 'Item'),
      R(250, 100, 'North'),
      R(300, 100, 'South'),
      L(60, 113, 'Rope'),
      R(250, 113, '1.95'),
      R(300, 113, '-435.66'),
      L(60, 126, 'Lamps and wicks for long winter nights 2.81'),
      R(300, 126, '581.62'),
      L(60, 139, 'Nails'),
      R(250, 139, '3.93'),
      R(300, 139, '270.98'),
    ];
    const rows = extractFromLayout(layoutOf([items]), schema).result.table_1 as Record<string, string>[];
    expect(rows.map((r) => r.north)).toEqual(['1.95', '2.81', '3.93']);
    expect(rows[1]!.item).toBe('Lamps and wicks for long winter nights');
  });
});
