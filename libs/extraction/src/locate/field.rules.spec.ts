import { describe, expect, it } from '@jest/globals';
import type { FieldDef } from '../engine.types.js';
import { refine } from './field.rules.js';

// How a read cell becomes a field's value. Every text below is invented.

describe('refine: a currency field', () => {
  const currency: FieldDef = { key: 'currency', label: 'Currency', data_type: 'string' };

  it('is the ISO code the cell prints beside the currency’s name', () => {
    expect(refine(currency, 'EURO (EUR)')).toBe('EUR');
    expect(refine(currency, 'Swiss francs CHF')).toBe('CHF');
  });

  it('keeps the cell when it prints no code, or two', () => {
    expect(refine(currency, 'Euro')).toBe('Euro');
    expect(refine(currency, 'USD or EUR')).toBe('USD or EUR');
  });
});
