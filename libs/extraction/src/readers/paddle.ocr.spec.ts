import { describe, expect, it } from '@jest/globals';
import { ctcDecode, fitContext, splitWords, type CtcChar } from './paddle.ctc.js';
import { detInputSize, focusArea, probabilityMap, regionsToImage, textRegions } from './paddle.detection.js';
import type { Sessions } from './paddle.sessions.js';
import { dropOverlapReads } from './paddle.recognition.js';
import { paddleSessionOptions } from './paddle.sessions.js';

// The pure stages of the PaddleOCR engine on hand-made model outputs (the real models run in ocr.engines.int-spec.ts).
const CHARSET = ['a', 'b', 'c', '1', '2', ',', '.', ' '];
const BLANK = 0;
const classOf = (ch: string) => CHARSET.indexOf(ch) + 1;

/** [T × C] probabilities: each step puts `p` on its class and the rest of the mass on blank (or on space). */
function steps(seq: (string | null | { space: number } | { hint: string; p: number })[], p = 0.9): Float32Array {
  const C = CHARSET.length + 1;
  const out = new Float32Array(seq.length * C);
  seq.forEach((s, t) => {
    if (s === null) out[t * C + BLANK] = 1;
    else if (typeof s === 'object' && 'hint' in s) ((out[t * C + BLANK] = 1 - s.p), (out[t * C + classOf(s.hint)] = s.p));
    else if (typeof s === 'object') ((out[t * C + BLANK] = 1 - s.space), (out[t * C + classOf(' ')] = s.space));
    else ((out[t * C + classOf(s)] = p), (out[t * C + BLANK] = 1 - p));
  });
  return out;
}

describe('ctcDecode', () => {
  it('collapses repeats, drops blanks and keeps a doubled letter split by a blank', () => {
    const chars = ctcDecode(steps(['a', 'a', null, 'b', null, 'b', 'c']), 7, CHARSET.length + 1, CHARSET);
    expect(chars.map((c) => c.ch).join('')).toBe('abbc');
    expect(chars[0]).toMatchObject({ from: 0, to: 2 / 7 });
  });

  it('puts in a space where the blank steps between two characters carry space probability', () => {
    const chars = ctcDecode(steps(['a', null, { space: 0.45 }, null, 'b']), 5, CHARSET.length + 1, CHARSET);
    expect(chars.map((c) => c.ch).join('')).toBe('a b');
  });

  it('leaves letters joined when the space probability between them is low', () => {
    const chars = ctcDecode(steps(['a', { space: 0.05 }, 'b']), 3, CHARSET.length + 1, CHARSET);
    expect(chars.map((c) => c.ch).join('')).toBe('ab');
  });

  it('puts in a comma CTC left to the blank class after a word, at the segment end or before the next word', () => {
    const C = CHARSET.length + 1;
    expect(
      ctcDecode(steps(['a', 'b', null, { hint: ',', p: 0.2 }]), 4, C, CHARSET)
        .map((c) => c.ch)
        .join(''),
    ).toBe('ab,');
    expect(
      ctcDecode(steps(['a', { hint: ',', p: 0.2 }, { space: 0.5 }, 'b']), 4, C, CHARSET)
        .map((c) => c.ch)
        .join(''),
    ).toBe('a, b');
    // Letters turning to digits end a word too ("STREET,12").
    expect(
      ctcDecode(steps(['a', { hint: '.', p: 0.3 }, '1']), 3, C, CHARSET)
        .map((c) => c.ch)
        .join(''),
    ).toBe('a.1');
  });

  it('puts no hinted punctuation inside a word, after punctuation, or below the hint probability', () => {
    const C = CHARSET.length + 1;
    expect(
      ctcDecode(steps(['a', { hint: '.', p: 0.3 }, 'b']), 3, C, CHARSET)
        .map((c) => c.ch)
        .join(''),
    ).toBe('ab');
    expect(
      ctcDecode(steps(['a', ',', null, { hint: '.', p: 0.3 }]), 4, C, CHARSET)
        .map((c) => c.ch)
        .join(''),
    ).toBe('a,');
    expect(
      ctcDecode(steps(['a', 'b', { hint: ',', p: 0.05 }]), 3, C, CHARSET)
        .map((c) => c.ch)
        .join(''),
    ).toBe('ab');
  });

  it('keeps a doubtful character the model still rated best, and drops one below the noise floor', () => {
    const C = CHARSET.length + 1;
    // Each letter wins its step with 0.1 (the blank has 0.05, the rest of the mass is spread thin).
    const doubtful = steps(['a', 'b', 'c'], 0.1);
    for (let t = 0; t < 3; t++) doubtful[t * C + BLANK] = 0.05;
    expect(
      ctcDecode(doubtful, 3, C, CHARSET)
        .map((c) => c.ch)
        .join(''),
    ).toBe('abc');
    const probs = steps(['a', 'b', 'c']);
    // 'b' wins its step with 0.04 over the blank (0.03) and the rest spread over the other classes.
    probs.fill(0.03, 1 * C, 2 * C);
    probs[1 * C + classOf('b')] = 0.04;
    expect(
      ctcDecode(probs, 3, C, CHARSET)
        .map((c) => c.ch)
        .join(''),
    ).toBe('ac');
  });

  it('measures positions against the span of the segment itself (batch padding excluded)', () => {
    const chars = ctcDecode(steps(['a', null]), 2, CHARSET.length + 1, CHARSET, 4);
    expect(chars[0]).toMatchObject({ from: 0, to: 0.25 });
  });
});

