import { describe, expect, it } from '@jest/globals';
import { eraseRules, ocrScale } from './image.reader.js';

describe('OCR preprocessing', () => {
  it('brings ~100-dpi page scans to ~200 dpi and other small images towards 1300 px wide', () => {
    expect(ocrScale({ width: 762, height: 1000 })).toBe(2);
    expect(ocrScale({ width: 1700, height: 2200 })).toBe(1);
    expect(ocrScale({ width: 463, height: 1013 })).toBe(1.5);
    expect(ocrScale({ width: 1000, height: 700 })).toBeCloseTo(1.3);
    expect(ocrScale(undefined)).toBe(1);
    expect(ocrScale({ width: 0, height: 0 })).toBe(1);
  });

  it('erases long ruled lines but keeps short strokes', () => {
    const w = 200;
    const h = 100;
    const px = new Uint8ClampedArray(w * h * 4).fill(255);
    const ink = (x: number, y: number) => px.fill(0, 4 * (y * w + x), 4 * (y * w + x) + 3);
    for (let x = 10; x < 190; x++) ink(x, 50); // a rule
    for (let y = 20; y < 30; y++) ink(40, y); // a letter stroke
    eraseRules(px, w, h);
    expect(px[4 * (50 * w + 100)]).toBe(255);
    expect(px[4 * (25 * w + 40)]).toBe(0);
  });
});
