import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// An invented ledger running over two pages without its header printed again: the last row's description wraps over
// the page break, its last lines at the top of page 2 before the next row.

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });
const schema = {
  fields: [
    {
      key: 'table_1',
      label: 'Table 1 (pages 1–2)',
      data_type: 'table' as const,
      fields: [column('date', 'Date'), column('description', 'Description'), column('debit', 'Debit'), column('balance', 'Balance')],
    },
  ],
};
const row = (y: number, date: string, text: string, debit: string, balance: string): Item[] => [
  L(60, y, date),
  L(140, y, text),
  R(330, y, debit),
  R(480, y, balance),
];

describe('a row wrapped over the page break', () => {
  it('keeps the lines it carries overleaf, and the rows after them', () => {
    const page1: Item[] = [L(60, 100, 'Date'), L(140, 100, 'Description'), R(330, 100, 'Debit'), R(480, 100, 'Balance')];
    for (let k = 0; k < 33; k++) page1.push(...row(120 + 20 * k, `${k + 1} Mar`, `Lamp oil ${k + 1}`, '1.00', `${900 - k}.00`));
    page1.push(...row(780, '34 Mar', 'Card payment', '2.00', '865.00'));
    const page2: Item[] = [
      L(140, 100, 'TORVAL'),
      L(140, 113, 'KESPIN 4471'),
      L(140, 126, 'MONTHLY FEE'),
      ...row(146, '35 Mar', 'Rope', '3.00', '862.00'),
      ...row(166, '36 Mar', 'Nails', '4.00', '858.00'),
    ];
    const rows = extractFromLayout(layoutOf([page1, page2]), schema).result.table_1 as Record<string, string>[];
    expect(rows).toHaveLength(36);
    expect(rows[33]).toEqual({
      date: '34 Mar',
      description: 'Card payment TORVAL KESPIN 4471 MONTHLY FEE',
      debit: '2.00',
      balance: '865.00',
    });
    expect(rows.slice(34).map((r) => r.description)).toEqual(['Rope', 'Nails']);
  });
});
