import { describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { makePdf } from '../testing/pdf.test-helper.js';
import { openPdfText } from '../readers/pdf.reader.js';
import { columnRules, rowRules } from './table.ruled.js';

// Ruled tables (borders drawn around the cells): the drawn lines, not the text's spacing, say where rows and columns
// end. Every text below is invented.

const schema = (cols: [string, string, 'string' | 'number'][]): ExtractionSchema => ({
  fields: [{ key: 'rows', data_type: 'table', fields: cols.map(([key, label, data_type]) => ({ key, label, data_type })) }],
});

async function extract(draw: (d: PDFKit.PDFDocument) => void, s: ExtractionSchema): Promise<unknown> {
  const bytes = await makePdf(draw, { margin: 0 });
  const engine = createExtractionEngine();
  try {
    return (await engine.extract({ bytes, mimeType: 'application/pdf', filename: 'ruled.pdf' }, s)).result.rows;
  } finally {
    await engine.close();
  }
}

/** Horizontal rules across x0 … x1 at each y, and vertical ones from y0 to y1 at each x. */
function grid(d: PDFKit.PDFDocument, xs: number[], ys: number[]): void {
  d.lineWidth(0.5);
  for (const y of ys)
    d.moveTo(xs[0]!, y)
      .lineTo(xs[xs.length - 1]!, y)
      .stroke();
  for (const x of xs)
    d.moveTo(x, ys[0]!)
      .lineTo(x, ys[ys.length - 1]!)
      .stroke();
}

describe('ruled tables', () => {
  it('a row is what lies between two rules: wrapped lines above a row’s centred figures belong to it', async () => {
    // Every line is 12 units below the last, so neither the spacing nor the text tells where the first row ends.
    const rows = await extract(
      (d) => {
        d.fontSize(9);
        d.text('Activity', 52, 82, { lineBreak: false }).text('Hours', 252, 82, { lineBreak: false });
        // (Row two opens in lower case, as a wrapped cell's next line does.)
        const desc = ['Survey of the east', 'meadow and its', 'hedges', 'mowing of the', 'north lane and', 'its verges'];
        desc.forEach((t, i) => d.text(t, 52, 100 + i * 12, { lineBreak: false }));
        d.text('6', 252, 112, { lineBreak: false }).text('9', 252, 148, { lineBreak: false });
        grid(d, [50, 250, 330], [78, 94, 133, 170]);
      },
      schema([
        ['activity', 'Activity', 'string'],
        ['hours', 'Hours', 'number'],
      ]),
    );
    expect(rows).toEqual([
      { activity: 'Survey of the east meadow and its hedges', hours: 6 },
      { activity: 'mowing of the north lane and its verges', hours: 9 },
    ]);
  });

  it('a text set close to the next column is no note running across the grid when a border stands between them', async () => {
    const rows = await extract(
      (d) => {
        d.fontSize(9);
        d.text('Site', 52, 82, { lineBreak: false })
          .text('Remark', 152, 82, { lineBreak: false })
          .text('Count', 302, 82, { lineBreak: false });
        const data = [
          ['Harbour', 'all clear', '4'],
          ['Old mill yard west', 'wet ground', '7'],
          ['Chapel field north', 'gate broken', '2'],
        ];
        data.forEach(([a, b, c], i) => {
          const y = 100 + i * 16;
          // The site's text ends a few units before the border at 150 and the remark (another face) starts just after it.
          d.font('Helvetica').text(a!, 147 - d.widthOfString(a!), y, { lineBreak: false });
          d.font('Times-Roman').text(b!, 153, y, { lineBreak: false });
          d.font('Helvetica').text(c!, 302, y, { lineBreak: false });
        });
        grid(d, [50, 150, 300, 360], [78, 94, 112, 128, 144]);
      },
      schema([
        ['site', 'Site', 'string'],
        ['remark', 'Remark', 'string'],
        ['count', 'Count', 'number'],
      ]),
    );
    expect(rows).toEqual([
      { site: 'Harbour', remark: 'all clear', count: 4 },
      { site: 'Old mill yard west', remark: 'wet ground', count: 7 },
      { site: 'Chapel field north', remark: 'gate broken', count: 2 },
    ]);
  });
});

describe('tables ruled row by row', () => {
  it('a cell wrapped onto a line that fills two columns is still one row between two rules', async () => {
    const rows = await extract(
      (d) => {
        d.fontSize(9);
        d.text('Animal', 52, 82, { lineBreak: false }).text('Action', 152, 82, { lineBreak: false });
        d.text('Call', 252, 82, { lineBreak: false });
        const lines: [string, string, string, number][] = [
          ['Owl', 'Says', 'Hoot', 100],
          ['Grey heron and', 'Says', 'Croak', 120],
          ['Young herons', '', 'hiss', 132],
          ['Duck', 'Says', 'Quack quack', 152],
          ['', '', 'quack quack', 164],
          ['', '', 'quack quack', 176],
          ['', '', 'quack', 188],
        ];
        for (const [a, b, c, y] of lines) {
          if (a) d.text(a, 52, y, { lineBreak: false });
          if (b) d.text(b, 152, y, { lineBreak: false });
          d.text(c, 252, y, { lineBreak: false });
        }
        grid(d, [50, 150, 250, 350], [78, 94, 114, 146, 200]);
      },
      schema([
        ['animal', 'Animal', 'string'],
        ['action', 'Action', 'string'],
        ['call', 'Call', 'string'],
      ]),
    );
    expect(rows).toEqual([
      { animal: 'Owl', action: 'Says', call: 'Hoot' },
      { animal: 'Grey heron and Young herons', action: 'Says', call: 'Croak hiss' },
      { animal: 'Duck', action: 'Says', call: 'Quack quack quack quack quack quack quack' },
    ]);
  });
});

describe('reading rules off the page', () => {
  it('reads stroked lines, thin filled bars and the edges of shaded boxes; not short ticks or curves', async () => {
    const bytes = await makePdf(
      (d) => {
        d.fontSize(9).text('Ruled page', 50, 40, { lineBreak: false });
        d.lineWidth(0.5).moveTo(50, 100).lineTo(300, 100).stroke();
        d.rect(50, 150, 250, 1).fill();
        d.rect(50, 200, 100, 40).fill('#dddddd');
        d.lineWidth(0.5).moveTo(50, 300).lineTo(54, 300).stroke();
        d.circle(200, 400, 30).stroke();
      },
      { margin: 0 },
    );
    const pdf = await openPdfText(bytes);
    await pdf.withRules([1]);
    const rules = pdf.layout.pages[0]!.rules!;
    await pdf.close();
    const horizontal = rules.filter((r) => r.x1 - r.x0 > r.y1 - r.y0).map((r) => [Math.round(r.x0), Math.round(r.y0), Math.round(r.x1)]);
    expect(horizontal).toEqual(
      expect.arrayContaining([
        [50, 100, 300],
        [50, 150, 300],
        [50, 200, 150],
        [50, 240, 150],
      ]),
    );
    expect(horizontal).toHaveLength(4);
    expect(rules.filter((r) => r.y1 - r.y0 > r.x1 - r.x0)).toHaveLength(2);
  });

  it('joins a line drawn cell by cell, and counts only lines across most of the table', () => {
    const pieces = [
      { x0: 50, y0: 100, x1: 150, y1: 100 },
      { x0: 150, y0: 100.2, x1: 250, y1: 100.2 },
      { x0: 250, y0: 100, x1: 350, y1: 100 },
      { x0: 50, y0: 130, x1: 120, y1: 130 },
      { x0: 200, y0: 60, x1: 200, y1: 90 },
      { x0: 200, y0: 90, x1: 200, y1: 160 },
    ];
    expect(rowRules(pieces, 50, 350).map(Math.round)).toEqual([100]);
    expect(columnRules(pieces, 95, 150)).toEqual([{ x: 200, y0: 95, y1: 150 }]);
  });
});
