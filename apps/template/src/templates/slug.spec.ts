import { describe, expect, it } from '@jest/globals';
import { pickFreeSlug, slugify } from './slug.js';

describe('slugify', () => {
  it.each([
    ['Supplier Invoice 2', 'supplier-invoice-2'],
    ['  Café  Crème — Reçu!! ', 'cafe-creme-recu'],
    ['Original (clone)', 'original-clone'],
    ['snake_case_name', 'snake-case-name'],
    ['%%%', 'template'],
    ['日本語', 'template'],
  ])('%s → %s', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });

  it('caps the length without a trailing dash', () => {
    const s = slugify(`${'a'.repeat(79)} bcd`);
    expect(s.length).toBeLessThanOrEqual(80);
    expect(s.endsWith('-')).toBe(false);
  });
});

describe('pickFreeSlug', () => {
  it('keeps the base when free', () => {
    expect(pickFreeSlug('invoice', ['invoice-2', 'invoices'])).toBe('invoice');
  });

  it('takes the smallest free numbered suffix', () => {
    expect(pickFreeSlug('invoice', ['invoice'])).toBe('invoice-2');
    expect(pickFreeSlug('invoice', ['invoice', 'invoice-2', 'invoice-4'])).toBe('invoice-3');
  });

  it('does not collide with a name that already ends in a number', () => {
    expect(pickFreeSlug('supplier-invoice', ['supplier-invoice', 'supplier-invoice-2'])).toBe('supplier-invoice-3');
  });
});
