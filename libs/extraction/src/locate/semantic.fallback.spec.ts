import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { readText } from '../readers/text.reader.js';
import { stripRegistration, withoutLegalDot } from './semantic.fallback.js';
import { vocabularyFor } from '../locales/locale.vocabulary.js';

const receiptSchema = {
  fields: [
    {
      key: 'company',
      label: 'Company name',
      data_type: 'string' as const,
      description: 'Name of the shop or company that issued the receipt.',
    },
    { key: 'date', label: 'Date', data_type: 'date' as const },
    { key: 'address', label: 'Address', data_type: 'string' as const, description: "The shop's address as printed on the receipt." },
    { key: 'total', label: 'Total', data_type: 'number' as const },
  ],
};

interface Row {
  text: string;
  conf?: number;
  /** Letter height in pixels (default 20). */
  size?: number;
  x?: number;
}

/** A synthetic OCR page: one row per entry, words laid out left to right, optionally slanted (dy per dx). */
function ocrPage(rows: Row[], slope = 0): DocLayout {
  const words: Word[] = [];
  let y = 40;
  for (const r of rows) {
    const size = r.size ?? 20;
    let x = r.x ?? 40;
    for (const t of r.text.split(' ')) {
      const w = t.length * size * 0.6;
      const dy = slope * (x + w / 2);
      words.push({ text: t, x0: x, x1: x + w, y0: y + dy, y1: y + size + dy, conf: r.conf ?? 0.92 });
      x += w + size * 0.5;
    }
    y += size * 1.6;
  }
  return { pages: [buildPage(1, 900, y + 100, words, true)] };
}

const receipt: Row[] = [
  { text: 'Xqmo', conf: 0.1, size: 60, x: 300 },
  { text: 'jane doe', size: 32 },
  { text: 'ACME HARDWARE (M) SDN 8HD' },
  { text: '765432-A', conf: 0.5, x: 200 },
  { text: 'NO. 62, JALAN MAWAR 3,' },
  { text: 'TAMAN CONTOH,' },
  { text: '43000 KAJANG,' },
  { text: 'SELANGOR.' },
  { text: 'SRI PETALING BRANCH' },
  { text: 'GST ID NO: 001122334455' },
  { text: 'TAX INVOICE' },
  { text: 'Date: 03/04/2018 10:12' },
  { text: 'HAMMER 1 X 22.93 22.93' },
  { text: 'TOTAL INCL. GST RM 22.93' },
  { text: 'Rounding Adjustment RM -0.03' },
  { text: 'CASH RM 50.00' },
  { text: 'CHANGE RM 27.10' },
];

