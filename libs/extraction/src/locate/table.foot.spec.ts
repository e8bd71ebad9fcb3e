import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// A report table whose header is printed alone at the foot of a page, every row overleaf. Every word and figure is
// invented.

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });

describe('a header alone at the foot of its page', () => {
  it('reads the rows at the top of the next page as its table', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (pages 1–2)',
          data_type: 'table' as const,
          fields: [column('item', 'Item'), column('f_2023', '2023'), column('f_2022', '2022')],
        },
      ],
    };
    const page1: Item[] = [
      L(60, 80, 'Vorel Annual Review'),
      L(60, 100, 'Lorem selvo quatri belmar and dorin for the year as shown in the figures.'),
      L(60, 770, 'Statement of lorvi for the year'),
      L(60, 790, 'Item'),
      R(300, 790, '2023'),
      R(360, 790, '2022'),
    ];
    const page2: Item[] = [
      ...[
        ['Selmo dorin', '1,204', '88'],
        ['Quatri', '977', '1,530'],
        ['Belmar vokel', '15', '-12'],
        ['Total', '2,196', '1,606'],
      ].flatMap(([a, b, c], k) => [L(60, 50 + 14 * k, a!), R(300, 50 + 14 * k, b!), R(360, 50 + 14 * k, c!)]),
      L(60, 140, 'Nolmer quatri belvo selrim and dorin as the statement above sets out for the year.'),
    ];
    const result = extractFromLayout(layoutOf([page1, page2]), schema).result;
    expect(result.table_1).toEqual([
      { item: 'Selmo dorin', f_2023: '1,204', f_2022: '88' },
      { item: 'Quatri', f_2023: '977', f_2022: '1,530' },
      { item: 'Belmar vokel', f_2023: '15', f_2022: '-12' },
      { item: 'Total', f_2023: '2,196', f_2022: '1,606' },
    ]);
  });
});
