import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { ocrReceipt } from '../testing/receipt-layout.test-helper.js';
import { correctWords } from '../locales/locale.corrections.js';
import { vocabularyFor } from '../locales/locale.vocabulary.js';
import { legalName, nameLike } from './semantic.parties.js';

// Scanned receipts whose structural words OCR misread with a look-alike (all names, numbers and addresses invented):
// a legal form, a postcode or a street word the locators look for is found once the look-alike is undone.

const receiptSchema = {
  fields: [
    { key: 'company', label: 'Company name', data_type: 'string' as const, description: 'Name of the shop that issued the receipt.' },
    { key: 'date', label: 'Date', data_type: 'date' as const, description: 'Date of the purchase.' },
    { key: 'address', label: 'Address', data_type: 'string' as const, description: "The shop's address as printed on the receipt." },
    { key: 'total', label: 'Total', data_type: 'number' as const, description: 'Total amount paid, including tax and rounding.' },
  ],
};

const read = (lines: string[]) => extractFromLayout(ocrReceipt(lines), receiptSchema).result;
const my = vocabularyFor(['en', 'ms-MY']);

describe('OCR look-alikes in the words receipts are located by', () => {
  it('takes a legal form read with a look-alike letter for that legal form', () => {
    const got = read([
      'KEDAI ORKID (JB) SDN. BHX.',
      'No.7, Jalan Orkid 3,',
      'Taman Orkid,',
      '81990 Pekan Zeta, Johor',
      'CASH RECEIPT',
      'Date: 11/04/2018',
      'Cashier Ani',
      'TOTAL  12.40',
      'CASH  20.00',
      'CHANGE  7.60',
    ]);
    expect(got.company).toBe('KEDAI ORKID (JB) SDN. BHD.');
  });

  it('finds a postcode read with the letter O for zeros, and the name over its block', () => {
    const got = read([
      'ITEMS ONCE SOLD CANNOT BE EXCHANGED. TQ',
      'TOKO DELIMA MAJU',
      '(0012345-K)',
      'NO.9 JLN CONTOH 2,TMN CONTOH,',
      'BATU 5 JLN PEKAN LAMA.',
      '4O0O5 PEKAN ZETA.',
      'TEL :03-1234 5678',
      'Date: 11/04/2018',
      'KOPI O  2.40',
      'ROTI BAKAR  3.20',
      'NASI GORENG  6.80',
      'TOTAL  12.40',
      'CASH  20.00',
      'CHANGE  7.60',
    ]);
    expect(got.company).toBe('TOKO DELIMA MAJU');
    expect(got.address).toBe('NO.9 JLN CONTOH 2,TMN CONTOH, BATU 5 JLN PEKAN LAMA. 40005 PEKAN ZETA.');
  });

  it('reads a dictionary word with one letter read as a mark as that word', () => {
    expect(correctWords('NO.12,PERS!ARAN CONTOH 5,KOTA BETA', my)).toBe('NO.12,PERSIARAN CONTOH 5,KOTA BETA');
    expect(correctWords('KUA-A LUMPUR', my)).toBe('KUALA LUMPUR');
    expect(correctWords('Ja:an Contoh', my)).toBe('Jalan Contoh');
    // (A pair of words joined by a mark is left alone, and so are short figures with an O.)
    expect(correctWords('KL-SEL ROAD, NO 1O', my)).toBe('KL-SEL ROAD, NO 1O');
    expect(correctWords('5600o Kota Beta', my)).toBe('56000 Kota Beta');
  });

  it('finds an address whose street word and region were read with marks for letters', () => {
    const got = read([
      'KOPI ORKID RESTAURANT',
      '(001234567-P)',
      'NO.12,PERS!ARAN CONTOH 5,TAMAN ORKID',
      'KUA-A LUMPUR',
      'TEL : 012-345 6789',
      'BILL NO: 00012345',
      'Date: 11/04/2018',
      'NET TOTAL  RM 7.40',
    ]);
    expect(got.address).toBe('NO.12,PERSIARAN CONTOH 5,TAMAN ORKID KUALA LUMPUR');
  });
});

describe('a legal form OCR set apart in a cell of its own', () => {
  it('completes the name in the cell before it, a speck between them left out', () => {
    expect(legalName('HARBOUR TRADING ‖ SDN BHD', my)).toBe('HARBOUR TRADING SDN BHD');
    expect(legalName('HARBOUR BOOKS ‖ SDN BHD', my)).toBe('HARBOUR BOOKS SDN BHD');
    expect(legalName('HARBOUR ENTERPRISE 9 ‖ SDN BHD', my)).toBe('HARBOUR ENTERPRISE SDN BHD');
  });

  it('names the receipt’s company', () => {
    const head = ['(123456-X)', '12, JALAN UTAMA,', '50990 KUALA LUMPUR', 'Date: 11/04/2018', 'TOTAL  16.00'];
    expect(read(['HARBOUR BOOKS  SDN BHD', ...head]).company).toBe('HARBOUR BOOKS SDN BHD');
    expect(read(['HARBOUR ENTERPRISE 9  SDN BHD', ...head]).company).toBe('HARBOUR ENTERPRISE SDN BHD');
  });
});

describe('a line set between decoration marks', () => {
  it('is a tagline, no name', () => {
    expect(nameLike('* FRESH EVERY DAY *', my)).toBe(false);
    expect(nameLike('-- OPEN DAILY --', my)).toBe(false);
    expect(nameLike('HARBOUR BOOK CAFE', my)).toBe(true);
  });

  it('is not joined to the shop name above or below it', () => {
    const address = ['12, JALAN UTAMA,', '50990 KUALA LUMPUR', 'Date: 11/04/2018', 'TOTAL  16.00'];
    expect(read(['* FRESH EVERY DAY *', 'HARBOUR BOOK CAFE', ...address]).company).toBe('HARBOUR BOOK CAFE');
    expect(read(['HARBOUR BOOK CAFE', '-- OPEN DAILY --', ...address]).company).toBe('HARBOUR BOOK CAFE');
  });
});

describe('the lines between a shop name and its street', () => {
  it('a building or mall line over the street belongs to the address, not the name', () => {
    const got = read([
      'HARBOUR CAFE',
      'UTAMA SQUARE SHOPPING MALL',
      'LOT 3-12, JALAN UTAMA,',
      '50990 KUALA LUMPUR',
      'Date: 11/04/2018',
      'TOTAL  16.00',
    ]);
    expect(got.company).toBe('HARBOUR CAFE');
  });

  it('a postcode with its town abbreviated (KL, PJ, JB) ends the address', () => {
    const got = read([
      'HARBOUR CAFE',
      'NO 5, JALAN UTAMA 3,',
      'TAMAN UTAMA,',
      '50990 KL',
      'TEL: 03-1234 5678',
      'Date: 11/04/2018',
      'TOTAL  16.00',
    ]);
    expect(got.address).toBe('NO 5, JALAN UTAMA 3, TAMAN UTAMA, 50990 KL');
  });
});

describe('a postcode OCR glued to its town', () => {
  it('still ends the address block', () => {
    const got = read([
      'HARBOUR CAFE',
      'NO.27, JALAN UTAMA 3,',
      'OFF JALAN BESAR,',
      '52990KOTA BETA.',
      'TEL: 03-1234 5678',
      'Date: 11/04/2018',
      'TOTAL  16.00',
    ]);
    expect(got.address).toBe('NO.27, JALAN UTAMA 3, OFF JALAN BESAR, 52990KOTA BETA.');
  });
});
