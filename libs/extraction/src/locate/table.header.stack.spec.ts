import { describe, expect, it } from '@jest/globals';
import type { FieldDef } from '../engine.types.js';
import { makeLine } from '../layout/layout.builder.js';
import type { Line, Word } from '../layout/layout.types.js';
import { candidateBound, headerCandidates, openBound, openColumns } from './table.header.candidates.js';
import { HeaderStacks, beats, mayBeat, mergedLine, stackWords } from './table.header.stack.js';
import { matchHeader, type HeaderMatch } from './table.match.js';
import { named } from './table.model.js';

// Stacked header lines of an invented parts list: a group label over two wrapped leaves, a unit line, body rows.

const cols: FieldDef[] = [
  { key: 'part', label: 'Part name', data_type: 'string' },
  { key: 'quantity', label: 'Quantity', data_type: 'number' },
  { key: 'unit_price', label: 'Unit price', data_type: 'number' },
  { key: 'amount', label: 'Amount', data_type: 'number' },
  { key: 'storage_location', label: 'Storagelocation', data_type: 'string' },
];

const word = (text: string, x0: number, y: number): Word => ({ text, x0, x1: x0 + text.length * 6, y0: y, y1: y + 10, conf: 1 });
const line = (y: number, ...cells: [number, string][]): Line =>
  makeLine(
    cells.flatMap(([x, text]) => text.split(' ').map((t, i, all) => word(t, x + all.slice(0, i).join(' ').length * 6 + i * 6, y))),
    1,
  );

const lines: Line[] = [
  line(100, [60, 'Part'], [200, 'Unit'], [300, 'Storage']),
  line(112, [60, 'name'], [140, 'Quantity'], [200, 'price'], [260, 'Amount'], [300, 'location']),
  line(124, [200, 'EUR'], [260, 'EUR']),
  line(140, [60, 'Brass hinge'], [140, '12'], [200, '1.50'], [260, '18.00'], [300, 'Shelf 4']),
  line(152, [60, 'Oak dowel'], [140, '40'], [200, '0.20'], [260, '8.00'], [300, 'Shelf 9']),
  line(164, [60, 'Felt pad'], [140, '16'], [200, '0.10'], [260, '1.60'], [300, 'Drawer 2']),
];

/** Merging one line at a time, top down, each merge aligning the words on the merge so far. */
function mergedOneByOne(run: Line[]): Line {
  return run.slice(1).reduce((a: Line, b) => {
    const words = [...a.words, ...b.words].map((w) => ({ ...w })).sort((p, q) => p.x0 - q.x0);
    const y0 = Math.min(a.y0, b.y0);
    for (const w of words) Object.assign(w, { y0, y1: y0 + (a.y1 - a.y0) });
    return { ...a, words, y0, y1: Math.max(a.y1, b.y1), x0: Math.min(a.x0, b.x0), x1: Math.max(a.x1, b.x1), text: `${a.text} ${b.text}` };
  }, run[0]!);
}

describe('stacked header lines', () => {
  it('are merged at once as one line at a time would merge them, words in x order on the top row', () => {
    for (let last = 1; last < lines.length; last++)
      expect(mergedLine(lines.slice(0, last + 1))).toEqual(mergedOneByOne(lines.slice(0, last + 1)));
    const merged = mergedLine(lines.slice(0, 3));
    expect(merged.words.map((w) => w.text).slice(0, 4)).toEqual(['Part', 'name', 'Quantity', 'Unit']);
    expect(new Set(merged.words.map((w) => `${w.y0}-${w.y1}`))).toEqual(new Set(['100-122']));
  });

  it('keep each word on its printed row for their candidates, so a label wrapped over two rows is read row by row', () => {
    const printed = { words: stackWords(lines.slice(0, 2)) };
    const cands = headerCandidates(printed, cols);
    const storage = cands.filter((c) => c.ci === 4).map((c) => printed.words.slice(c.start, c.end).map((w) => w.text));
    expect(storage).toContainEqual(['Storage', 'location']);
    expect(cands.filter((c) => c.ci === 1)).not.toHaveLength(0);
  });

  it('open no column on body rows, and so bound their match to nothing', () => {
    const open = openColumns({ words: stackWords(lines.slice(3)) }, cols);
    expect(open.count).toBe(0);
    expect(openBound(open)).toEqual({ named: 0, score: 0 });
  });

  it('bound every match from above: named columns and score never exceed what the candidates allow', () => {
    for (let first = 0; first < lines.length; first++)
      for (let last = first + 1; last < lines.length; last++) {
        const run = lines.slice(first, last + 1);
        const printed = { words: stackWords(run) };
        const cands = headerCandidates(printed, cols);
        const m = matchHeader(mergedLine(run), cols, cands);
        const [byOpen, byCands] = [openBound(openColumns(printed, cols)), candidateBound(cands)];
        expect(named(m.columns)).toBeLessThanOrEqual(byCands.named);
        expect(m.score).toBeLessThanOrEqual(byCands.score + 1e-9);
        expect(byCands.named).toBeLessThanOrEqual(byOpen.named);
      }
  });

  it('are matched only when their words may beat the reading they compete with, and then read the same', () => {
    const stacks = new HeaderStacks(lines, cols);
    let skipped = 0;
    for (let first = 0; first < lines.length; first++) {
      const best: HeaderMatch = stacks.match(first, first);
      for (let last = first + 1; last < lines.length; last++) {
        const may = stacks.mayPass(first, last, (b) => mayBeat(b, best));
        const run = lines.slice(first, last + 1);
        const m = matchHeader(mergedLine(run), cols, headerCandidates({ words: stackWords(run) }, cols));
        if (!may) skipped++;
        if (beats(m, best)) expect(may).toBe(true);
        // (Words naming no column read as nothing: their unclaimed cells are no header.)
        if (named(m.columns) > 0) expect(stacks.match(first, last)).toEqual(m);
        else expect([named(stacks.match(first, last).columns), stacks.match(first, last).score, m.score]).toEqual([0, 0, 0]);
      }
    }
    // (Body rows under body rows name nothing: those stacks are never matched.)
    expect(skipped).toBeGreaterThan(0);
  });
});
