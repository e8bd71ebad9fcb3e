import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { buildPage, makeLine } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { findHeaders } from './table.header.js';

// Header cells printed close together, and a word the PDF splits around a ligature. Invented items and figures.

const schema: ExtractionSchema = {
  fields: [
    {
      key: 'line_items',
      data_type: 'table',
      fields: [
        { key: 'description', label: 'Description', data_type: 'string' },
        { key: 'quantity', label: 'Quantity', data_type: 'number' },
        { key: 'unit_price', label: 'Unit price', data_type: 'number' },
        { key: 'amount', label: 'Amount', data_type: 'number' },
      ],
    },
  ],
};

const word = (text: string, x0: number, x1: number, y: number): Word => ({ text, x0, x1, y0: y, y1: y + 12, conf: 1 });

/** "Tax" and "Amount" set 16 pt apart (one segment at the usual cell gap); "Coffee" printed as "Co" "ff" "ee". */
function page(): Word[] {
  const words = [
    word('Description', 86, 140, 336),
    word('Quantity', 274, 318, 336),
    word('Unit', 363, 382, 336),
    word('price', 385, 410, 336),
    word('Tax', 470, 493, 336),
    word('Amount', 509, 552, 336),
  ];
  const rows: [string[], string, string, string, string][] = [
    [['Co', 'ff', 'ee'], '10', '5.00', '10.00', '50.00'],
    [['Tea'], '2', '4.00', '1.60', '8.00'],
    [['Su', 'ff', 'olk', 'cheese'], '3', '2.00', '1.20', '6.00'],
  ];
  rows.forEach(([desc, q, p, t, a], i) => {
    const y = 361 + i * 25;
    let x = 86;
    desc.forEach((d, k) => {
      const w = d.length * 6;
      // (Ligature runs abut; a new word follows a space.)
      if (k > 0 && !['ff', 'ee', 'olk'].includes(d)) x += 5;
      words.push(word(d, x, x + w, y));
      x += w;
    });
    words.push(word(q, 300, 318, y), word(p, 388, 410, y), word(t, 475, 493, y), word(a, 525, 552, y));
  });
  return words;
}

describe('header cells set close together', () => {
  it('keeps an unclaimed cell beside a claimed one as its own column, and a word split at a ligature whole', () => {
    const out = extractFromLayout({ pages: [buildPage(1, 612, 792, page())] }, schema);
    expect(out.result.line_items).toEqual([
      { description: 'Coffee', quantity: 10, unit_price: 5, amount: 50 },
      { description: 'Tea', quantity: 2, unit_price: 4, amount: 8 },
      { description: 'Suffolk cheese', quantity: 3, unit_price: 2, amount: 6 },
    ]);
  });
});

// Invented words on hand-set positions (points): a two-line caption, a header whose last cell wraps, two rows.
const hword = (text: string, x0: number, x1: number, y: number): Word => ({ text, x0, x1, y0: y, y1: y + 8, conf: 1 });
const line = (y: number, ws: [string, number, number][]) =>
  makeLine(
    ws.map(([t, a, b]) => hword(t, a, b, y)),
    1,
  );

describe('the header under a caption', () => {
  it('a caption sentence naming a column opens no header: the wrapped header below it is the header', () => {
    const lines = [
      line(103, [
        ['to', 80, 88],
        ['the', 92, 104],
        ['survey', 108, 134],
        ['question', 138, 172],
        ['we', 176, 188],
        ['add', 192, 206],
        ['the', 210, 222],
        ['average', 226, 258],
        ['gain', 262, 280],
      ]),
      line(115, [
        ['and', 80, 94],
        ['the', 98, 110],
        ['average', 114, 145],
        ['fraction', 149, 182],
        ['of', 182, 190],
        ['nests', 194, 216],
        ['lost', 220, 236],
        ['are', 240, 252],
        ['reported.', 256, 292],
      ]),
      line(125, [
        ['Count', 237, 259],
        ['Share', 306, 330],
        ['Mean', 376, 397],
        ['Gain', 402, 420],
        ['Fraction', 445, 482],
        ['of', 495, 503],
      ]),
      line(137, [
        ['Nests', 445, 470],
        ['Lost', 479, 497],
      ]),
      line(152, [
        ['Kept', 80, 98],
        ['on', 102, 112],
        ['site', 116, 132],
        ['344', 237, 252],
        ['75.2', 306, 324],
        ['12196', 376, 401],
        ['17.4%', 445, 471],
      ]),
      line(164, [
        ['Moved', 80, 104],
        ['away', 108, 128],
        ['53', 237, 247],
        ['11.6', 306, 324],
        ['23518', 376, 401],
        ['22.5%', 445, 471],
      ]),
    ];
    const doc: DocLayout = { pages: [{ number: 1, width: 595, height: 842, lines, blocks: [] }] } as unknown as DocLayout;
    const field = {
      key: 'table_1',
      data_type: 'table' as const,
      fields: [
        { key: 'row_label', label: 'Row label', data_type: 'string' as const },
        { key: 'count', label: 'Count', data_type: 'number' as const },
        { key: 'share', label: 'Share', data_type: 'number' as const },
        { key: 'gain', label: 'Mean Gain', data_type: 'number' as const },
        { key: 'portion', label: 'Fraction of Nests Lost', data_type: 'string' as const },
      ],
    };
    const [best] = findHeaders(doc, field);
    expect(best!.lineIndex).toBe(2);
    const fraction = best!.columns.find((c) => c.field?.key === 'portion')!;
    expect(fraction.x0).toBeGreaterThanOrEqual(445);
  });
});
