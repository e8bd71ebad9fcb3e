import { describe, expect, it } from '@jest/globals';
import { cleanString, findNumbers } from './value.parser.js';

describe('findNumbers memo', () => {
  it('answers a text asked again with fresh copies, per decimal mark', () => {
    const text = 'Subtotal 1.250 Shipping 4,50';
    const first = findNumbers(text, { dateOrder: 'dmy', decimal: 'comma' });
    expect(first.map((n) => n.value)).toEqual([1250, 4.5]);
    first[0]!.value = 0;
    first.pop();
    expect(findNumbers(text, { dateOrder: 'dmy', decimal: 'comma' }).map((n) => n.value)).toEqual([1250, 4.5]);
    expect(findNumbers(text, { dateOrder: 'dmy', decimal: 'dot' }).map((n) => n.value)).toEqual([1.25, 4.5]);
  });
});

describe('findNumbers and TeX euro marks', () => {
  it('reads a lone "e" or "C" glued before a figure with cents as the euro in a euro document, and only there', () => {
    const eur = { dateOrder: 'dmy' as const, decimal: 'dot' as const, currency: 'EUR' };
    expect(findNumbers('Total due e983.00', eur).map((n) => n.value)).toEqual([983]);
    expect(findNumbers('Amount due C12,410.55', eur).map((n) => n.value)).toEqual([12410.55]);
    // (Not glued to a word, not without the euro, not a code without cents.)
    expect(findNumbers('Ref ABC12.50 code C1042', eur).map((n) => n.value)).toEqual([]);
    expect(findNumbers('Amount due C12,410.55', { dateOrder: 'dmy', decimal: 'dot' }).map((n) => n.value)).toEqual([]);
  });
});

describe('cleanString', () => {
  it('trims label punctuation but keeps the sign and the decimal point of a figure', () => {
    expect(cleanString(': - Harbour Road 4')).toBe('Harbour Road 4');
    expect(cleanString('# 1042,')).toBe('1042');
    expect(cleanString('-1.2')).toBe('-1.2');
    expect(cleanString('– 3.5')).toBe('3.5');
    expect(cleanString('.75')).toBe('.75');
  });

  it('keeps the sign printed before a figure’s currency mark (a negative balance in a text column)', () => {
    expect(cleanString('-$3.25')).toBe('-$3.25');
    expect(cleanString('−€ 12,50')).toBe('−€ 12,50');
    expect(cleanString('- Widget')).toBe('Widget');
  });
});

describe('findNumbers and hyphens', () => {
  it('reads no negative amount out of digit groups joined by a hyphen ("Invoice 2021-8052"), but keeps a minus sign', () => {
    expect(findNumbers('Tax Invoice 2021-8052').map((n) => n.value)).toEqual([]);
    expect(findNumbers('INV-2021-8052').map((n) => n.value)).toEqual([]);
    expect(findNumbers('Discount -12.50').map((n) => n.value)).toEqual([-12.5]);
    expect(findNumbers('Credit 12.50-').map((n) => n.value)).toEqual([-12.5]);
  });
});
