import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';

// A printed label that runs on past the schema's label to a colon of its own ("Total Qty:" for "Total") asks another
// question: its value is not the field's (all text invented).

/** A receipt as an OCR page: one-cell lines centred, a two-cell line's last cell right-aligned. */
function ocrReceipt(lines: string[]): DocLayout {
  const [width, size] = [600, 18];
  const cw = size * 0.55;
  const words: Word[] = [];
  let y = 60;
  for (const line of lines) {
    const place = (text: string, x0: number) => {
      let x = x0;
      for (const t of text.split(' ')) {
        words.push({ text: t, x0: x, x1: x + t.length * cw, y0: y, y1: y + size, conf: 0.9 });
        x += t.length * cw + size * 0.45;
      }
    };
    const cells = line.split(/\s{2,}/);
    if (cells.length === 1) place(line, Math.max(20, (width - line.length * cw) / 2));
    else {
      place(cells[0]!, 30);
      place(cells[1]!, width - 30 - cells[1]!.length * cw);
    }
    y += size * 1.7;
  }
  return { pages: [buildPage(1, width, y + 80, words, true)] };
}

const schema = {
  fields: [
    { key: 'date', label: 'Date', data_type: 'date' as const },
    { key: 'total', label: 'Total', data_type: 'number' as const, description: 'Total amount paid.' },
  ],
};

describe('a printed label running on to its own colon', () => {
  it('is another label: an item count is no total', () => {
    const head = ['KEDAI ROTI MANIS', 'Date: 11/04/2018', 'ROTI  2  10.00'];
    for (const body of [
      ['Total Qty: 2', 'GRAND TOTAL  10.00'],
      ['Total Items: 3', 'GRAND TOTAL  10.00', 'CASH  20.00', 'CHANGE  10.00'],
      ['GRAND TOTAL  10.00', 'Total Qty: 2'],
    ])
      expect(extractFromLayout(ocrReceipt([...head, ...body]), schema).result.total).toBe(10);
  });

  it('is another label: a date received is not the date asked for', () => {
    const got = extractFromLayout(ocrReceipt(['ORDER FORM', 'Date Received: 04/11/1993', 'Date: 05/11/1993', 'Total  12.00']), schema);
    expect(got.result.date).toBe('1993-11-05');
  });
});
