import { describe, expect, it } from '@jest/globals';
import type { FieldDef } from '../engine.types.js';
import { makeLine } from '../layout/layout.builder.js';
import type { Line, Word } from '../layout/layout.types.js';
import { HeaderStacks, beats } from './table.header.stack.js';

// Headings that share a word, as an invented stock ledger prints them: "Moved" over "out" beside "Moved in".

const cols: FieldDef[] = [
  { key: 'day', label: 'Day', data_type: 'string' },
  { key: 'item', label: 'Item', data_type: 'string' },
  { key: 'moved_out', label: 'Moved out', data_type: 'string' },
  { key: 'moved_in', label: 'Moved in', data_type: 'string' },
  { key: 'stock', label: 'Stock', data_type: 'string' },
];

const word = (text: string, x0: number, y: number): Word => ({ text, x0, x1: x0 + text.length * 5, y0: y, y1: y + 8, conf: 1 });
const line = (y: number, ...cells: [number, string][]): Line =>
  makeLine(
    cells.flatMap(([x, text]) => text.split(' ').map((t, i, all) => word(t, x + all.slice(0, i).join(' ').length * 5 + i * 5, y))),
    1,
  );

describe('headings sharing a word', () => {
  it('read a lower word with the heading it stands under, and place each heading at its own cell', () => {
    const lines = [line(100, [60, 'Day'], [110, 'Item'], [250, 'Moved'], [300, 'Moved in'], [360, 'Stock']), line(110, [255, 'out'])];
    const stacks = new HeaderStacks(lines, cols);
    const oneLine = stacks.match(0, 0);
    const stacked = stacks.match(0, 1);
    expect(beats(stacked, oneLine)).toBe(true);
    const at = Object.fromEntries(stacked.columns.map((c) => [c.field?.key, c.x0]));
    expect(at['moved_out']).toBe(250);
    expect(at['moved_in']).toBe(300);
  });

  it('on one row, re-read as the schema orders them when that costs no score', () => {
    const lines = [line(100, [60, 'Day'], [110, 'Item'], [250, 'Moved out'], [330, 'Moved'], [380, 'Stock']), line(110, [335, 'in'])];
    for (const m of [new HeaderStacks(lines, cols).match(0, 0), new HeaderStacks(lines, cols).match(0, 1)]) {
      const at = Object.fromEntries(m.columns.map((c) => [c.field?.key, c.x0]));
      expect(at['moved_out']).toBe(250);
      expect(at['moved_in']).toBe(330);
    }
  });
});
