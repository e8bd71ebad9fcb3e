import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// An invented statement with a footnote set close under its last row.

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });

describe('a footnote under the rows', () => {
  it('is no row: a line opening with a note mark and printing no figure ends the table', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (page 1)',
          data_type: 'table' as const,
          fields: [column('row_label', 'Row label'), column('y2031', '2031'), column('y2030', '2030')],
        },
      ],
    };
    const items: Item[] = [
      R(400, 100, '2031'),
      R(460, 100, '2030'),
      L(60, 112, 'Other income'),
      ...[
        ['Kelvor rents', '412', '388'],
        ['Olmen fees', '-27', '15'],
        ['Quill sales', '385', '403'],
      ].flatMap(([t, a, b], k) => [L(66, 124 + 12 * k, t!), R(400, 124 + 12 * k, a!), R(460, 124 + 12 * k, b!)]),
      L(58, 163, '* Rents counted from the spring onwards only.', 7),
      L(58, 180, 'The figures of this statement are invented, and so is every name in it, for a test.'),
    ];
    const rows = extractFromLayout(layoutOf([items]), schema).result.table_1 as Record<string, string>[];
    expect(rows.map((r) => r.row_label)).toEqual(['Other income', 'Kelvor rents', 'Olmen fees', 'Quill sales']);
  });
});
