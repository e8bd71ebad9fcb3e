import { describe, expect, it } from '@jest/globals';
import type { RowBand } from './table.bands.js';
import { groupRows, type RowRules } from './table.rows.js';

/** A line 9 high at `y`, with text per column key; `spans` when printed at word spacing across the columns. */
const line = (y: number, cells: Record<string, string>, spans = false): RowBand => ({
  y0: y,
  y1: y + 9,
  textX0: 100,
  firstWord: Object.values(cells)[0]!.split(' ')[0]!,
  cells,
  spans,
});

// Every column typed as a string: the figures are known only from what the rows print.
const strings: RowRules = { numeric: new Set(), money: new Set(), columns: 5, firstKey: 'no', lh: 9 };

describe('notes under a table of string columns', () => {
  it('keeps rows set close (at word spacing across the columns) that print figures where the rows do, and drops the note', () => {
    const bands = [
      line(100, { no: '1', name: 'Ardent', site: 'North', hours: '4,120', share: '12.5 %' }),
      line(116, { no: '2', name: 'Brisk', site: 'South', hours: '880', share: '3.1 %' }),
      line(132, { no: '3', name: 'Copper mill', site: 'East', hours: '2,305', share: '$41.20' }, true),
      line(148, { no: '4', name: 'Dormant', site: 'West', hours: '517', share: '9.9 %' }, true),
      line(164, { no: '* Hours', name: 'as booked by the', site: 'sites at the', hours: 'end of the year.' }, true),
    ];
    const out = groupRows(bands, strings).map((g) => bands[g.anchor]!.cells.no);
    expect(out).toEqual(['1', '2', '3', '4']);
  });
});
