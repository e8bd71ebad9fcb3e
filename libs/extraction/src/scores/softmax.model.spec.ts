import { describe, expect, it } from '@jest/globals';
import { fitSoftmax, predictSoftmax } from './softmax.model.js';

// Invented data: class `a` has a large first feature, class `b` a large second one; the third is constant.
const xs = [
  [3, 0, 1],
  [2.5, 0.5, 1],
  [4, 1, 1],
  [0, 3, 1],
  [0.5, 2.5, 1],
  [1, 4, 1],
];
const ys = ['a', 'a', 'a', 'b', 'b', 'b'];

describe('fitSoftmax / predictSoftmax', () => {
  it('separates separable classes and gives probabilities that sum to one', () => {
    const model = fitSoftmax(['f1', 'f2', 'const'], ['a', 'b'], xs, ys);
    const pa = predictSoftmax(model, [3.5, 0.2, 1]);
    const pb = predictSoftmax(model, [0.2, 3.5, 1]);
    expect(pa[0]).toBeGreaterThan(0.9);
    expect(pb[1]).toBeGreaterThan(0.9);
    expect(pa[0]! + pa[1]!).toBeCloseTo(1, 10);
  });

  it('is deterministic: the same data gives the same weights', () => {
    expect(fitSoftmax(['f1', 'f2', 'const'], ['a', 'b'], xs, ys)).toEqual(fitSoftmax(['f1', 'f2', 'const'], ['a', 'b'], xs, ys));
  });

  it('keeps a feature without spread from dividing by zero', () => {
    const model = fitSoftmax(['f1', 'f2', 'const'], ['a', 'b'], xs, ys);
    expect(model.scale[2]).toBe(1);
    expect(predictSoftmax(model, [1, 1, 1]).every(Number.isFinite)).toBe(true);
  });

  it('refuses a label that is not one of the classes', () => {
    expect(() => fitSoftmax(['f1'], ['a', 'b'], [[1]], ['c'])).toThrow(/not one of the classes/);
  });
});
