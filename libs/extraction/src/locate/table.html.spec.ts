import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// Tables as web pages and HTML reports print them (tools/eval/synth-html-tables.mjs prints such pages with headless
// Chromium): several tables a page set one under the next at the rows' own pitch. Every word and figure is invented.

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });
const tableOf = (no: number, ...cols: ReturnType<typeof column>[]) => ({
  key: `table_${no}`,
  label: `Table ${no} (page 1)`,
  data_type: 'table' as const,
  fields: cols,
});

describe('tables printed from HTML', () => {
  it("a table ends where the schema's next table's header begins, though nothing but a caption stands between", () => {
    const schema = {
      fields: [
        tableOf(1, column('region', 'Region'), column('inland', 'Inland'), column('coastal', 'Coastal')),
        tableOf(2, column('item', 'Item'), column('f_2021', '2021'), column('f_2022', '2022')),
      ],
    };
    const items: Item[] = [
      L(80, 100, 'Region'),
      R(300, 100, 'Inland'),
      R(360, 100, 'Coastal'),
      ...[
        ['Vokel', '1,204', '88'],
        ['Darim', '977', '1,530'],
        ['Total', '2,181', '1,618'],
      ].flatMap(([a, b, c], k) => [L(80, 113 + 13 * k, a!), R(300, 113 + 13 * k, b!), R(360, 113 + 13 * k, c!)]),
      L(80, 152, 'Table 2: Lorvi by sector'),
      L(80, 165, 'Item'),
      R(300, 165, '2021'),
      R(360, 165, '2022'),
      ...[
        ['Selmo', '14.2', '9.8'],
        ['Quatri', '3.1', '27.0'],
      ].flatMap(([a, b, c], k) => [L(80, 178 + 13 * k, a!), R(300, 178 + 13 * k, b!), R(360, 178 + 13 * k, c!)]),
    ];
    const result = extractFromLayout(layoutOf([items]), schema).result;
    expect(result.table_1).toEqual([
      { region: 'Vokel', inland: '1,204', coastal: '88' },
      { region: 'Darim', inland: '977', coastal: '1,530' },
      { region: 'Total', inland: '2,181', coastal: '1,618' },
    ]);
    expect(result.table_2).toEqual([
      { item: 'Selmo', f_2021: '14.2', f_2022: '9.8' },
      { item: 'Quatri', f_2021: '3.1', f_2022: '27.0' },
    ]);
  });

  it("a header on a later page that the schema's other table names better starts that table, not this one's next part", () => {
    const schema = {
      fields: [
        {
          ...tableOf(1, column('no', 'No'), column('project', 'Project'), column('site', 'Site'), column('status', 'Status')),
          label: 'Table 1 (pages 1–2)',
        },
        {
          ...tableOf(2, column('no', 'No'), column('project', 'Project'), column('category', 'Category'), column('status', 'Status')),
          label: 'Table 2 (page 2)',
        },
      ],
    };
    const body = (y: number, rows: string[][]): Item[] =>
      rows.flatMap(([a, b, c, d], k) => [R(90, y + 13 * k, a!), L(100, y + 13 * k, b!), L(220, y + 13 * k, c!), L(320, y + 13 * k, d!)]);
    const page1: Item[] = [
      L(80, 100, 'Table 1: Open lorvi'),
      R(90, 120, 'No'),
      L(100, 120, 'Project'),
      L(220, 120, 'Site'),
      L(320, 120, 'Status'),
      ...body(133, [
        ['1', 'Velmo', 'Darin', 'Open'],
        ['2', 'Quosa', 'Belri', 'Held'],
      ]),
    ];
    const page2: Item[] = [
      L(80, 100, 'Table 2: Closed lorvi'),
      R(90, 120, 'No'),
      L(100, 120, 'Project'),
      L(220, 120, 'Category'),
      L(320, 120, 'Status'),
      ...body(133, [
        ['3', 'Nimra', 'Tesk', 'Closed'],
        ['4', 'Forvel', 'Gander', 'Closed'],
      ]),
    ];
    const result = extractFromLayout(layoutOf([page1, page2]), schema).result;
    expect(result.table_1).toEqual([
      { no: '1', project: 'Velmo', site: 'Darin', status: 'Open' },
      { no: '2', project: 'Quosa', site: 'Belri', status: 'Held' },
    ]);
    expect(result.table_2).toEqual([
      { no: '3', project: 'Nimra', category: 'Tesk', status: 'Closed' },
      { no: '4', project: 'Forvel', category: 'Gander', status: 'Closed' },
    ]);
  });
});
