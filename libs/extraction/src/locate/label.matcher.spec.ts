import { describe, expect, it } from '@jest/globals';
import { conceptTokens, labelSpec, matchSpan, tokens, wordConcepts } from './label.matcher.js';

const score = (label: string, key: string, text: string) => matchSpan(wordConcepts(text.split(' ')), labelSpec(label, key))?.score ?? 0;

describe('label matching', () => {
  it('maps abbreviations and other languages to one concept', () => {
    expect(conceptTokens('Inv. No.')).toEqual(['invoice', 'number']);
    expect(conceptTokens('Invoice #')).toEqual(['invoice', 'number']);
    expect(conceptTokens('N° facture')).toEqual(['number', 'invoice']);
    expect(conceptTokens('Rechnungsnummer')).toEqual(['invoice', 'number']);
    expect(conceptTokens('Bill to')).toEqual(['buyer']);
    expect(wordConcepts(['Total', 'excl.', 'VAT'])).toEqual([['total'], ['net'], []]);
    expect(conceptTokens('UStId')).toEqual(['tax', 'id']);
    expect(conceptTokens('Delivery address')).toEqual(['buyer']);
    expect(conceptTokens('Adresse de livraison')).toContain('buyer');
  });

  it('reads addressee, amount-to-pay and due-date phrases of several languages as one concept', () => {
    expect(wordConcepts(['Facturé', 'à', ':'])).toEqual([['buyer'], [], []]);
    expect(conceptTokens('Factuur aan')).toEqual(['buyer']);
    expect(conceptTokens('Facture à régler par virement')).not.toContain('buyer');
    expect(conceptTokens('Rechnungsadresse')).toEqual(['buyer']);
    expect(conceptTokens('Spett.le')).toEqual(['buyer']);
    expect(conceptTokens('Customer')).toEqual(['buyer']);
    expect(conceptTokens('Kunden-Nr.')).toEqual(['customer', 'number']);
    expect(wordConcepts(['Net', 'à', 'payer'])).toEqual([['total'], [], []]);
    expect(conceptTokens('Te betalen')).toEqual(['total']);
    expect(wordConcepts(['Payment', 'due'])).toEqual([['due'], []]);
    expect(conceptTokens('Faktura VAT nr')).toEqual(['invoice', 'number']);
    expect(conceptTokens('Eenheidsprijs')).toEqual(['unit', 'price']);
  });

  it('knows the invoice words of Portuguese, Czech, Hungarian, Swedish and SAP-style German layouts', () => {
    expect(conceptTokens('Fatura n.º')).toEqual(['invoice', 'number', 'o']);
    expect(conceptTokens('Data de vencimento')).toEqual(['date', 'de', 'due']);
    expect(conceptTokens('Datum splatnosti')).toEqual(['date', 'due']);
    expect(conceptTokens('Számla sorszáma')).toEqual(['invoice', 'number']);
    expect(conceptTokens('Belegnummer')).toEqual(['invoice', 'number']);
    expect(conceptTokens('Dodavatel')).toEqual(['seller']);
    expect(conceptTokens('Odběratel')).toEqual(['buyer']);
    expect(conceptTokens('Vevő')).toEqual(['buyer']);
    expect(conceptTokens('Kund')).toEqual(['buyer']);
    expect(conceptTokens('Warenempfänger')).toEqual(['buyer']);
    expect(wordConcepts(['Adressé', 'à'])).toEqual([['buyer'], []]);
    expect(wordConcepts(['Exmo.(s)', 'Sr.(s)'])).toEqual([['buyer'], []]);
    expect(wordConcepts(['Fizetési', 'határidő:'])).toEqual([['due'], []]);
    expect(wordConcepts(['Faktura', '–', 'daňový', 'doklad', 'č.'])).toEqual([['invoice'], ['invoice'], [], [], ['number']]);
    expect(conceptTokens('Fizetendő')).toEqual(['total']);
    expect(conceptTokens('Celkem k úhradě')).toEqual(['total', 'total']);
    expect(conceptTokens('Total ilíquido')).toEqual(['total', 'net']);
    expect(conceptTokens('Základ daně')).toContain('net');
    expect(conceptTokens('DPH')).toEqual(['tax']);
    expect(conceptTokens('Qtd.')).toEqual(['quantity']);
    expect(conceptTokens('Q.tà')).toEqual(['quantity']);
    expect(conceptTokens('Q.ty')).toEqual(['quantity']);
    expect(conceptTokens('Preço unitário')).toEqual(['price', 'unit']);
    expect(conceptTokens('Descrição')).toEqual(['description']);
    expect(conceptTokens('Laskun numero')).toEqual(['invoice', 'number']);
    expect(conceptTokens('Eräpäivä')).toEqual(['due']);
    expect(conceptTokens('Veroton yhteensä')).toEqual(['net', 'total']);
    expect(conceptTokens('Asiakas')).toEqual(['buyer']);
    expect(conceptTokens('Faktura č. 2025031')).toEqual(['invoice', 'number', '2025031']);
  });

  it('scores a specific label above a generic one', () => {
    expect(score('Invoice date', 'invoice_date', 'Invoice Date:')).toBe(1);
    expect(score('Invoice date', 'invoice_date', 'Date:')).toBeGreaterThan(0.6);
    expect(score('Due date', 'due_date', 'Date:')).toBeLessThan(0.6);
    expect(score('Invoice number', 'invoice_number', 'Inv. No.:')).toBe(1);
    expect(score('Tax amount', 'tax_amount', 'VAT')).toBeGreaterThan(0.6);
  });
});

describe('initials', () => {
  it('reads initials with their dots as one word: "P.U. HT" is a unit price net of tax', () => {
    expect(tokens('P.U. HT')).toEqual(['pu', 'ht']);
    expect(conceptTokens('P.U. HT')).toEqual(['price', 'net']);
    expect(tokens('No. 12')).toEqual(['no', '12']);
  });
});

describe('due-date phrases', () => {
  it('reads "Payment target" as the due date', () => {
    expect(conceptTokens('Payment target')).toEqual(['due']);
  });
});

describe('net-amount phrases', () => {
  it('reads the French "Sous-total" (one word or two) as the net amount', () => {
    expect(conceptTokens('Sous-total')).toEqual(['net']);
    expect(wordConcepts(['Sous', 'total', '12,34'])[0]).toEqual(['net']);
  });
  it('answers the same near-word test alike when asked again (memoised per variant)', () => {
    const spec = labelSpec('Quantity', 'qty');
    const words = wordConcepts(['Quantlty', 'Price']);
    const once = matchSpan(words, spec);
    expect(once?.start).toBe(0);
    expect(matchSpan(words, spec)).toEqual(once);
    expect(matchSpan(words, spec, true)).toBeUndefined();
  });
});
