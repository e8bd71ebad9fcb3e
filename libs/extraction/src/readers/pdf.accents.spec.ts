import { describe, expect, it } from '@jest/globals';
import { makePdf } from '../testing/pdf.test-helper.js';
import { accented, joinAccentedRuns, type TextRun } from './pdf.accents.js';
import { readPdf } from './pdf.reader.js';

// TeX's OT1 fonts print an accented letter as an accent glyph set over the letter: the text layer gives a run ending
// in "´" and a run starting back under it with the letter ("Cr´" + "eation de logo").

const run = (str: string, x: number, width: number, base = 100, size = 10): TextRun => ({
  str,
  tx: [size, 0, 0, -size, x, base],
  width,
  height: size,
  fontName: 'f1',
});

describe('accents printed as glyphs of their own', () => {
  it('puts the accent on the letter it stands over: one run, one word', () => {
    const [joined, ...rest] = joinAccentedRuns([run('Cr´', 100, 16), run('eation de logo', 113, 70)]);
    expect(rest).toHaveLength(0);
    expect(joined!.str).toBe('Création de logo');
    expect(joined!.tx[4]).toBe(100);
    expect(joined!.width).toBe(83);
  });

  it('joins an accent raised over a capital, printed as a run of its own', () => {
    const runs = [run('Total ', 50, 30), run('´', 84, 4, 97.5), run('Etat', 84, 20)];
    expect(joinAccentedRuns(runs).map((r) => r.str)).toEqual(['Total ', 'État']);
  });

  it('leaves runs apart when the next one does not start under the accent, or no such letter exists', () => {
    // (After a gap: a spacing accent printed as itself, "12´ 30".)
    expect(joinAccentedRuns([run('12´', 100, 14), run('30', 118, 10)]).map((r) => r.str)).toEqual(['12´', '30']);
    // (On the next line.)
    expect(joinAccentedRuns([run('r´', 100, 8), run('esultats', 105, 40, 112)])).toHaveLength(2);
    expect(accented('´', 'e')).toBe('é');
    expect(accented('¨', 'u')).toBe('ü');
    expect(accented('`', 'H')).toBeUndefined();
    expect(accented('´', '4')).toBeUndefined();
  });

  it('reads a page printed that way with its accented words whole', async () => {
    const bytes = await makePdf(
      (d) => {
        d.font('Times-Roman').fontSize(10);
        const at = 72 + d.widthOfString('Cr´');
        d.text('Cr´', 72, 100, { lineBreak: false });
        // (The letter starts back under the accent, as TeX's \accent sets it.)
        d.text('eation de logo', at - 3.5, 100, { lineBreak: false });
        d.text('r´', 72, 130, { lineBreak: false });
        d.text('esultats', 72 + d.widthOfString('r´') - 3.5, 130, { lineBreak: false });
      },
      { size: 'A4', margin: 0 },
    );
    const lines = (await readPdf(bytes)).pages[0]!.lines;
    expect(lines.map((l) => l.text)).toEqual(['Création de logo', 'résultats']);
    expect(lines[1]!.words.map((w) => w.text)).toEqual(['résultats']);
  });
});
