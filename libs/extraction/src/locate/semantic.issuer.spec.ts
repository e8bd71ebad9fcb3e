import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { partyName } from './semantic.fallback.js';
import { addresseeBlock } from './semantic.addressee.js';

const invoiceSchema = {
  fields: [
    { key: 'invoice_number', label: 'Invoice number', data_type: 'string' as const },
    {
      key: 'seller_name',
      label: 'Seller name',
      data_type: 'string' as const,
      description: 'Name of the company or person issuing the invoice.',
    },
    { key: 'total_amount', label: 'Total amount', data_type: 'number' as const },
  ],
};

/** A synthetic text-layer A4 page: each row is [x, y, text, size] in points, 8 pt letters unless told. */
function page(rows: [number, number, string, number?][]): DocLayout {
  const words: Word[] = [];
  for (const [x0, y, text, size = 8] of rows) {
    let x = x0;
    for (const t of text.split(' ')) {
      const w = t.length * size * 0.55;
      words.push({ text: t, x0: x, x1: x + w, y0: y, y1: y + size, conf: 1 });
      x += w + size * 0.3125;
    }
  }
  return { pages: [buildPage(1, 595, 842, words)] };
}

// A French invoice: the addressee's block sits top right with the title under it; the issuer is only named in
// the legal footer and as the account holder.
const french: [number, number, string][] = [
  [56, 30, 'ANNONCES EN LIGNE'],
  [110, 60, 'Vos formalités simplifiées'],
  [380, 116, 'DUPONTEL'],
  [380, 128, 'Martin Dupont'],
  [380, 140, '12 rue des Lilas'],
  [380, 152, '69003 Lyon'],
  [240, 178, 'Facture n° 2024001234'],
  [56, 200, 'Date : 12/03/2024'],
  [370, 360, 'Total TTC : 56,02 €'],
  [48, 510, 'Virement BANQUE DU NORD – Titulaire du compte : ORBIPRESSE'],
  [124, 522, 'IBAN : FR76 3000 6000 0112 3456 7890 189'],
  [270, 790, 'ORBIPRESSE'],
  [130, 800, 'Siège social : 4 avenue Exemple - 75011 PARIS – Tél : 01 23 45 67 89'],
  [150, 810, 'Sarl au capital de 8 000€ - RCS Paris B 123 456 789 – Siret 12345678900011'],
];

describe('issuer named by the legal footer and the account holder', () => {
  it('reads the issuer from the line above the registration footer, not the addressee block', () => {
    expect(extractFromLayout(page(french), invoiceSchema).result.seller_name).toBe('ORBIPRESSE');
  });

  it('takes the account holder when there is no registration footer', () => {
    const rows = french.filter(([, y]) => y < 780);
    expect(extractFromLayout(page(rows), invoiceSchema).result.seller_name).toBe('ORBIPRESSE');
    const german: [number, number, string][] = [
      [60, 150, 'Holzwerk Sommer ● Lindenweg 3 ● 79098 Freiburg'],
      [60, 170, 'Gasthaus Adler'],
      [60, 182, 'Hauptstraße 9'],
      [60, 194, '79100 Freiburg'],
      [60, 260, 'Rechnung Nr. 2024-117'],
      [60, 400, 'Gesamtbetrag 1.190,00 €'],
      [60, 700, 'Kontoinhaber: Holzwerk Sommer, IBAN DE31 4307 1596 2846 1703 52'],
    ];
    expect(extractFromLayout(page(german), invoiceSchema).result.seller_name).toBe('Holzwerk Sommer');
  });

  it('takes a legal name printed in the registration footer', () => {
    const rows: [number, number, string][] = [
      [380, 116, 'Kundenname'],
      [380, 128, 'Am Markt 4'],
      [380, 140, '10115 Berlin'],
      [240, 178, 'Rechnung 2024-5'],
      [60, 790, 'Nordlicht Software GmbH · Sitz der Gesellschaft: Hamburg · Amtsgericht Hamburg HRB 12345'],
    ];
    expect(extractFromLayout(page(rows), invoiceSchema).result.seller_name).toBe('Nordlicht Software GmbH');
  });

  it('skips the bank and a closing phrase in the footer', () => {
    const rows: [number, number, string][] = [
      [380, 116, 'Kundenname'],
      [380, 128, 'Am Markt 4'],
      [380, 140, '10115 Berlin'],
      [240, 178, 'Rechnung 2024-6'],
      [60, 200, 'Datum: 03.04.2024'],
      [60, 260, 'Pos. Menge Beschreibung Preis'],
      [60, 280, '1 2 Rosenstöcke 24,00'],
      [60, 300, 'Gesamtbetrag 24,00 €'],
      [60, 700, 'Vielen Dank für Ihren Auftrag'],
      [60, 715, 'Bankverbindung: Deutsche Beispielbank AG'],
      [300, 715, 'Sonnenhof Gärtnerei GmbH'],
      [60, 725, 'IBAN DE31 4307 1596 2846 1703 52'],
      [300, 725, 'Amtsgericht Musterstadt HRB 4711'],
    ];
    expect(extractFromLayout(page(rows), invoiceSchema).result.seller_name).toBe('Sonnenhof Gärtnerei GmbH');
    const thanks: [number, number, string][] = [
      ...rows.slice(0, 4),
      [60, 770, 'Thank you for your business'],
      [60, 780, 'Registered in England No. 0123456'],
    ];
    expect(extractFromLayout(page(thanks), invoiceSchema).result.seller_name).not.toBe('Thank you for your business');
  });

  it('keeps a letterhead legal name over the account holder (a person holding the account)', () => {
    const rows: [number, number, string][] = [
      [400, 100, 'Beispiel Handel GmbH'],
      [400, 112, 'Ringstr. 7'],
      [400, 124, '12345 Stadt'],
      [60, 300, 'Invoice # RE-77'],
      [60, 500, 'Total 10.00'],
      [400, 780, 'Account holder: Erika Muster'],
    ];
    expect(extractFromLayout(page(rows), invoiceSchema).result.seller_name).toBe('Beispiel Handel GmbH');
  });

  it('ends a party name where another party is introduced', () => {
    expect(partyName('Webwinkel Noord B.V. iov Brand.com')).toBe('Webwinkel Noord B.V.');
    expect(partyName('Acme Ltd c/o Harbour Agents')).toBe('Acme Ltd');
    expect(partyName('Nordwind GmbH im Auftrag von Süd AG')).toBe('Nordwind GmbH');
    expect(partyName('Au petit atelier SARL')).toBe('Au petit atelier SARL');
    const rows: [number, number, string][] = [
      [40, 100, 'Factuur 2024-9'],
      [40, 400, 'Totaal 49,99'],
      [40, 700, 'Leverancier:'],
      [40, 712, 'Koffie Online B.V. iov Koffiemerk.nl'],
      [40, 724, 'Badweg 12, 1234 AB Stad'],
    ];
    expect(extractFromLayout(page(rows), invoiceSchema).result.seller_name).toBe('Koffie Online B.V.');
  });

  it('does not read a sentence or a lower-case word after a seller-like word as the seller', () => {
    const rows: [number, number, string][] = [
      [40, 40, 'info@example.com'],
      [40, 52, 'Lena Example'],
      [40, 300, 'Notes: Removed dust from case'],
      [40, 320, 'Parts: 2 x filter'],
      [40, 400, 'Total: 10.00'],
    ];
    expect(extractFromLayout(page(rows), invoiceSchema).result.seller_name).toBe('Lena Example');
  });
});

