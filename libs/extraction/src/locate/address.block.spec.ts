import { describe, expect, it } from '@jest/globals';
import { readText } from '../readers/text.reader.js';
import { vocabularyFor } from '../locales/locale.vocabulary.js';
import { findAddressBlock } from './address.block.js';

const doc = (...lines: string[]) => readText(new TextEncoder().encode(lines.join('\n')));
const en = vocabularyFor(['en']);
const my = vocabularyFor(['en', 'ms-MY']);

describe('findAddressBlock (candidates and scoring)', () => {
  it('starts at the street line, not at a tagline printed between the name and the address', () => {
    const d = doc(
      'HARBOUR CAFE',
      'Operated under licence of Harbour Group',
      'Unit 4, Maple Road',
      '12345 Eastfield',
      'Tel 01-234 5678',
      'Total 9.00',
    );
    expect(findAddressBlock(d, en, d.pages[0]!.lines[0])?.text).toBe('Unit 4, Maple Road 12345 Eastfield');
  });

  it('keeps the part of a line before its contact details and drops an identifier printed before the address', () => {
    const d = doc('KEDAI CONTOH', '(REG 0012345678) NO 5, JALAN MAWAR,', '12345 KOTA BETA TEL: 01-2345678', 'Total 9.00');
    expect(findAddressBlock(d, my)?.text).toBe('NO 5, JALAN MAWAR, 12345 KOTA BETA');
  });

  it('never takes item lines, opening hours or a lone postcode-like figure for an address', () => {
    const d = doc('NOODLE HOUSE', 'MON-FRI 1000 HRS - 2200 HRS', '2 NOODLE SOUP 5.50 11.00', 'Total 11.00');
    expect(findAddressBlock(d, en)).toBeUndefined();
  });

  it('closes a street line without a postcode with its town, and a postcode line with its region', () => {
    const town = doc('KEDAI CONTOH', 'NO 5, JALAN MAWAR,', 'KOTA BETA', 'Date 01/02/2024');
    expect(findAddressBlock(town, my)?.text).toBe('NO 5, JALAN MAWAR, KOTA BETA');
    const region = doc('KEDAI CONTOH', 'NO 5, JALAN MAWAR,', '12345 KOTA BETA,', 'SELANGOR', 'Date 01/02/2024');
    expect(findAddressBlock(region, my)?.text).toBe('NO 5, JALAN MAWAR, 12345 KOTA BETA, SELANGOR');
  });

  it('prefers the block right under the issuer to a block printed lower (the addressee)', () => {
    const d = doc(
      'Nordwind Werkzeuge GmbH',
      'Maple Road 12',
      '12345 Eastfield',
      '',
      'Bill to',
      'Lindenhof Bakery',
      'Birch Lane 7',
      '54321 Westbrook',
    );
    expect(findAddressBlock(d, en, d.pages[0]!.lines[0])?.text).toBe('Maple Road 12 12345 Eastfield');
  });

  it('keeps the street line whose number opens the block over a block opening at its postcode line', () => {
    const d = doc('KEDAI CONTOH', 'QX4411, SEKSYEN Z2,', '12345 KOTA BETA,', 'SELANGOR DARUL EHSAN.', 'Date 01/02/2024');
    expect(findAddressBlock(d, my)?.text).toBe('QX4411, SEKSYEN Z2, 12345 KOTA BETA, SELANGOR DARUL EHSAN.');
  });
  it('takes a line labelled by a street or building word ("Lot No :") as an address line', () => {
    const d = doc(
      'KEDAI CONTOH',
      'Lot No :7, Level 2, Wisma Contoh',
      'No 61, Jalan Mawar, 12345 KOTA BETA',
      'Tel: 01-2345678',
      'Total 9.00',
    );
    expect(findAddressBlock(d, my, d.pages[0]!.lines[0])?.text).toBe(
      'Lot No :7, Level 2, Wisma Contoh No 61, Jalan Mawar, 12345 KOTA BETA',
    );
    expect(findAddressBlock(doc('KEDAI CONTOH', 'Site No :7', 'Total 9.00'), my)).toBeUndefined();
  });

  it('closes a line ending in its postcode with the town printed on the next line', () => {
    const d = doc(
      'KEDAI CONTOH',
      '9-11, JALAN MAWAR 2/3',
      'SEKSYEN 8, BANDAR CONTOH, 12345',
      'KOTA BETA, SELANGOR',
      '01-2345678',
      'Date 01/02/2024',
    );
    expect(findAddressBlock(d, my, d.pages[0]!.lines[0])?.text).toBe(
      '9-11, JALAN MAWAR 2/3 SEKSYEN 8, BANDAR CONTOH, 12345 KOTA BETA, SELANGOR',
    );
  });

  it('starts at a first line ending in a comma that the street line continues, not at the line after it', () => {
    const d = doc(
      'KEDAI CONTOH SDN BHD',
      'Parking Office, Basement 2,',
      'Lebuhraya Contoh, XY7,',
      '12345 Kota Beta, Selangor',
      'Tel: 01-2345678',
      'Total 9.00',
    );
    expect(findAddressBlock(d, my, d.pages[0]!.lines[0])?.text).toBe(
      'Parking Office, Basement 2, Lebuhraya Contoh, XY7, 12345 Kota Beta, Selangor',
    );
  });
});
