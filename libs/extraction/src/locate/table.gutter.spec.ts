import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { buildPage } from '../layout/layout.builder.js';
import type { Word } from '../layout/layout.types.js';

// A list of people whose surname column is narrow: one long surname runs into the first-name column, and a footer
// line crosses the gutter between two other columns. Invented names.

const schema: ExtractionSchema = {
  fields: [
    {
      key: 'people',
      data_type: 'table',
      fields: [
        { key: 'surname', label: 'Surname', data_type: 'string' },
        { key: 'first_name', label: 'Forename', data_type: 'string' },
        { key: 'date', label: 'Date', data_type: 'string' },
        { key: 'kind', label: 'Kind', data_type: 'string' },
      ],
    },
  ],
};

const SURNAMES = ['ALDER', 'BIRCH', 'CEDAR', 'DOGWOOD', 'ELM', 'FIR', 'GINKGO', 'HAZEL', 'IVY', 'JUNIPER'];
const word = (text: string, x0: number, x1: number, y: number): Word => ({ text, x0, x1, y0: y, y1: y + 9, conf: 1 });

function page(): Word[] {
  const words = [word('Surname', 50, 85, 49), word('Forename', 152, 192, 49), word('Date', 391, 416, 49), word('Kind', 446, 464, 49)];
  for (let i = 0; i < 24; i++) {
    const y = 66 + i * 16;
    if (i === 7) words.push(word('QUILLFEATHERS', 48, 117, y), word('VALEMOOR', 122, 154, y), word('BO', 150, 162, y));
    else words.push(word(SURNAMES[i % 10]!, 48, 48 + SURNAMES[i % 10]!.length * 5, y), word(i % 2 ? 'ANNA' : 'JON', 150, 172, y));
    words.push(word('09/10/2031', 384, 425, y), word('CASH', 435, 458, y));
  }
  words.push(word('ANNEX', 415, 439, 470), word('A-1', 444, 460, 470));
  return words;
}

describe('a gutter that a few words cross', () => {
  it('still parts the columns it separates', () => {
    const got = extractFromLayout({ pages: [buildPage(1, 612, 1008, page())] }, schema).result.people as Record<string, string>[];
    expect(got[0]).toEqual({ surname: 'ALDER', first_name: 'JON', date: '09/10/2031', kind: 'CASH' });
    expect(got[1]).toEqual({ surname: 'BIRCH', first_name: 'ANNA', date: '09/10/2031', kind: 'CASH' });
  });
});
