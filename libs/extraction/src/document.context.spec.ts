import { describe, expect, it } from '@jest/globals';
import { inferContext } from './document.context.js';
import { readText } from './readers/text.reader.js';

const ctx = (text: string) => inferContext(readText(new TextEncoder().encode(text)));

describe('document conventions', () => {
  it('reads ambiguous dates month-first on an English form, even with one stray currency sign', () => {
    const form =
      'Please return this form to the office of the director.\nDate: 9/3/92\nFor the attention of S$ the committee and the board.';
    expect(ctx(form).dateOrder).toBe('mdy');
  });

  it('reads them day-first when the document is priced in a day-first currency', () => {
    expect(ctx('Invoice for the order of the client\nDate: 09/03/2024\nNet: 100,00 EUR\nTotal: 119,00 EUR').dateOrder).toBe('dmy');
  });

  it('reads an English receipt without a currency sign day-first when it names GST or a Malaysian street', () => {
    const receipt =
      'SHOP\nNO 64, JALAN PASAR\nGST ID: 000444555666\nDate: 05/06/2018\nTOTAL 7.00\nThank you for shopping with us\nPlease come again and see the new range of goods for the family';
    expect(ctx(receipt).dateOrder).toBe('dmy');
  });

  it('counts no bank sort code or other triple of numbers beyond a day as a date of either order', () => {
    const invoice = 'Invoice BJ-7\nDate: 04/03/2024\nTotal due (GBP) 821.78\nPay to sort code 12-34-56, account 87654321';
    expect(ctx(invoice).dateOrder).toBe('dmy');
  });

  it('follows unambiguous dates over every other hint', () => {
    expect(ctx('Date: 25/03/2024\nDue: 04/05/2024\nTotal $ 10.00').dateOrder).toBe('dmy');
  });

  it('reads the euro as TeX prints it from faces without one: a lone "e" or "C" by figures with cents', () => {
    // (eurosym's glyph is named "e"; LaTeX's stand-in is a "C" with two strokes drawn across it.)
    expect(ctx('Nettobetrag 1.204,00 e\nUSt. 19 % 228,76 e\nGesamtbetrag 1.432,76 e').currency).toBe('EUR');
    expect(ctx('Totaal excl. btw C 860,00\nBtw 21% C 180,60\nTe betalen C 1.040,60').currency).toBe('EUR');
    expect(ctx('Total HT 2 400,00 C\nTotal TTC 2 880,00 C').currency).toBe('EUR');
    // (eurosym's "e" glued before the figure, as English documents set it.)
    expect(ctx('Net amount e812.40\nVAT @ 21% e170.60\nTotal due e983.00').currency).toBe('EUR');
    // (Not once only, not before a word or figure — "tra 10,00 e 20,00" — and never over a currency named.)
    expect(ctx('Total 12,50 e').currency).toBeUndefined();
    expect(ctx('Prezzo tra 10,00 e 20,00\nSconto tra 5,00 e 8,00').currency).toBeUndefined();
    expect(ctx('Subtotal 10.00 C\nTotal 12.00 C\nAmount due £12.00').currency).toBe('GBP');
  });

  it('takes the currency from an ISO code glued before its figures ("GBP1,204.00")', () => {
    expect(ctx('Net total GBP1,204.00\nVAT 20% GBP240.80\nTotal GBP1,444.80').currency).toBe('GBP');
  });

  it('takes the currency from letter marks next to the figures (Kč, zł, Ft)', () => {
    expect(ctx('Základ daně 3 900,00\nCelkem k úhradě 4 719,00 Kč').currency).toBe('CZK');
    expect(ctx('Razem 1 230,00 zł').currency).toBe('PLN');
    expect(ctx('Fizetendő 133 350 Ft\nFt 12 000').currency).toBe('HUF');
    expect(ctx('Length 12 Ft of cable, Total 10.00').currency).toBeUndefined();
  });
});