describe('receipt issuer, address and total', () => {
  it('skips logo noise and a handwritten note, repairs the legal form and stops the address at its state line', () => {
    const out = extractFromLayout(ocrPage(receipt), receiptSchema);
    expect(out.result).toEqual({
      company: 'ACME HARDWARE (M) SDN BHD',
      date: '2018-04-03',
      address: 'NO. 62, JALAN MAWAR 3, TAMAN CONTOH, 43000 KAJANG, SELANGOR.',
      total: 22.9,
    });
  });

  it('keeps a street line printed under the postcode line', () => {
    const rows = [...receipt.slice(0, 8), { text: '2210-TMN SERI MUDA' }, ...receipt.slice(9)];
    const out = extractFromLayout(ocrPage(rows), receiptSchema);
    expect(out.result.address).toBe('NO. 62, JALAN MAWAR 3, TAMAN CONTOH, 43000 KAJANG, SELANGOR. 2210-TMN SERI MUDA');
  });

  it('groups the words of a slanted scan into their own lines', () => {
    const out = extractFromLayout(ocrPage(receipt, -0.04), receiptSchema);
    expect(out.result.company).toBe('ACME HARDWARE (M) SDN BHD');
    expect(out.result.address).toBe('NO. 62, JALAN MAWAR 3, TAMAN CONTOH, 43000 KAJANG, SELANGOR.');
    expect(out.pages).toBe(1);
  });

  it('does not read a company registration label as the company name', () => {
    const rows: Row[] = [
      { text: 'SUNRISE PETROL STATION' },
      { text: 'Company No: 998877-K' },
      { text: 'Company 123456 Jalan Contoh' },
      { text: 'LOT 5, JALAN CONTOH' },
      { text: '81990 PEKAN ZETA JOHOR' },
      { text: 'Telephone: 071234567' },
      { text: 'Total RM 50.00' },
    ];
    const out = extractFromLayout(ocrPage(rows), receiptSchema);
    expect(out.result.company).toBe('SUNRISE PETROL STATION');
  });

  it('does not take a total saving or a rounded-away adjustment above the total for the amount paid', () => {
    const text = [
      'BOOKS & MORE',
      'Total RM incl. of GST     9.65',
      'Cash                     50.00',
      'Change                   40.35',
      'Total Saving              0.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), receiptSchema);
    expect(out.result.total).toBe(9.65);
    const rounded = ['SHOP', 'Rounding Adj          0.02', 'Total                22.95', 'Cash                 50.00'].join('\n');
    expect(extractFromLayout(readText(new TextEncoder().encode(rounded)), receiptSchema).result.total).toBe(22.95);
    const plain = ['SHOP', 'Total                22.93', 'Rounding             -0.03', 'Cash                 50.00'].join('\n');
    expect(extractFromLayout(readText(new TextEncoder().encode(plain)), receiptSchema).result.total).toBe(22.9);
    const roundedTotal = ['SHOP', 'Total                22.93', 'Rounded Total        22.95', 'Cash                 50.00'].join('\n');
    expect(extractFromLayout(readText(new TextEncoder().encode(roundedTotal)), receiptSchema).result.total).toBe(22.95);
  });

  it("undoes the active locale pack's OCR misreadings of legal forms and drops a trailing registration code", () => {
    const my = vocabularyFor(['en', 'ms-MY']);
    expect(stripRegistration('12 QUICK MART 5S/B (765432-X)', my)).toBe('12 QUICK MART S/B');
    expect(stripRegistration('GOOD BOOKS C0. (M) SDN 8HD', my)).toBe('GOOD BOOKS CO. (M) SDN BHD');
    expect(stripRegistration('Nordwind GmbH', my)).toBe('Nordwind GmbH');
    // Without the country pack nothing is rewritten but the registration code.
    expect(stripRegistration('GOOD BOOKS SDN 8HD (1234-A)', vocabularyFor(['en', 'de']))).toBe('GOOD BOOKS SDN 8HD');
  });

  it('does not end an address at a lot number that looks like a postcode', () => {
    const text = [
      'HARDWARE HOUSE (M) SDN BHD',
      'Co-Reg: 860671-D',
      'KAWASAN PERINDUSTRIAN MAJU,',
      'LOT 2468-A & 2468-B, JALAN CU 6,',
      '12345 BANDAR CONTOH, SELANGOR',
      '(GST ID No: 000123123123)',
      'Total 10.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), receiptSchema);
    expect(out.result.company).toBe('HARDWARE HOUSE (M) SDN BHD');
    expect(out.result.address).toBe('KAWASAN PERINDUSTRIAN MAJU, LOT 2468-A & 2468-B, JALAN CU 6, 12345 BANDAR CONTOH, SELANGOR');
  });

  it('reads receipt headers with a brand line, Berhad / TRADING names, a one-line address and contact details on the postcode line', () => {
    const read = (lines: string[]) => extractFromLayout(readText(new TextEncoder().encode(lines.join('\n'))), receiptSchema).result;
    expect(
      read([
        'SIMPLIFIED TAX INVOICE',
        'BIGMART CO. (M) BHD',
        '(123456-H)',
        '3RD FLR, BIGMART TAMAN INDAH',
        'JLN CONTOH, TAMAN INDAH',
        'PEKAN ALFA, 55990 KOTA BETA TEL: 03-1234 5678',
        'Total 10.00',
      ]),
    ).toMatchObject({
      company: 'BIGMART CO. (M) BHD',
      address: '3RD FLR, BIGMART TAMAN INDAH JLN CONTOH, TAMAN INDAH PEKAN ALFA, 55990 KOTA BETA',
    });
    expect(
      read([
        'FRESHCO',
        'FRESHCO RETAIL HOLDINGS BHD',
        'LOT 1, JALAN SENTOSA',
        '41990 BANDAR CONTOH, SELANGOR',
        'TEL 03-1234567',
        'Total 10.00',
      ]).company,
    ).toBe('FRESHCO RETAIL HOLDINGS BHD');
    expect(read(['LEE WAH TRADING', '(JM0123456-K)', 'NO 62, JALAN PASAR', '81000 KULAI, JOHOR', 'Total 10.00'])).toMatchObject({
      company: 'LEE WAH TRADING',
      address: 'NO 62, JALAN PASAR 81000 KULAI, JOHOR',
    });
    expect(read(['OFFICIAL RECEIPT', 'KEDAI RUNCIT AH HOCK', 'NO 63, JALAN SATU, 43000 KAJANG', 'Total 10.00'])).toMatchObject({
      company: 'KEDAI RUNCIT AH HOCK',
      address: 'NO 63, JALAN SATU, 43000 KAJANG',
    });
    expect(
      read([
        'QUICK MART S/B (765432-X)',
        'LOT P.T. 9753, JALAN CONTOH,',
        'TAMAN BAIK',
        '41990 BANDAR CONTOH, SELANGOR',
        'GST ID NO: 000999888777',
      ]).address,
    ).toBe('LOT P.T. 9753, JALAN CONTOH, TAMAN BAIK 41990 BANDAR CONTOH, SELANGOR');
  });
});

describe('legal-form abbreviations', () => {
  it('drop the dot of a closing legal form, which ends no sentence', () => {
    for (const name of ['Quinta do Vale Verde, Lda.', 'Tiskárna Vltava s.r.o.', 'Duna Nyomda Kft.', 'Reformas Turia S.L.U.'])
      expect(withoutLegalDot(name)).not.toMatch(/\.$/);
    expect(withoutLegalDot('Please pay within ten days.')).toBe('Please pay within ten days.');
  });
});

describe('compact dates', () => {
  const schema = { fields: [{ key: 'date', label: 'Date', data_type: 'date' as const }] };
  const run = (...lines: string[]) => extractFromLayout(readText(new TextEncoder().encode(lines.join('\n'))), schema).result.date;

  it('reads eight digits as a recent date only when no date is printed otherwise', () => {
    expect(run('CORNER SHOP', '14022024  No. A-17', 'Total 4.00')).toBe('2024-02-14');
    expect(run('CORNER SHOP', '14022024  No. A-17', 'Date 15/02/2024', 'Total 4.00')).toBe('2024-02-15');
  });

  it('does not take an old or impossible date, or a longer number, for one', () => {
    expect(run('CORNER SHOP', 'Member 31121950', 'Total 4.00')).toBeUndefined();
    expect(run('CORNER SHOP', 'Ref 45132024', 'Total 4.00')).toBeUndefined();
    expect(run('CORNER SHOP', 'Card 1402202455', 'Total 4.00')).toBeUndefined();
  });
});