describe('splitWords', () => {
  const at = (ch: string, centre: number): CtcChar => ({ ch, prob: 1, from: centre - 0.01, to: centre + 0.01 });

  it('splits at printed spaces', () => {
    const words = splitWords([at('a', 0.1), at(' ', 0.2), at('b', 0.3)]);
    expect(words.map((w) => w.map((c) => c.ch).join(''))).toEqual(['a', 'b']);
  });

  it('splits at a gap far wider than the usual character pitch', () => {
    const xs = [0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.6, 0.65];
    const words = splitWords(xs.map((x, i) => at(String.fromCharCode(97 + i), x)));
    expect(words.map((w) => w.length)).toEqual([6, 2]);
  });
});

describe('textRegions', () => {
  it('finds a confident blob as one box grown back by the unclip distance, and ignores weak ones', () => {
    const w = 40;
    const h = 20;
    const prob = new Float32Array(w * h);
    for (let y = 5; y < 10; y++) for (let x = 5; x < 30; x++) prob[y * w + x] = 0.9;
    for (let y = 14; y < 17; y++) for (let x = 2; x < 8; x++) prob[y * w + x] = 0.35; // above the pixel threshold, weak on average
    const regions = textRegions(prob, w, h);
    expect(regions).toHaveLength(1);
    expect(regions[0]!.x0).toBeLessThan(5);
    expect(regions[0]!.x1).toBeGreaterThan(30);
    expect(regions[0]!.y0).toBeLessThan(5);
  });
});

describe('detInputSize', () => {
  it('keeps sides multiples of 32, caps the longer side and enlarges small images', () => {
    const big = detInputSize(2480, 3508);
    expect(Math.max(big.w, big.h)).toBeLessThanOrEqual(1920);
    expect(big.w % 32).toBe(0);
    const small = detInputSize(300, 200);
    expect(Math.min(small.w, small.h)).toBeGreaterThanOrEqual(704);
  });
});

describe('regionsToImage', () => {
  it('maps boxes found on a downscaled page back to page pixels', () => {
    // An invented 2480 × 3508 page detected at 1344 × 1920: a line box at (100, 200)–(700, 230) on the input.
    const page = { x0: 0, y0: 0, x1: 2480, y1: 3508 };
    const [box] = regionsToImage([{ x0: 100, y0: 200, x1: 700, y1: 230 }], page, 1344, 1920);
    expect(box!.x0).toBeCloseTo((100 * 2480) / 1344, 6);
    expect(box!.x1).toBeCloseTo((700 * 2480) / 1344, 6);
    expect(box!.y0).toBeCloseTo((200 * 3508) / 1920, 6);
    expect(box!.y1).toBeCloseTo((230 * 3508) / 1920, 6);
  });

  it('moves boxes of an area detected on its own to its origin and clips them to it', () => {
    // A 500 × 400 area at (1000, 2000), enlarged to a 1000 × 800 input; a box grown past the input's edges.
    const area = { x0: 1000, y0: 2000, x1: 1500, y1: 2400 };
    const [box] = regionsToImage([{ x0: -6, y0: 100, x1: 1010, y1: 300 }], area, 1000, 800);
    expect(box).toEqual({ x0: 1000, y0: 2050, x1: 1500, y1: 2150 });
  });
});

describe('paddleSessionOptions', () => {
  it('runs the given threads with a memory arena but no per-shape memory plan', () => {
    expect(paddleSessionOptions(1)).toMatchObject({
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      enableCpuMemArena: true,
      enableMemPattern: false,
    });
    expect(paddleSessionOptions(2).intraOpNumThreads).toBe(2);
  });
});

