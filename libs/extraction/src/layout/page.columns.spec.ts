import { describe, expect, it } from '@jest/globals';
import { readText } from '../readers/text.reader.js';
import { columnGutter, textColumns } from './page.columns.js';

// Invented pages of monospaced text.
const pageOf = (lines: string[]) => readText(new TextEncoder().encode(lines.join('\n'))).pages[0]!;

const twoColumns = [
  'A short note on the garden and its      The hedges were cut back in the spring',
  'trees, written for the members of the   and the paths laid with fresh gravel.',
  'club who could not visit this year.     Next year the pond will be cleaned and',
  'The orchard gave a fair crop of pears   the old bench by the gate replaced by',
  'and the plums ripened early in the      a new one made from oak. Members are',
  'warm weeks of late summer this time.    welcome to help on the working days.',
  'Two new apple trees were planted by     The dates will be sent out by letter',
  'the wall where the old shed once was.   some weeks before each working day.',
];

describe('pages set in two text columns', () => {
  it('finds the gutter and gives each column its own lines, the left first', () => {
    const page = pageOf(twoColumns);
    expect(columnGutter(page)).toBeDefined();
    const [left, right] = textColumns(page)!;
    expect(left.map((l) => l.text)[0]).toBe('A short note on the garden and its');
    expect(right.map((l) => l.text)[0]).toBe('The hedges were cut back in the spring');
    expect(left).toHaveLength(8);
    expect(right).toHaveLength(8);
  });

  it('finds none on a page of running text in one column, nor in a table of one column’s width', () => {
    const oneColumn = twoColumns.map((l) => l.replace(/\s{2,}/g, ' '));
    expect(textColumns(pageOf(oneColumn))).toBeUndefined();
    const table = ['Item        Count', 'Pears          12', 'Plums           9', 'Apples          4'];
    expect(textColumns(pageOf([...oneColumn, ...table]))).toBeUndefined();
  });
});
