import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { L, layoutOf, row, type Item } from '../testing/invoice-layout.test-helper.js';

// Row labels of a statistical table wrapped over two lines, with the figures on the label's first or on its last
// line (both are common in reports). Every label and figure is invented.

const schema: ExtractionSchema = {
  fields: [
    {
      key: 'table_1',
      label: 'Table 1 (page 1)',
      data_type: 'table',
      fields: [
        { key: 'row_label', label: 'Row label', data_type: 'string' },
        { key: 'y2022', label: '2022', data_type: 'string' },
        { key: 'y2023', label: '2023', data_type: 'string' },
      ],
    },
  ],
};

const table = (figuresOnLast: boolean): Item[] => [
  L(50, 60, 'Table 1: Parcels delivered by district', 10, true),
  ...row(90, [330, '2022', 'r'], [420, '2023', 'r']),
  ...row(106, [50, 'Brackenfield Lower Moor'], [330, '1,204', 'r'], [420, '1,377', 'r']),
  L(50, 117, 'Upper Thornwick Marsh'),
  ...row(figuresOnLast ? 128 : 117, [330, '982', 'r'], [420, '1,015', 'r']),
  L(58, 128, 'and Lower Thornwick'),
  ...row(139, [50, 'Quillhaven'], [330, '640', 'r'], [420, '702', 'r']),
  L(50, 160, 'Source: invented district office.', 7),
];

describe('wrapped row labels', () => {
  it.each([false, true])('figures on the last line of the label: %s', (last) => {
    expect(extractFromLayout(layoutOf([table(last)]), schema).result.table_1).toEqual([
      { row_label: 'Brackenfield Lower Moor', y2022: '1,204', y2023: '1,377' },
      { row_label: 'Upper Thornwick Marsh and Lower Thornwick', y2022: '982', y2023: '1,015' },
      { row_label: 'Quillhaven', y2022: '640', y2023: '702' },
    ]);
  });
});
