import { describe, expect, it } from '@jest/globals';
import { makePdf } from '../testing/pdf.test-helper.js';
import { pageQuarter, runQuarter, turnPoint, turnWord } from './pdf.orientation.js';
import { readPdf } from './pdf.reader.js';
import { createExtractionEngine } from '../extraction.engine.js';

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

  it("reports a turned page's field boxes on the page as printed", async () => {
    const pdf = await makePdf((doc) => {
      doc.fontSize(10);
      doc.save();
      doc.rotate(-90, { origin: [100, 500] });
      doc.text('Total: 42.00', 100, 500, { lineBreak: false });
      doc.text('Reference: Q-1', 100, 515, { lineBreak: false });
      doc.text('Notes: printed up the sheet for a wide layout', 100, 530, { lineBreak: false });
      doc.restore();
    });
    const engine = createExtractionEngine();
    const out = await engine.extract(
      { bytes: pdf, mimeType: 'application/pdf', filename: 't.pdf' },
      {
        fields: [{ key: 'total', label: 'Total', data_type: 'number' }],
      },
    );
    await engine.close();
    expect(out.result.total).toBe(42);
    const [x0, y0, x1, y1] = out.fields.total!.bbox!;
    // Printed up the sheet from (100, 500): on the page the value stands in a tall, narrow box above that point.
    expect(y1 - y0).toBeGreaterThan(x1 - x0);
    expect(y1).toBeLessThanOrEqual(501);
    expect(x0).toBeGreaterThan(85);
    expect(x1).toBeLessThan(125);
  });

  it('boxes a run printed up an upright page where it stands, so its words join no line of the upright text', async () => {
    const pdf = await makePdf((doc) => {
      doc.fontSize(10);
      doc.text('Town', 50, 200, { lineBreak: false });
      doc.save();
      doc.rotate(-90, { origin: [150, 210] });
      doc.text('Registered voters', 150, 210, { lineBreak: false });
      doc.restore();
      doc.text('Ashvale', 50, 230, { lineBreak: false }).text('963', 150, 230, { lineBreak: false });
      doc.text('Brookmere', 50, 245, { lineBreak: false }).text('412', 150, 245, { lineBreak: false });
    });
    const page = (await readPdf(pdf)).pages[0]!;
    expect(page.turned).toBeUndefined();
    const texts = page.lines.map((l) => l.text);
    expect(texts).toContain('Ashvale 963');
    expect(texts).toContain('Brookmere 412');
    const voters = page.lines.flatMap((l) => l.words).find((w) => w.text === 'voters')!;
    // Printed upwards from (150, 210): a tall, narrow box above that point.
    expect(voters.y1 - voters.y0).toBeGreaterThan(voters.x1 - voters.x0);
    expect(voters.y1).toBeLessThan(211);
  });

  it('reads a row of captions printed up the page over their columns as one upright header line, a word per caption', async () => {
    const captions = ['Units sold', 'Returned items', 'Open orders'];
    const pdf = await makePdf((doc) => {
      doc.fontSize(9);
      // (Most of the page's text upright, so the page itself is not turned.)
      doc.text('Quarterly report of the northern district branches', 50, 150, { lineBreak: false });
      doc.text('Town', 50, 200, { lineBreak: false });
      captions.forEach((c, i) => {
        doc.save();
        doc.rotate(-90, { origin: [150 + i * 40, 210] });
        doc.text(c, 150 + i * 40, 210, { lineBreak: false });
        doc.restore();
      });
      doc.text('Ashvale', 50, 225, { lineBreak: false });
      ['963', '12', '40'].forEach((n, i) => doc.text(n, 150 + i * 40, 225, { lineBreak: false }));
    });
    const page = (await readPdf(pdf)).pages[0]!;
    const header = page.lines.find((l) => l.words.some((w) => w.text === 'Units sold'))!;
    expect(header.words.map((w) => w.text)).toEqual(['Town', ...captions]);
    expect(page.lines.map((l) => l.text)).toContain('Ashvale 963 12 40');
  });

  it('leaves fewer turned captions than a header row word by word (a margin note is no header)', async () => {
    const pdf = await makePdf((doc) => {
      doc.fontSize(9);
      doc.save();
      doc.rotate(-90, { origin: [20, 400] });
      doc.text('Printed on recycled paper', 20, 400, { lineBreak: false });
      doc.restore();
      doc.text('Ashvale 963', 50, 225, { lineBreak: false });
    });
    const words = (await readPdf(pdf)).pages[0]!.lines.flatMap((l) => l.words.map((w) => w.text));
    expect(words).toContain('recycled');
    expect(words).not.toContain('Printed on recycled paper');
  });
});
