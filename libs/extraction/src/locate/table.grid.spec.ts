import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { readText } from '../readers/text.reader.js';

// A table printed without a header row, its columns named by position in the schema. Invented figures.

const positional = (key: string, n: number): ExtractionSchema['fields'][number] => ({
  key,
  data_type: 'table',
  fields: Array.from({ length: n }, (_, i) => ({ key: `column_${i + 1}`, label: `Column ${i + 1}`, data_type: 'number' as const })),
});

describe('tables without a header row, columns by position', () => {
  it('reads the aligned cells left to right, even where a figure equals a column number', () => {
    const text = ['10     9     8     2', ' 2     4     8     5', ' 6     5     6     9', '', 'Page 1'].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), { fields: [positional('table_1', 4)] });
    expect(out.result.table_1).toEqual([
      { column_1: 10, column_2: 9, column_3: 8, column_4: 2 },
      { column_1: 2, column_2: 4, column_3: 8, column_4: 5 },
      { column_1: 6, column_2: 5, column_3: 6, column_4: 9 },
    ]);
  });

  it('keeps the rows with blank cells, the first row too, each figure in the column it is printed under', () => {
    const text = [
      'Counts by site, in reading order.',
      '',
      'Upper meadow         14                 6',
      'Lower meadow         21        9        4',
      'Riverbank                     12        8',
      'Old quarry           30       17       11',
      'Beech wood            8                  ',
      '',
      'All counts were made on foot.',
    ].join('\n');
    const schema = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'column_1', label: 'Column 1', data_type: 'string' as const },
            { key: 'column_2', label: 'Column 2', data_type: 'number' as const },
            { key: 'column_3', label: 'Column 3', data_type: 'number' as const },
            { key: 'column_4', label: 'Column 4', data_type: 'number' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.table_1).toEqual([
      { column_1: 'Upper meadow', column_2: 14, column_4: 6 },
      { column_1: 'Lower meadow', column_2: 21, column_3: 9, column_4: 4 },
      { column_1: 'Riverbank', column_3: 12, column_4: 8 },
      { column_1: 'Old quarry', column_2: 30, column_3: 17, column_4: 11 },
      { column_1: 'Beech wood', column_2: 8 },
    ]);
  });

  it('gives two such tables of a page to two fields in reading order', () => {
    const text = ['1     2', '3     4', '', 'Second grid', '', '5     6     7', '8     9     10'].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), {
      fields: [positional('table_1', 2), positional('table_2', 3)],
    });
    expect(out.result.table_1).toEqual([
      { column_1: 1, column_2: 2 },
      { column_1: 3, column_2: 4 },
    ]);
    expect(out.result.table_2).toEqual([
      { column_1: 5, column_2: 6, column_3: 7 },
      { column_1: 8, column_2: 9, column_3: 10 },
    ]);
  });
});

describe('header-less tables on a page set in two text columns', () => {
  it('finds a grid within one column though its lines carry the other column’s text, the left column first', () => {
    const text = [
      'Readings were taken at dawn on each      The second site lies higher up and',
      'of the three mornings at the first       was read on two mornings only:',
      'site, and they are listed here:',
      '                                         7        70',
      '1        11        21                    8        80',
      '2        12        22                    9        90',
      '3        13        23',
      '                                         Both sites were read with the same',
      'No reading was missed on any of          instrument, checked on each morning',
      'the mornings at this site.               before the readings began.',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), {
      fields: [positional('table_1', 3), positional('table_2', 2)],
    });
    expect(out.result.table_1).toEqual([
      { column_1: 1, column_2: 11, column_3: 21 },
      { column_1: 2, column_2: 12, column_3: 22 },
      { column_1: 3, column_2: 13, column_3: 23 },
    ]);
    expect(out.result.table_2).toEqual([
      { column_1: 7, column_2: 70 },
      { column_1: 8, column_2: 80 },
      { column_1: 9, column_2: 90 },
    ]);
  });
});

describe('a header-less list flowing on in a second block of the same columns', () => {
  it('reads the first block down, then the second, the last lines holding the first block only', () => {
    const text = ['1     10     100      4     40     400', '2     20     200      5     50     500', '3     30     300', ''].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), { fields: [positional('table_1', 3)] });
    expect((out.result.table_1 as Record<string, number>[]).map((r) => r.column_1)).toEqual([1, 2, 3, 4, 5]);
    expect((out.result.table_1 as Record<string, number>[])[4]).toEqual({ column_1: 5, column_2: 50, column_3: 500 });
  });
});
