import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { buildPage } from '../layout/layout.builder.js';
import type { Word } from '../layout/layout.types.js';

// A balance-sheet extract whose currency sign is set at the left edge of each figure column, apart from the
// right-aligned figures (invented figures).

/** A one-table schema of string columns: [key, label] named by the page, [key] printed without a header. */
function tableSchema(key: string, columns: ([string, string] | [string])[]): ExtractionSchema {
  const fields = columns.map(([k, label]) =>
    label
      ? { key: k, label, data_type: 'string' as const }
      : { key: k, data_type: 'string' as const, description: 'This column has no header on the page.' },
  );
  return { fields: [{ key, data_type: 'table', fields }] };
}

const schema = tableSchema('sheet', [['row_label'], ['first', 'First year'], ['second', 'Second year']]);

const word = (text: string, x0: number, x1: number, y: number): Word => ({ text, x0, x1, y0: y, y1: y + 9, conf: 1 });
const rightAligned = (text: string, right: number, y: number) => word(text, right - text.length * 5, right, y);

function page(): Word[] {
  const words = [word('First', 336, 358, 90), word('year', 361, 380, 90), word('Second', 430, 460, 90), word('year', 461, 480, 90)];
  const rows: [string[], string, string, boolean][] = [
    [['Cash', 'at', 'hand'], '7,310', '6,040', true],
    [['Amounts', 'owed'], '2,205', '1,990', false],
    [['Stock'], '880', '915', false],
    [['Current', 'assets'], '10,395', '8,945', true],
  ];
  rows.forEach(([label, a, b, marked], i) => {
    const y = 108 + i * 14;
    let x = 50;
    for (const t of label) (words.push(word(t, x, x + t.length * 5, y)), (x += t.length * 5 + 3));
    if (marked) words.push(word('$', 310, 316, y), word('$', 410, 416, y));
    words.push(rightAligned(a, 380, y), rightAligned(b, 480, y));
  });
  return words;
}

describe('a currency sign set apart at the left of a column of figures', () => {
  it('is the prefix of the figure on its right, not text of the row label', () => {
    const got = extractFromLayout({ pages: [buildPage(1, 595, 842, page())] }, schema).result.sheet as Record<string, string>[];
    expect(got[0]).toEqual({ row_label: 'Cash at hand', first: '$ 7,310', second: '$ 6,040' });
    expect(got[1]).toEqual({ row_label: 'Amounts owed', first: '2,205', second: '1,990' });
    expect(got[3]).toEqual({ row_label: 'Current assets', first: '$ 10,395', second: '$ 8,945' });
  });
});

// Visitors by activity, with a group caption centred over two sub-columns each (invented figures); the schema names
// the columns as the page's first header line does, the sub-columns by position.
const grouped = tableSchema('visits', [['row_label'], ['weekday', 'Weekday'], ['column_3'], ['weekend', 'Weekend'], ['column_5']]);

function groupedPage(): Word[] {
  const words = [word('Weekday', 277, 313, 90), word('Weekend', 447, 483, 90)];
  const sub = ['Morning', 'Evening', 'Morning', 'Evening'];
  words.push(word('Activity', 50, 85, 106));
  sub.forEach((t, k) => words.push(rightAligned(t, 270 + k * 85, 106)));
  const rows: [string, string[]][] = [
    ['Climbing', ['1,204', '3,311', '1,387', '3,902']],
    ['Rowing', ['2,045', '5,120', '1,766', '4,408']],
    ['Archery', ['980', '6,245', '1,015', '5,873']],
  ];
  rows.forEach(([label, figures], i) => {
    const y = 124 + i * 14;
    words.push(word(label, 50, 50 + label.length * 5, y));
    figures.forEach((f, k) => words.push(rightAligned(f, 270 + k * 85, y)));
  });
  return words;
}

describe('a group caption centred over two sub-columns', () => {
  it('leaves each sub-column its own figures, in order', () => {
    const got = extractFromLayout({ pages: [buildPage(1, 595, 842, groupedPage())] }, grouped).result.visits as Record<string, string>[];
    expect(got[1]).toEqual({ row_label: 'Climbing', weekday: '1,204', column_3: '3,311', weekend: '1,387', column_5: '3,902' });
    expect(got[3]).toEqual({ row_label: 'Archery', weekday: '980', column_3: '6,245', weekend: '1,015', column_5: '5,873' });
  });
});

// Fund figures whose row labels end in a date and whose figures, across a wide gap, start with two digits that could
// be a year (invented figures).
describe('a row label ending in a date, a figure across the gap', () => {
  it('keeps the figure in its own column: a date never spans two cells', () => {
    const words = [word('2031', 505, 532, 143)];
    const rows: [string, string][] = [
      ['Units at 30 June', '58,214'],
      ['Value at 30 June', '31,902,115'],
      ['Value per unit at 30 June', '548.02'],
    ];
    rows.forEach(([label, figure], i) => {
      const y = 180 + i * 21;
      let x = 71;
      for (const t of label.split(' ')) (words.push(word(t, x, x + t.length * 5, y)), (x += t.length * 5 + 4));
      words.push(rightAligned(figure, 532, y));
    });
    const got = extractFromLayout({ pages: [buildPage(1, 612, 792, words)] }, tableSchema('fund', [['key_figures'], ['f_2031', '2031']]))
      .result.fund as Record<string, string>[];
    expect(got).toEqual([
      { key_figures: 'Units at 30 June', f_2031: '58,214' },
      { key_figures: 'Value at 30 June', f_2031: '31,902,115' },
      { key_figures: 'Value per unit at 30 June', f_2031: '548.02' },
    ]);
  });
});

// Left-aligned header labels over figures set flush right, each column's figures ending just before the next label
// starts (invented figures).
describe('figures set flush right under left-aligned labels', () => {
  it('belong to the label they end under, not the nearer next one', () => {
    const words = [word('Site', 40, 58, 100), word('Area', 200, 222, 100), word('Beds', 262, 284, 100), word('Staff', 320, 345, 100)];
    const rows: [string, string, string, string][] = [
      ['Northmoor', '1,250.5', '48', '112'],
      ['Eastbrook', '980.0', '36', '97'],
      ['Lowfield', '2,004.25', '75', '180'],
    ];
    rows.forEach(([site, area, beds, staff], i) => {
      const y = 118 + i * 14;
      words.push(
        word(site, 40, 40 + site.length * 5, y),
        rightAligned(area, 258, y),
        rightAligned(beds, 316, y),
        rightAligned(staff, 372, y),
      );
    });
    const schema = tableSchema('sites', [
      ['site', 'Site'],
      ['area', 'Area'],
      ['beds', 'Beds'],
      ['staff', 'Staff'],
    ]);
    const got = extractFromLayout({ pages: [buildPage(1, 595, 842, words)] }, schema).result.sites as Record<string, string>[];
    expect(got).toEqual([
      { site: 'Northmoor', area: '1,250.5', beds: '48', staff: '112' },
      { site: 'Eastbrook', area: '980.0', beds: '36', staff: '97' },
      { site: 'Lowfield', area: '2,004.25', beds: '75', staff: '180' },
    ]);
  });
});
