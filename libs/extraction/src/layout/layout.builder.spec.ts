import { describe, expect, it } from '@jest/globals';
import { buildPage, skewOf } from './layout.builder.js';
import type { Word } from './layout.types.js';

/** Rows of words 24 px high, 36 px apart, each row rising `slope` px per px to the right. */
function slanted(rows: string[], slope: number): Word[] {
  const words: Word[] = [];
  rows.forEach((row, i) => {
    let x = 40;
    for (const t of row.split(' ')) {
      const w = t.length * 14;
      const dy = slope * (x + w / 2);
      words.push({ text: t, x0: x, x1: x + w, y0: 400 + i * 36 + dy, y1: 424 + i * 36 + dy, conf: 0.9 });
      x += w + 12;
    }
  });
  return words;
}

const rows = [
  'SUNRISE PETROL STATION KIOSK',
  'Company No: 998877-K branch office',
  'LOT 5, JALAN BESAR 4, TAMAN MAJU JAYA',
  '81990 PEKAN ZETA JOHOR DARUL TAKZIM',
  'Telephone: 071234567 Fax: 071234568',
];

describe('layout builder', () => {
  it('keeps the words of slanted OCR lines on their own lines', () => {
    const words = slanted(rows, -0.05);
    expect(skewOf(words)).toBeCloseTo(-0.05, 2);
    expect(buildPage(1, 1000, 1000, words, true).lines.map((l) => l.text)).toEqual(rows);
  });

  it('leaves straight pages and text layers alone', () => {
    expect(skewOf(slanted(rows, 0))).toBe(0);
    expect(buildPage(1, 1000, 1000, slanted(rows, 0), true).lines.map((l) => l.text)).toEqual(rows);
    expect(skewOf([])).toBe(0);
  });

  it('joins an OCR word whose box grew upwards (touching a rule above) to the line it sits on', () => {
    const word = (text: string, x0: number, y0: number): Word => ({ text, x0, x1: x0 + text.length * 14, y0, y1: 530, conf: 0.9 });
    const words = [
      word('RULE-TOUCHING', 40, 470),
      word('28-03-18', 260, 500),
      word('18:05', 390, 500),
      word('T2', 480, 466),
      word('R000246362', 530, 500),
    ];
    words.push(
      { text: 'OPERATOR', x0: 40, x1: 152, y0: 545, y1: 575, conf: 0.9 },
      { text: 'CASHIER', x0: 170, x1: 268, y0: 545, y1: 575, conf: 0.9 },
    );
    expect(buildPage(1, 1000, 1000, words, true).lines.map((l) => l.text)).toEqual([
      'RULE-TOUCHING 28-03-18 18:05 T2 R000246362',
      'OPERATOR CASHIER',
    ]);
  });

  it('drops lone vertical bars (rules, box edges) from OCR pages, not from text layers', () => {
    const line = ['CONTOH,', '|', '12345', 'BANDAR', '¦|', 'HARAPAN'].map((text, i): Word => ({
      text,
      x0: 40 + i * 120,
      x1: 140 + i * 120,
      y0: 500,
      y1: 524,
      conf: 0.9,
    }));
    expect(buildPage(1, 1000, 1000, line, true).lines.map((l) => l.text)).toEqual(['CONTOH, 12345 BANDAR HARAPAN']);
    expect(buildPage(1, 1000, 1000, line, false).lines.map((l) => l.text)).toEqual(['CONTOH, | 12345 BANDAR ¦| HARAPAN']);
  });
});
