import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';

/**
 * A receipt as an OCR page: single-cell lines centred (receipt headers are), cells split on two or more spaces with
 * the last one right-aligned (amount columns), a middle one at the centre.
 */
export function ocrReceipt(lines: string[]): DocLayout {
  const width = 600;
  const size = 18;
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
      if (cells.length === 3) place(cells[1]!, width / 2);
      place(cells[cells.length - 1]!, width - 30 - cells[cells.length - 1]!.length * cw);
    }
    y += size * 1.7;
  }
  return { pages: [buildPage(1, width, y + 80, words, true)] };
}
