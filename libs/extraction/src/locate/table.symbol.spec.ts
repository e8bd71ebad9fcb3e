import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// An invented listing whose last column is headed by a sign alone.

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });

describe('a column headed by a sign', () => {
  it('is found by the sign printed alone in the header', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (page 1)',
          data_type: 'table' as const,
          fields: [column('town', 'Town'), column('count', 'Count'), column('share', '%')],
        },
      ],
    };
    const items: Item[] = [
      L(60, 100, 'Town'),
      R(250, 100, 'Count'),
      R(320, 100, '%'),
      ...[
        ['Belvor', '1085', '90'],
        ['Kastrin', '759', '43'],
        ['Olmen', '1015', '19'],
      ].flatMap(([t, n, p], k) => [L(60, 114 + 14 * k, t!), R(250, 114 + 14 * k, n!), R(320, 114 + 14 * k, p!)]),
    ];
    const rows = extractFromLayout(layoutOf([items]), schema).result.table_1 as Record<string, string>[];
    expect(rows.map((r) => r.share)).toEqual(['90', '43', '19']);
  });
});
