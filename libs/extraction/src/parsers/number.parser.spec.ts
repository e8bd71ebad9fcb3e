import { describe, expect, it } from '@jest/globals';
import { parseNumber } from './number.parser.js';
import { findNumbers } from './value.parser.js';

describe('parseNumber', () => {
  it.each([
    ['1,234.50', 1234.5],
    ['1.234,50', 1234.5],
    ['1 234,50', 1234.5],
    ["1'234.50", 1234.5],
    ['1234', 1234],
    ['-14,73', -14.73],
    ['(12.50)', -12.5],
    ['12.50-', -12.5],
    ['$1,234.50', 1234.5],
    ['€ 99,90', 99.9],
    ['RM 7.00', 7],
    ['0.125', 0.125],
    ['1,234,567.89', 1234567.89],
    ['1.234.567', 1234567],
    ['12,5', 12.5],
  ])('%s → %d', (raw, expected) => {
    expect(parseNumber(raw)).toBeCloseTo(expected, 6);
  });

  it('treats a lone separator before exactly three digits as grouping (1.234 and 1,234 are 1234)', () => {
    expect(parseNumber('1.234')).toBe(1234);
    expect(parseNumber('1,234')).toBe(1234);
  });

  it('lets the document locale decide other ambiguous forms', () => {
    expect(parseNumber('1,5', 'comma')).toBe(1.5);
    expect(parseNumber('1.234', 'comma')).toBe(1234);
  });

  it('rejects text that is not a number', () => {
    expect(parseNumber('abc')).toBeUndefined();
    expect(parseNumber('')).toBeUndefined();
    expect(parseNumber('12a34')).toBeUndefined();
  });
});

describe('parseNumber: a sign before the currency mark', () => {
  it('keeps the minus printed before the mark ("-$3.25", "−€ 12,50", "-USD 8.00")', () => {
    expect(parseNumber('-$3.25')).toBe(-3.25);
    expect(parseNumber('−€ 12,50')).toBe(-12.5);
    expect(parseNumber('-USD 8.00')).toBe(-8);
    expect(parseNumber('+$4.10')).toBe(4.1);
  });
});

describe('findNumbers', () => {
  it('skips percentages, identifiers and times', () => {
    const vals = findNumbers('VAT 19% INV1001 at 10:30 total 38.00').map((v) => v.value);
    expect(vals).toEqual([38]);
  });
  it('finds negative amounts in parentheses', () => {
    expect(findNumbers('Refund (12.50)').map((v) => v.value)).toEqual([-12.5]);
  });
});

describe('a count with its multiplication sign', () => {
  it('reads "13x" and "1.5x" as numbers, not "13xl" or "4x4"', () => {
    const values = (t: string) => findNumbers(t).map((f) => f.value);
    expect(values('13x US$2.50')).toEqual([13, 2.5]);
    expect(values('1.5x')).toEqual([1.5]);
    expect(values('13xl')).toEqual([]);
    expect(values('4x4 drive')).toEqual([]);
  });
});
