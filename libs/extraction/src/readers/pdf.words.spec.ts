import { describe, expect, it } from '@jest/globals';
import { makePdf } from '../testing/pdf.test-helper.js';
import { readPdf } from './pdf.reader.js';
import { fontFamilyOf, runWords } from './pdf.words.js';

// Word boxes of a text run. A PDF program that moves to the next table cell by a small step gets one text run for
// both cells from the text layer ("KX-40211 Velmor cable set" with one space): shared evenly among the characters,
// the wide capitals and figures of the code push the description's words away from where they are printed.

describe('word boxes of a text run', () => {
  it('a run joining two cells keeps the second cell where it is printed (standard metrics, not even shares)', async () => {
    const size = 8;
    let codeEnd = 0;
    let descX = 0;
    const bytes = await makePdf(
      (d) => {
        d.font('Helvetica').fontSize(size);
        codeEnd = 80 + d.widthOfString('KX-40211');
        // (A step of half an em: the text layer joins the two cells into one run with one space.)
        descX = codeEnd + size / 2;
        d.text('KX-40211', 80, 100, { lineBreak: false });
        d.text('Velmor cable set', descX, 100, { lineBreak: false });
      },
      { size: 'A4', margin: 0 },
    );
    const words = (await readPdf(bytes)).pages[0]!.lines.flatMap((l) => l.words);
    const code = words.find((w) => w.text === 'KX-40211')!;
    const desc = words.find((w) => w.text === 'Velmor')!;
    // (Within a space's width, 2.2 at this size; shared evenly, the description starts 4 away.)
    const space = (size * 278) / 1000;
    expect(Math.abs(code.x1 - codeEnd)).toBeLessThan(space);
    expect(Math.abs(desc.x0 - descX)).toBeLessThan(space);
  });

  it('shares a run by the characters’ standard widths, in proportion to the run’s printed width', () => {
    // "MW" is much wider than "il" in any proportional face: Helvetica M 833, W 944, space 278, i 222, l 222.
    const [wide, narrow] = runWords('MW il', [10, 0, 0, 10, 0, 100], 24.99, 10, 'sans');
    expect(wide!.x1).toBeCloseTo(17.77, 1);
    expect(narrow!.x0).toBeCloseTo(20.55, 1);
    // Evenly in a monospaced face.
    expect(runWords('MW il', [10, 0, 0, 10, 0, 100], 25, 10, 'mono')[0]!.x1).toBeCloseTo(10, 5);
  });

  it('tells the face families apart by the names the PDF library gives them', () => {
    expect(fontFamilyOf('sans-serif')).toBe('sans');
    expect(fontFamilyOf('serif')).toBe('serif');
    expect(fontFamilyOf('monospace')).toBe('mono');
    expect(fontFamilyOf(undefined)).toBe('sans');
  });
});