describe('focusArea', () => {
  // A receipt-sized column of text lines, 20 px high, in the middle of a 600-dpi A4 scan (4960 × 7016).
  const lines = Array.from({ length: 30 }, (_, i) => ({ x0: 1700, y0: 1500 + i * 40, x1: 2900, y1: 1520 + i * 40 }));

  it('returns the text area, with a margin of two line heights, when it is small beside the page', () => {
    expect(focusArea(lines, 4960, 7016)).toEqual({ x0: 1660, y0: 1460, x1: 2940, y1: 2720 });
  });

  it('leaves a page whose text covers most of it to the first detection', () => {
    const page = [...lines, { x0: 100, y0: 100, x1: 4800, y1: 140 }, { x0: 100, y0: 6800, x1: 4800, y1: 6840 }];
    expect(focusArea(page, 4960, 7016)).toBeUndefined();
  });

  it('does not detect again when the area would not reach the detector larger', () => {
    // A small image is enlarged to the detector's size whole: its text area gains nothing from a crop.
    expect(focusArea([{ x0: 10, y0: 10, x1: 300, y1: 40 }], 320, 50)).toBeUndefined();
    expect(focusArea([], 4960, 7016)).toBeUndefined();
  });
});

describe('fitContext', () => {
  const c = (ch: string, step: number): CtcChar => ({ ch, prob: 0.9, from: step / 10, to: (step + 1) / 10, step });
  const alternatives: Record<string, { ch: string; prob: number }> = {
    '1/digit': { ch: '1', prob: 0.3 },
    '2/letter': { ch: 'z', prob: 0.04 },
    '4/letter': { ch: 'l', prob: 0.2 },
  };
  const alt = (step: number, kind: string) => alternatives[`${step}/${kind}`];

  it('reads a letter between digits as the digit the model rated next', () => {
    const chars = [c('7', 0), c('l', 1), c('8', 2)];
    fitContext(chars, alt);
    expect(chars.map((x) => x.ch).join('')).toBe('718');
  });

  it('reads a digit between letters as the letter, and keeps it when the letter is unlikely', () => {
    const chars = [c('a', 3), c('1', 4), c('i', 5)];
    fitContext(chars, alt);
    expect(chars.map((x) => x.ch).join('')).toBe('ali');
    const kept = [c('B', 1), c('2', 2), c('B', 3)];
    fitContext(kept, alt);
    expect(kept.map((x) => x.ch).join('')).toBe('B2B');
  });
});

describe('dropOverlapReads', () => {
  const w = (text: string, x0: number, x1: number, y0 = 10, y1 = 40) => ({ text, x0, x1, y0, y1, conf: 0.9 });

  it('drops the fragment a neighbouring region read again, and keeps words that only touch', () => {
    const [first, second] = dropOverlapReads([[w('Reference', 100, 300)], [w('e', 280, 298), w('QX-5531', 320, 460)]]);
    expect(first!.map((x) => x.text)).toEqual(['Reference']);
    expect(second!.map((x) => x.text)).toEqual(['QX-5531']);
    const apart = dropOverlapReads([[w('Total', 100, 200)], [w('48.60', 195, 300)]]);
    expect(apart.flat().map((x) => x.text)).toEqual(['Total', '48.60']);
  });

  it('leaves overlapping boxes of different lines alone', () => {
    const out = dropOverlapReads([[w('upper', 100, 200, 10, 40)], [w('lower', 100, 200, 38, 70)]]);
    expect(out.flat()).toHaveLength(2);
  });
});

describe('probabilityMap', () => {
  /** A stand-in detector that maps each pixel to a function of its neighbourhood of rows (a convolution of reach 2). */
  function detector(rowsSeen: number[]): Sessions {
    class Tensor {
      constructor(
        public type: string,
        public data: Float32Array,
        public dims: number[],
      ) {}
    }
    const run = async (feeds: Record<string, Tensor>) => {
      const { data, dims } = feeds.x!;
      const [, , h, w] = dims as [number, number, number, number];
      rowsSeen.push(h);
      const out = new Float32Array(w * h);
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) {
          let sum = 0;
          for (let d = -2; d <= 2; d++) sum += data[Math.min(h - 1, Math.max(0, y + d)) * w + x]!;
          out[y * w + x] = sum / 5;
        }
      return { p: { data: out } };
    };
    return { ort: { Tensor }, det: { inputNames: ['x'], outputNames: ['p'], run } } as unknown as Sessions;
  }

  it('computes a tall input strip by strip, each strip kept in its middle: the same map as in one run', async () => {
    const [w, h] = [64, 1600];
    const chw = new Float32Array(3 * w * h).map((_, i) => Math.sin(i * 0.37));
    const whole: number[] = [];
    const stripped: number[] = [];
    const one = await probabilityMap(detector(whole), chw, w, 640);
    expect(whole).toEqual([640]);
    expect(one).toHaveLength(w * 640);
    const map = await probabilityMap(detector(stripped), chw, w, h);
    expect(Math.max(...stripped)).toBeLessThanOrEqual(512 + 384);
    expect(stripped.length).toBe(4);
    // The reference: the stand-in run once over the whole input.
    const ref = await detector([]).det.run({ x: { data: chw, dims: [1, 3, h, w] } as never } as never);
    expect(Array.from(map)).toEqual(Array.from((ref as unknown as { p: { data: Float32Array } }).p.data));
  });
});
