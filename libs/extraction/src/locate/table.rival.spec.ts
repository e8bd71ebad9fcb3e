import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// Two invented quarterly tables on one page: the second's header stacks "Q1 Q2 Q3 Q4" under "Kind Item Claims", and
// that lower line alone reads as the first table's header.

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });
const quarters = (group: string, key: string) =>
  ['Q1', 'Q2', 'Q3', 'Q4'].map((q) => column(`${key}_${q.toLowerCase()}`, `${group} / ${q}`));
const schema = {
  fields: [
    {
      key: 'table_1',
      label: 'Table 1 (page 1)',
      data_type: 'table' as const,
      fields: [column('row_label', 'Row label'), ...quarters('Arrivals', 'arrivals')],
    },
    {
      key: 'table_2',
      label: 'Table 2 (page 1)',
      data_type: 'table' as const,
      fields: [column('kind', 'Kind'), column('item', 'Item'), ...quarters('Claims', 'claims')],
    },
  ],
};
const rights = [300, 350, 400, 450];
const figures = (y: number, xs: string[]): Item[] => xs.map((f, k) => R(rights[k]!, y, f));

describe('a stacked header of another table', () => {
  it('does not continue a table whose header its lower line repeats', () => {
    const items: Item[] = [
      R(450, 100, 'Arrivals'),
      ...figures(113, ['Q1', 'Q2', 'Q3', 'Q4']),
      L(60, 126, 'Velmor'),
      ...figures(126, ['4,310', '2,208', '517', '42']),
      L(60, 139, 'Kastrin'),
      ...figures(139, ['8,602', '1,944', '806', '17']),
      L(60, 152, 'Total'),
      ...figures(152, ['12,912', '4,152', '1,323', '59']),
      L(60, 180, 'Figures are invented for this test and describe no place at all, whatever they seem to show.'),
      L(60, 210, 'Kind'),
      L(120, 210, 'Item'),
      R(450, 210, 'Claims'),
      ...figures(223, ['Q1', 'Q2', 'Q3', 'Q4']),
      L(60, 236, 'Rolden'),
      L(120, 236, 'Spare parts'),
      ...figures(236, ['3,301', '91', '6,420', '7']),
      L(120, 249, 'Hand tools'),
      ...figures(249, ['5,120', '63', '2,019', '3']),
    ];
    const result = extractFromLayout(layoutOf([items]), schema).result;
    expect((result.table_1 as Record<string, string>[]).map((r) => r.row_label)).toEqual(['Velmor', 'Kastrin', 'Total']);
    expect((result.table_2 as Record<string, string>[]).map((r) => r.item)).toEqual(['Spare parts', 'Hand tools']);
  });
});
