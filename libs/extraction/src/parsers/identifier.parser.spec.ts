import { describe, expect, it } from '@jest/globals';
import { findIban, findVatIds, ibanValid } from './identifier.parser.js';

describe('identifiers', () => {
  it('accepts only IBANs with a valid checksum', () => {
    expect(ibanValid('DE31430715962846170352')).toBe(true);
    expect(ibanValid('DE31430715962846170353')).toBe(false);
    expect(findIban('IBAN: DE31 4307 1596 2846 1703 52 BIC COBADEFFXXX')).toBe('DE31 4307 1596 2846 1703 52');
    expect(findIban('Ref FR25482915733')).toBeUndefined();
    // A short word printed right after the IBAN is not part of it.
    expect(findIban('betalen op rekening BE68 5390 0754 7034 met vermelding van')).toBe('BE68 5390 0754 7034');
  });
  it('finds EU VAT ids', () => {
    expect(findVatIds('USt-IdNr.: DE361507283').map((v) => v.value)).toEqual(['DE361507283']);
    expect(findVatIds('TVA : FR25482915733 - SIRET').map((v) => v.value)).toEqual(['FR25482915733']);
    expect(findIban('MP05 Bonifico IT60 X054 2811 1010 0000 0123 456 13-04-2025')).toBe('IT60 X054 2811 1010 0000 0123 456');
    expect(findVatIds('DIČ: CZ27123456 DIČ: CZ28765432').map((v) => v.value)).toEqual(['CZ27123456', 'CZ28765432']);
  });
  it('reads an IBAN printed with a space between the country and the check digits', () => {
    expect(findIban('BIC: QUILBEBB - IBAN: BE 53 1234 5678 9012')).toBe('BE 53 1234 5678 9012');
  });
});
