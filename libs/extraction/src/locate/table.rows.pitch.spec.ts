import { describe, expect, it } from '@jest/globals';
import type { RowBand } from './table.bands.js';
import type { RowRules } from './table.rows.js';
import { line as anyLine, rows } from '../testing/row-bands.test-helper.js';

/** A line 9 high at `y`, with text per column key. */
const line = (y: number, cells: Record<string, string>): RowBand => anyLine(y, cells, 9);

const labelled: RowRules = { numeric: new Set(), money: new Set(), columns: 3, firstKey: 'label', lh: 9 };

describe('rows set further apart than lines', () => {
  it('gives a row label wrapped above its figures (a bottom-aligned cell) to the row whose figures end it', () => {
    // Lines 12.5 apart within a cell (gap 3.5), rows 16.5 apart (gap 7.5).
    const out = rows(
      [
        line(100, { label: 'Ardent', site: 'North', qty: '12' }),
        line(116.5, { label: 'Brisk', site: 'South', qty: '7' }),
        line(133, { label: 'Copper Lantern' }),
        line(145.5, { label: 'Dormant Quay' }),
        line(158, { label: 'Works', site: 'East', qty: '4' }),
        line(174.5, { label: 'Elm', site: 'West', qty: '9' }),
        line(191, { label: 'Fjord', site: 'Inland', qty: '2' }),
      ],
      labelled,
    );
    expect(out).toEqual([
      { label: 'Ardent', site: 'North', qty: '12' },
      { label: 'Brisk', site: 'South', qty: '7' },
      { label: 'Copper Lantern Dormant Quay Works', site: 'East', qty: '4' },
      { label: 'Elm', site: 'West', qty: '9' },
      { label: 'Fjord', site: 'Inland', qty: '2' },
    ]);
  });

  it('keeps a section heading set as close to its rows as they are to each other a row of its own', () => {
    const out = rows(
      [
        line(100, { label: 'Ardent', site: 'North', qty: '12' }),
        line(116.5, { label: 'Brisk', site: 'South', qty: '7' }),
        line(140, { label: 'Copper Lantern' }),
        line(152.5, { label: 'Dormant', site: 'East', qty: '4' }),
        line(165, { label: 'Elm', site: 'West', qty: '9' }),
        line(177.5, { label: 'Fjord', site: 'Inland', qty: '2' }),
        line(190, { label: 'Grove', site: 'Coast', qty: '5' }),
      ],
      labelled,
    );
    expect(out.map((r) => r.label)).toEqual(['Ardent', 'Brisk', 'Copper Lantern', 'Dormant', 'Elm', 'Fjord', 'Grove']);
  });
});
