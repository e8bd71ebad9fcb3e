import { describe, expect, it } from '@jest/globals';
import { correctWords, detectLocales, LOCALE_PACKS, vocabularyFor } from './locale.registry.js';

describe('locale packs', () => {
  it('loads every pack with an id and only known keys, labels folded to lower case', () => {
    const keys = new Set(['id', 'name', 'country', 'generic', 'detect', 'dateOrder', 'labels', 'legalForms', 'addressWords', 'regions', 'dictionary', 'ocrConfusions', 'ocrFixes', 'greetings', 'tendered', 'change']);
    expect(LOCALE_PACKS.size).toBeGreaterThanOrEqual(10);
    for (const p of LOCALE_PACKS.values()) {
      expect(Object.keys(p).filter((k) => !keys.has(k))).toEqual([]);
      for (const words of Object.values(p.labels ?? {})) for (const w of words) expect(w).toBe(w.toLowerCase());
      for (const re of p.legalForms ?? []) expect(() => new RegExp(re)).not.toThrow();
    }
  });

  it('always activates the generic language packs and a country pack only on evidence', () => {
    const plain = detectLocales('Invoice 17 from Nordwind Werkzeuge GmbH, Maple Road 12', 'EUR');
    expect(plain).toEqual(expect.arrayContaining(['en', 'de', 'fr', 'nl']));
    expect(plain).not.toContain('ms-MY');
    // Its currency and one of its words, or two of its words, show the country.
    expect(detectLocales('KEDAI BUKU CERIA, 12 JALAN MAWAR', 'MYR')).toContain('ms-MY');
    expect(detectLocales('CERIA SDN BHD, 12 JALAN MAWAR', undefined)).toContain('ms-MY');
    expect(detectLocales('12 Jalan Mawar', 'USD')).not.toContain('ms-MY');
  });

  it('builds one legal-form pattern from the active packs, longest form first', () => {
    const v = vocabularyFor(['en', 'de', 'fr']);
    expect(v.legalForm.exec('Nordwind Werkzeuge GmbH & Co. KG')?.[1]).toBe('Nordwind Werkzeuge GmbH & Co. KG');
    expect(v.legalForm.exec('Atelier Lumière S.A.S.')?.[1]).toBe('Atelier Lumière S.A.S.');
    expect(v.legalForm.exec('Ceria Buku Sdn Bhd')).toBeNull();
    expect(vocabularyFor(['en', 'ms-MY']).legalForm.exec('Ceria Buku Sdn Bhd')?.[1]).toBe('Ceria Buku Sdn Bhd');
  });
});

describe('correctWords (whole-token OCR correction against a locale dictionary)', () => {
  const my = vocabularyFor(['en', 'ms-MY']);

  it('restores a dictionary word read with one look-alike letter, keeping case', () => {
    expect(correctWords('LOT 9, JALAM MERAH, TRMAN SURIA 2210-THN JAYA', my)).toBe('LOT 9, JALAN MERAH, TAMAN SURIA 2210-TMN JAYA');
    expect(correctWords('Jalam Ros, Kota Beta', my)).toBe('Jalan Ros, Kota Beta');
  });

  it('leaves words whose difference is no OCR look-alike, and whole words it does not know', () => {
    expect(correctWords('Tokyo, JAPAN', my)).toBe('Tokyo, JAPAN');
    expect(correctWords('12 Koala Drive', my)).toBe('12 Koala Drive');
    expect(correctWords('THE SABAK MARKET TAN', my)).toBe('THE SABAK MARKET TAN');
  });

  it('changes nothing when no pack with a dictionary is active', () => {
    expect(correctWords('LOT 9, JALAM MERAH, TRMAN SURIA', vocabularyFor(['en', 'de']))).toBe('LOT 9, JALAM MERAH, TRMAN SURIA');
  });
});
