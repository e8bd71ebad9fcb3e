import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { buildPage } from '../layout/layout.builder.js';
import type { Word } from '../layout/layout.types.js';

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
