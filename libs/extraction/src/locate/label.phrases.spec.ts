import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { invoiceSchema, L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';
import { taxTableBottom } from './field.values.js';
import { conceptTokens } from './label.matcher.js';

// Label words inside running text and titles (tools/eval/synth-office-invoices.mjs prints such invoices with
// LibreOffice): a note under an item that says "delivered to …", a "Tax Invoice <number>" title. Every name, number
// and figure below is invented.

/** A letterhead, the sender line, the addressee's window beside an information block, a title, a short item table. */
function letter(title: string, note = ''): Item[] {
  return [
    L(57, 31, 'Quorvel Instruments LLP', 16, true),
    L(57, 58, 'Quorvel Instruments LLP · 12 Ambery Lane · KT4 7RW Daleford', 7),
    L(58, 76, 'Sellwyn Optics Limited'),
    L(339, 76, 'Invoice No.:'),
    R(540, 76, '2025-07396'),
    L(58, 90, '9 Harrowgate Road'),
    L(339, 90, 'Invoice date:'),
    R(540, 90, '18/04/2025'),
    L(58, 104, 'LN2 3PB Marlow Vale'),
    L(339, 104, 'Account:'),
    R(540, 104, 'C-2207'),
    L(57, 143, title, 14, true),
    L(58, 191, 'Qty'),
    L(100, 191, 'Description'),
    R(440, 191, 'Price'),
    R(540, 191, 'Net'),
    L(58, 205, '3'),
    L(100, 205, 'Calibration kit Ostra'),
    R(440, 205, '10.00'),
    R(540, 205, '30.00'),
    ...(note ? [L(100, 217, note)] : []),
    L(58, 231, '1'),
    L(100, 231, 'Bench lamp Virel'),
    R(440, 231, '6.00'),
    R(540, 231, '6.00'),
    L(288, 260, 'Net total'),
    R(540, 260, '36.00'),
    L(288, 274, 'VAT @ 20%'),
    R(540, 274, '7.20'),
    L(288, 288, 'Total'),
    R(540, 288, '43.20'),
    L(58, 793, 'Quorvel Instruments LLP', 7),
    L(380, 793, 'VAT Reg. No. GB604417283', 7),
  ];
}

const read = (items: Item[]) => extractFromLayout(layoutOf([items]), invoiceSchema).result;

describe('label words in running text and titles', () => {
  it('a note under an item that runs on after "delivered to" is no delivery heading: the next item is no buyer', () => {
    const r = read(letter('Invoice', 'delivered to the loading bay'));
    expect(r.buyer_name).toBe('Sellwyn Optics Limited');
    expect(r.seller_name).toBe('Quorvel Instruments LLP');
  });

  it('"Tax Invoice <number>" is a title: its number is no VAT id, and the parties stay where they are', () => {
    const r = read(letter('Tax Invoice 2025-07396'));
    expect(r.vat_id).toBe('GB604417283');
    expect(r.seller_name).toBe('Quorvel Instruments LLP');
    expect(r.buyer_name).toBe('Sellwyn Optics Limited');
  });
});

describe('document numbers and tax lines', () => {
  it('"Document no." on an invoice is its number', () => {
    const items = letter('Invoice').map((it) => (it.t === 'Invoice No.:' ? { ...it, t: 'Document no.:' } : it));
    expect(read(items).invoice_number).toBe('2025-07396');
  });

  it('tax lines per rate broken by the page end are summed across it', () => {
    const page1: Item[] = [
      ...letter('Invoice').filter((it) => it.y < 250),
      L(288, 780, 'Net total'),
      R(540, 780, '36.00'),
      L(288, 794, 'Plus 20% VAT'),
      R(540, 794, '5.00'),
    ];
    const page2: Item[] = [L(288, 40, 'Plus 5% VAT'), R(540, 40, '0.55'), L(288, 54, 'Invoice total'), R(540, 54, '41.55')];
    const r = extractFromLayout(layoutOf([page1, page2]), invoiceSchema).result;
    expect(r.tax_amount).toBe(5.55);
    expect(r.total_amount).toBe(41.55);
  });
});

describe('tax breakdown tables', () => {
  it('a breakdown table of two rates between the net amount and the total gives the tax as its tax column’s sum', () => {
    const items: Item[] = [
      ...letter('Invoice').filter((it) => it.y < 250),
      L(288, 300, 'Net total'),
      R(540, 300, '136.00'),
      L(100, 316, 'VAT rate'),
      R(220, 316, 'Net'),
      R(300, 316, 'VAT'),
      R(380, 316, 'Gross'),
      L(100, 330, '20 %'),
      R(220, 330, '100.00'),
      R(300, 330, '20.00'),
      R(380, 330, '120.00'),
      L(100, 344, '5 %'),
      R(220, 344, '36.00'),
      R(300, 344, '1.80'),
      R(380, 344, '37.80'),
      L(288, 370, 'Total'),
      R(540, 370, '157.80'),
    ];
    const r = read(items);
    expect([r.net_amount, r.tax_amount, r.total_amount]).toEqual([136, 21.8, 157.8]);
  });
});

describe('due dates in the payment sentence', () => {
  it('"À régler avant le 05/07/2021." (régler with its acute accent) gives the due date', () => {
    const items: Item[] = [
      L(57, 31, 'Ostravel Conseil SARL', 16, true),
      L(58, 76, 'Belvani Systèmes SAS'),
      L(339, 76, 'Facture n°'),
      R(540, 76, 'F-2021-0042'),
      L(339, 90, 'Date de facture:'),
      R(540, 90, '21/05/2021'),
      L(288, 240, 'Total HT'),
      R(540, 240, '100,00 €'),
      L(288, 254, 'TVA 20 %'),
      R(540, 254, '20,00 €'),
      L(288, 268, 'Total TTC'),
      R(540, 268, '120,00 €'),
      L(57, 300, 'À régler avant le 05/07/2021.'),
    ];
    expect(read(items).due_date).toBe('2021-07-05');
  });

  /** A short invoice whose payment sentence is `sentence` (lines of it, one under the other). */
  const invoice = (lang: 'de' | 'nl', sentence: string[]): Item[] => [
    L(57, 31, lang === 'de' ? 'Torvalen Medien GmbH' : 'Torvalen Media B.V.', 16, true),
    L(58, 76, 'Quenby Halwin'),
    L(339, 76, lang === 'de' ? 'Rechnungsnummer:' : 'Factuurnummer:'),
    R(540, 76, 'R-2031-017'),
    L(339, 90, lang === 'de' ? 'Datum:' : 'Datum:'),
    R(540, 90, '21.05.2031'),
    L(288, 240, lang === 'de' ? 'Nettobetrag' : 'Subtotaal'),
    R(540, 240, '100,00 €'),
    L(288, 254, lang === 'de' ? 'USt. 19 %' : 'Btw 21%'),
    R(540, 254, lang === 'de' ? '19,00 €' : '21,00 €'),
    L(288, 268, lang === 'de' ? 'Gesamtbetrag' : 'Totaal'),
    R(540, 268, lang === 'de' ? '119,00 €' : '121,00 €'),
    ...sentence.map((t, k) => L(57, 300 + k * 12, t)),
  ];

  it('"Der Betrag ist bis zum 04.06.2031 fällig." (the due word after the date) gives the due date', () => {
    expect(read(invoice('de', ['Der Betrag ist bis zum 04.06.2031 fällig.'])).due_date).toBe('2031-06-04');
  });

  it('"… het bedrag vóór 4 juni 2031 over te maken." gives the due date, also when the sentence runs on to the next line', () => {
    expect(read(invoice('nl', ['Wij verzoeken u het bedrag uiterlijk 04-06-2031 over te maken.'])).due_date).toBe('2031-06-04');
    const wrapped = ['De uren worden gefactureerd tegen een uurtarief van € 60,00. Gelieve het bedrag vóór 4 juni 2031 over', 'te maken.'];
    expect(read(invoice('nl', wrapped)).due_date).toBe('2031-06-04');
  });

  it('"Die Rechnung ist zahlbar zum 14.03.2025 …" (payable by, German) gives the due date', () => {
    const items: Item[] = [
      L(57, 31, 'Wendal Gerätebau GmbH', 16, true),
      L(58, 76, 'Korvin Logistik AG'),
      L(339, 76, 'Rechnungsnr.'),
      R(540, 76, 'R-2025-117'),
      L(339, 90, 'Rechnungsdatum'),
      R(540, 90, '28.02.2025'),
      L(288, 240, 'Rechnungssumme'),
      R(540, 240, '119,00 €'),
      L(57, 300, 'Die Rechnung ist zahlbar zum 14.03.2025 ohne Abzug.'),
    ];
    expect(read(items).due_date).toBe('2025-03-14');
  });
});

describe('a tax summary whose captions head value columns', () => {
  // Left-aligned captions over right-aligned figures, each figure ending where the next caption starts; the currency
  // code is set close after the total, under a caption of its own.
  const page = layoutOf([
    [
      L(40, 300, 'TAX:'),
      L(112, 300, '%'),
      L(124, 300, 'Base amount:'),
      L(255, 300, 'Tax amount:'),
      L(386, 300, 'Total:'),
      L(516, 300, 'Curr.:'),
      L(80, 318, 'VAT'),
      R(122, 318, '20.00'),
      R(253, 318, '36.00'),
      R(383, 318, '7.20'),
      R(514, 318, '43.20'),
      L(516, 318, 'EUR'),
    ],
  ]).pages[0]!;
  const head = page.lines.findIndex((l) => l.text.startsWith('TAX:'));
  const under = (caption: string) => {
    const w = page.lines[head]!.words.find((x) => x.text === caption)!;
    return taxTableBottom(page.lines, head, [w.x0, w.y0, w.x1, w.y1])
      ?.map((x) => x.text)
      .join(' ');
  };

  it('the total is the figure its caption heads, though a currency code is set close after it', () => {
    expect(under('Total:')).toBe('43.20 EUR');
  });

  it('"Base amount" names the net amount', () => {
    expect(conceptTokens('Base amount')).toContain('net');
  });
});

describe('a longer label that opens with a party word', () => {
  it('"Käufer Material ID:" (buyer material id) under an item names an identifier: its next word is no buyer', () => {
    const page2 = [
      L(58, 60, 'Pos. Product'),
      L(300, 60, 'Amount'),
      L(58, 80, '3 Calibration kit'),
      L(100, 94, 'Käufer Material ID: KT-77-Q'),
    ];
    const r = extractFromLayout(layoutOf([letter('Invoice'), page2]), invoiceSchema).result;
    expect(r.buyer_name).toBe('Sellwyn Optics Limited');
  });
});

describe('labels of another document the invoice refers to', () => {
  it('"Date facture précédente" (the preceding invoice’s date) is not the invoice date', () => {
    const items: Item[] = [
      L(57, 31, 'Ostravel Conseil SARL', 16, true),
      L(339, 50, 'FACTURE N° :'),
      R(540, 50, 'F-2024-0310'),
      L(339, 64, 'Date :'),
      R(540, 64, '12/03/2024'),
      L(58, 96, 'Belvani Systèmes SAS'),
      L(58, 200, 'N° FACTURE PRÉCÉDENTE : F-2024-0122'),
      L(58, 212, 'DATE FACTURE PRÉCÉDENTE : 01/02/2024'),
      L(288, 260, 'Total TTC'),
      R(540, 260, '120,00 €'),
    ];
    const r = read(items);
    expect([r.invoice_date, r.invoice_number]).toEqual(['2024-03-12', 'F-2024-0310']);
  });
});
