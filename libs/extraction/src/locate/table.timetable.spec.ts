import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// A timetable as web pages print it: a stop's name, then its times set close (a word space apart), a bar where a
// service passes without calling. Every word and figure is invented.

const column = (key: string, label: string) => ({ key, label, data_type: 'string' as const });

describe('timetables', () => {
  it('reads a row of times set at word spacing after a long stop name as a row, not as prose ending the table', () => {
    const schema = {
      fields: [
        {
          key: 'table_1',
          label: 'Table 1 (page 1)',
          data_type: 'table' as const,
          fields: [column('stop', 'Stop'), column('s101', '101'), column('s203', '203'), column('s305', '305'), column('s407', '407')],
        },
      ],
    };
    // Columns' right edges 27 apart: a time (five characters of 4.5) and a word space.
    const rights = [163.5, 190.5, 217.5, 244.5];
    const short = (y: number, name: string, times: string[]): Item[] => [L(60, y, name), ...times.map((t, k) => R(rights[k]!, y, t))];
    const items: Item[] = [
      L(60, 100, 'Stop'),
      ...['101', '203', '305', '407'].map((t, k) => R(rights[k]!, 100, t)),
      ...short(113, 'Vokel', ['07:56', '14:09', '08:27', '07:00']),
      ...short(126, 'Darim', ['08:00', '14:12', '08:36', '07:02']),
      L(60, 139, 'Selwalsel Station 08:08 14:24 08:42 07:11'),
      ...short(152, 'Quatri', ['08:12', '|', '08:49', '07:20']),
      L(60, 165, 'Lorvimer Bridge 08:15 14:39 | 07:25'),
    ];
    const rows = extractFromLayout(layoutOf([items]), schema).result.table_1 as Record<string, string>[];
    expect(rows.map((r) => r.stop)).toEqual(['Vokel', 'Darim', 'Selwalsel Station', 'Quatri', 'Lorvimer Bridge']);
    expect(rows[2]).toEqual({ stop: 'Selwalsel Station', s101: '08:08', s203: '14:24', s305: '08:42', s407: '07:11' });
    // (A bar alone in a cell is printed content, as a dash is: the service passes without calling.)
    expect(rows[3]).toEqual({ stop: 'Quatri', s101: '08:12', s203: '|', s305: '08:49', s407: '07:20' });
  });
});
