import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// An invented statement in a narrow column: section headings at the margin, their rows indented under them, the
// figures set close to the labels (a label would run into the note column after a word or two).

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });

describe('section headings over indented rows', () => {
  it('are rows of their own, not the first line of the row under them, nor the wrapped label of a total above', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (page 1)',
          data_type: 'table' as const,
          fields: [column('row_label', 'Row label'), column('note', 'Note'), column('y2031', '2031'), column('y2030', '2030')],
        },
      ],
    };
    const row = (y: number, label: string, note: string, a: string, b: string): Item[] => [
      L(69, y, label),
      ...(note ? [R(168, y, note)] : []),
      R(220, y, a),
      R(260, y, b),
    ];
    const items: Item[] = [
      L(150, 100, 'Note'),
      R(220, 100, '2031'),
      R(260, 100, '2030'),
      L(60, 114, 'Current costs'),
      ...row(128, 'Rimtor', '25', '31', '815'),
      ...row(142, 'Pake', '', '94', '807'),
      L(60, 156, 'Total current costs'),
      R(220, 156, '125'),
      R(260, 156, '1,622'),
      L(60, 170, 'Fixed assets'),
      ...row(184, 'Davo', '', '2,783', '5,262'),
      ...row(198, 'Walsel', '9', '273', '73'),
    ];
    const rows = extractFromLayout(layoutOf([items]), schema).result.table_1 as Record<string, string>[];
    expect(rows.map((r) => r.row_label)).toEqual([
      'Current costs',
      'Rimtor',
      'Pake',
      'Total current costs',
      'Fixed assets',
      'Davo',
      'Walsel',
    ]);
  });
});
