import { describe, expect, it } from '@jest/globals';
import { findIban, findVatIds, ibanValid } from './identifier.parser.js';

describe('identifiers', () => {
  it('accepts only IBANs with a valid checksum', () => {
    expect(ibanValid('DE89370400440532013000')).toBe(true);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(findIban('IBAN: DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX')).toBe('DE89 3704 0044 0532 0130 00');
    expect(findIban('Ref FR11123456782')).toBeUndefined();
    // A short word printed right after the IBAN is not part of it.
    expect(findIban('betalen op rekening BE68 5390 0754 7034 met vermelding van')).toBe('BE68 5390 0754 7034');
  });
  it('finds EU VAT ids', () => {
    expect(findVatIds('USt-IdNr.: DE123456789').map((v) => v.value)).toEqual(['DE123456789']);
    expect(findVatIds('TVA : FR11123456782 - SIRET').map((v) => v.value)).toEqual(['FR11123456782']);
    expect(findIban('MP05 Bonifico IT60 X054 2811 1010 0000 0123 456 13-04-2025')).toBe('IT60 X054 2811 1010 0000 0123 456');
    expect(findVatIds('DIČ: CZ27123456 DIČ: CZ28765432').map((v) => v.value)).toEqual(['CZ27123456', 'CZ28765432']);
  });
});
