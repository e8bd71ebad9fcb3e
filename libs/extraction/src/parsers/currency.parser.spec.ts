import { describe, expect, it } from '@jest/globals';
import { detectCurrency, parseCurrency } from './currency.parser.js';

describe('parseCurrency', () => {
  it.each([
    ['$1,234.50', { value: 1234.5, currency: 'USD' }],
    ['1.234,50 €', { value: 1234.5, currency: 'EUR' }],
    ['EUR 12', { value: 12, currency: 'EUR' }],
    ['£ 9.99', { value: 9.99, currency: 'GBP' }],
    ['RM 15.90', { value: 15.9, currency: 'MYR' }],
    ['-14,73 CHF', { value: -14.73, currency: 'CHF' }],
    ['₹ 1,200', { value: 1200, currency: 'INR' }],
    ['4 719,00 Kč', { value: 4719, currency: 'CZK' }],
    ['133 350 Ft', { value: 133350, currency: 'HUF' }],
  ])('%s', (raw, expected) => {
    expect(parseCurrency(raw)).toEqual(expected);
  });

  it('uses the document currency when the amount has no mark', () => {
    expect(parseCurrency('(12.50)', 'EUR')).toEqual({ value: -12.5, currency: 'EUR' });
    expect(parseCurrency('12.50')).toBeUndefined();
  });

  it('prefers an explicit ISO code over a symbol', () => {
    expect(detectCurrency('CAD $ 10')).toBe('CAD');
    expect(detectCurrency('C$ 10')).toBe('CAD');
  });
});