describe('issuer name in a two-column letterhead', () => {
  it('does not join the next line of the other column to the name, even when it carries a legal form', () => {
    const rows: [number, number, string][] = [
      [300, 37, 'Von'],
      [40, 44, 'An'],
      [300, 50, 'Alpha Werkzeuge e.K.'],
      [40, 57, 'Beta Handel GmbH & Co. KG'],
      [300, 64, 'Hauptstraße 12'],
      [40, 71, 'Ringweg 4'],
      [300, 78, '10115 Berlin'],
      [40, 85, '20095 Hamburg'],
      [40, 130, 'Rechnungsnummer: RE-2031-1'],
      [370, 360, 'Gesamt: 120,00 €'],
    ];
    expect(extractFromLayout(page(rows), invoiceSchema).result.seller_name).toBe('Alpha Werkzeuge e.K.');
  });
});

// An invented freelancer's invoice: her name on top over her address, the client's block under a "Client:" heading in
// the same column, and a footer row of cells — her name, the bank she is paid through, a tax number.
const freelancer: [number, number, string, number?][] = [
  [70, 54, 'Mara Fenwick', 24],
  [70, 79, '14 Larch Row • KT4 9PL Dunhollow'],
  [70, 93, 'Tel. +44 1632 960410 • mara@fenwick.example'],
  [70, 118, 'Client :'],
  [300, 118, 'Invoice No.: MF-0417'],
  [70, 133, 'Tobin Ashgrove'],
  [70, 147, '7 Quarry Lane'],
  [70, 162, 'LS2 8QT Brackwell'],
  [70, 300, 'Copy editing 6 h 55.00 330.00'],
  [370, 360, 'Total 330.00'],
  [70, 779, 'Mara Fenwick'],
  [200, 779, 'Bank details: Lowmoor Bank N.V.'],
  [400, 779, 'Tax no.: 41-7730215'],
  [70, 791, '14 Larch Row'],
  [200, 791, 'IBAN: GB33 BUKB 2020 1555 5555 55'],
];

describe('a freelancer named on top and in the footer row beside her bank', () => {
  it('reads the issuer from the footer cell alone, never with the bank cell after it, and the client under its heading', () => {
    const schema = {
      fields: [
        ...invoiceSchema.fields,
        {
          key: 'buyer_name',
          label: 'Buyer name',
          data_type: 'string' as const,
          description: 'Name of the customer the invoice is addressed to.',
        },
      ],
    };
    const out = extractFromLayout(page(freelancer), schema).result;
    expect(out.seller_name).toBe('Mara Fenwick');
    expect(out.buyer_name).toBe('Tobin Ashgrove');
    // (The issuer's own block, the lines under her name in its column, ends at the heading over the client's.)
    expect(addresseeBlock(page(freelancer))?.name).toBe('Tobin Ashgrove');
  });
});
