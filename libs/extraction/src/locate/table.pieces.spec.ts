import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { invoiceSchema, L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';
import { hasAmount } from './table.header.js';

// An item table whose amounts are set on the decimal comma in math mode (LaTeX's dcolumn): each figure comes from the
// PDF in pieces, "2" "." "640" "," "00", printed without a space. Overleaf the first row stands close under the header
// printed again. Every name and figure is invented.

const S = 10;

/** A figure right-aligned at x, printed in pieces as math mode sets it: "2" "." "640" "," "00", side by side (each
 * character half the size wide, as layoutOf boxes them). */
const pieces = (x: number, y: number, figure: string): Item[] => {
  let right = x;
  return figure
    .match(/\d+|[.,]/g)!
    .reverse()
    .map((p) => {
      const item = R(right, y, p, S);
      right -= p.length * S * 0.5;
      return item;
    });
};

const head = (y: number): Item[] => [
  L(74, y, 'Bezeichnung', S, true),
  R(369, y, 'Stunden', S, true),
  L(381, y, 'Einheit', S, true),
  L(431, y, 'MwSt.', S, true),
  R(521, y, 'Gesamt', S, true),
];
const row = (y: number, [d, q, a]: [string, string, string]): Item[] => [
  L(74, y, d, S),
  R(369, y, q, S),
  L(381, y, 'h', S),
  L(439, y, '19 %', S),
  ...pieces(521, y, a),
];

describe('a table whose figures come in pieces', () => {
  it('reads a line with an amount in pieces as a row printing an amount (no header line)', () => {
    const [line] = layoutOf([row(100, ['Softwarepflege Korvale', '8', '2.640,00'])]).pages[0]!.lines;
    expect(line!.words.map((w) => w.text)).toContain('640');
    expect(hasAmount(line!)).toBe(true);
    // (Figures apart are no amount: "2 640" with a space, a count and a page number.)
    const [apart] = layoutOf([[L(74, 100, 'Seite 2 640', S)]]).pages[0]!.lines;
    expect(hasAmount(apart!)).toBe(false);
  });

  it('reads the first row under a header repeated overleaf as a row, not as a second line of that header', () => {
    const first: [string, string, string][] = [
      ['Beratung vor Ort', '22', '2.640,00'],
      ['Konzeption Velmor', '3,5', '420,00'],
      ['Umsetzung Tessin', '12', '1.440,00'],
    ];
    const second: [string, string, string][] = [
      ['Softwarepflege Korvale', '8', '960,00'],
      ['Schulung Brandt', '4', '480,00'],
    ];
    const page1 = [
      L(74, 50, 'Korvale Brandt', 14, true),
      L(74, 120, 'Velmora Tessin GmbH', S),
      L(74, 190, 'Rechnung 2031-017', 14, true),
      ...head(240),
      ...first.flatMap((r, i) => row(262 + i * 19, r)),
    ];
    const page2 = [
      ...head(74),
      ...second.flatMap((r, i) => row(90 + i * 19, r)),
      L(380, 140, 'Gesamtbetrag', S, true),
      R(521, 140, '5.940,00', S, true),
    ];
    const out = extractFromLayout(layoutOf([page1, page2]), invoiceSchema);
    const rows = (out.result.line_items as Record<string, unknown>[]).map((r) => [r.description, r.amount]);
    expect(rows).toEqual([
      ['Beratung vor Ort', 2640],
      ['Konzeption Velmor', 420],
      ['Umsetzung Tessin', 1440],
      ['Softwarepflege Korvale', 960],
      ['Schulung Brandt', 480],
    ]);
  });
});
