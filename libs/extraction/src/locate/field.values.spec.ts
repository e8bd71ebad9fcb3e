import { describe, expect, it } from '@jest/globals';
import { buildPage } from '../layout/layout.builder.js';
import type { Word } from '../layout/layout.types.js';
import { rightOf } from './field.values.js';

/** One invented summary line: [x, text] cells at 9 pt. */
function line(cells: [number, string][]) {
  const words: Word[] = [];
  for (const [x0, text] of cells) {
    let x = x0;
    for (const t of text.split(' ')) {
      const w = t.length * 4.5;
      words.push({ text: t, x0: x, x1: x + w, y0: 171, y1: 180, conf: 1 });
      x += w + 2.7;
    }
  }
  return buildPage(1, 595, 842, words).lines[0]!;
}

const net = { key: 'net_amount', label: 'Net amount', data_type: 'number' as const };

describe('the value cell right of an amount label', () => {
  it('takes a figure with its currency code glued before it, as it takes the code set apart', () => {
    for (const figure of ['GBP4,318.20', 'GBP 4,318.20', '(EUR) 4,318.20']) {
      const l = line([
        [345, 'Net total'],
        [480, figure],
      ]);
      expect(
        rightOf(l, 1, net)
          .map((w) => w.text)
          .join(' '),
      ).toBe(`total ${figure}`);
    }
  });
});
