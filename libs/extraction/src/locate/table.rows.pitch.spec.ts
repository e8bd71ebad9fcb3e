import { describe, expect, it } from '@jest/globals';
import { mergeBands, type RowBand } from './table.bands.js';
import { groupRows, type RowRules } from './table.rows.js';

/** A line 9 high at `y`, with text per column key. */
const line = (y: number, cells: Record<string, string>): RowBand => ({
  y0: y,
  y1: y + 9,
  textX0: 100,
  firstWord: Object.values(cells)[0]!.split(' ')[0]!,
  cells,
});

function rows(lines: RowBand[], rules: RowRules): Record<string, string>[] {
  const bands = mergeBands(lines);
  return groupRows(
    bands.map((b) => b.band),
    rules,
  ).map((g) => {
    const out: Record<string, string> = {};
    for (const i of g.members) for (const [k, v] of Object.entries(bands[i]!.band.cells)) out[k] = out[k] ? `${out[k]} ${v}` : v;
    return out;
  });
}

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
