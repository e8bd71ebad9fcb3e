import { describe, expect, it } from '@jest/globals';
import { makePdf } from '../testing/pdf.test-helper.js';
import { pageQuarter, runQuarter, turnPoint, turnWord } from './pdf.orientation.js';
import { readPdf } from './pdf.reader.js';

const up = [0, -10, 10, 0, 50, 700]; // a run reading up the sheet (y down)
const down = [0, 10, -10, 0, 50, 100];
const flat = [10, 0, 0, 10, 50, 100];

describe('pdf orientation', () => {
  it('names the turn that makes a run read left to right', () => {
    expect([runQuarter(flat), runQuarter(up), runQuarter([-10, 0, 0, -10, 0, 0]), runQuarter(down)]).toEqual([0, 1, 2, 3]);
  });

  it('turns a page only when a clear majority of its characters run one turned way', () => {
    expect(
      pageQuarter([
        { tx: up, chars: 80 },
        { tx: flat, chars: 20 },
      ]),
    ).toBe(1);
    expect(
      pageQuarter([
        { tx: up, chars: 50 },
        { tx: flat, chars: 50 },
      ]),
    ).toBe(0);
    expect(pageQuarter([{ tx: down, chars: 9 }])).toBe(3);
    expect(pageQuarter([])).toBe(0);
  });

  it('maps points and boxes into the turned frame and back', () => {
    expect(turnPoint(1, 600, 800, 10, 20)).toEqual([780, 10]);
    expect(turnPoint(3, 600, 800, 10, 20)).toEqual([20, 590]);
    const box = { x0: 10, y0: 20, x1: 60, y1: 30 };
    const turned = turnWord(box, 1, 600, 800);
    expect(turnWord(turned, 3, 800, 600)).toEqual(box);
  });

  it('reads a table printed up the sheet as horizontal lines, with the sheet size turned', async () => {
    const pdf = await makePdf((doc) => {
      doc.fontSize(10);
      const rows = [
        ['Colour', 'Count', 'Share'],
        ['Amber', '12', '40%'],
        ['Teal', '18', '60%'],
      ];
      rows.forEach((cells, r) =>
        cells.forEach((text, c) => {
          doc.save();
          doc.rotate(-90, { origin: [100 + r * 20, 500 - c * 90] });
          doc.text(text, 100 + r * 20, 500 - c * 90, { lineBreak: false });
          doc.restore();
        }),
      );
    });
    const page = (await readPdf(pdf)).pages[0];
    expect(page.turned).toBe(1);
    expect(page.width).toBeGreaterThan(page.height);
    expect(page.lines.map((l) => l.words.map((w) => w.text).join(' '))).toEqual(['Colour Count Share', 'Amber 12 40%', 'Teal 18 60%']);
  });
});
