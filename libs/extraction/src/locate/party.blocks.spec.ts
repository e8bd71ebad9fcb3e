import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';
import { block, invoiceSchema, L, layoutOf, R, row, type Item } from '../testing/invoice-layout.test-helper.js';
import { isPostcodeLine } from './address.block.js';

// Party blocks of the shapes small businesses print: a salutation alone over the addressee's name, a return address
// over a window envelope's address with a postcode that is not a run of digits. Every name and address is invented.

const run = (items: Item[]) => extractFromLayout(layoutOf([items]), invoiceSchema).result;

const rest: Item[] = [
  L(360, 40, 'INVOICE', 18, true),
  ...row(70, [360, 'Invoice no.:'], [460, 'QP-1187']),
  ...row(82, [360, 'Invoice date:'], [460, '15 March 2024']),
  ...row(220, [50, 'Description'], [360, 'Qty', 'r'], [545, 'Amount', 'r']),
  ...row(236, [50, 'Letterpress cards'], [360, '2', 'r'], [545, '50.00', 'r']),
  ...row(270, [380, 'Total'], [545, '50.00', 'r']),
];

describe('a salutation alone over a name under a role label', () => {
  it.each([
    ['Bill to:', 'Ms', 'Jane Quill'],
    ['Factuuradres:', 'Dhr.', 'Piet Veldkamp'],
    ['Facturé à :', 'Mme', 'Lucie Papin'],
  ])('%s / %s / %s', (label, salutation, name) => {
    const r = run([
      L(50, 40, 'Quillfeather Print Ltd', 14, true),
      L(50, 120, label, 9, true),
      ...block(50, 132, [salutation, name, '7 Crumb Street', 'Loafield LF2 9RB']),
      ...rest,
    ]);
    expect(r.buyer_name).toBe(name);
  });
});

describe('postcodes of the locale packs', () => {
  const v = allPacksVocabulary();
  it.each([
    ['Papertown PT4 2QX', true],
    ['London SW1A 2AA', true],
    ['1234 AB Stadskanaal', true],
    ['00-950 Miasto', true],
    ['12345 Musterstadt', true],
    ['LOT 1234-A', false],
    ['Letterpress cards 2', false],
  ] as const)('%s → %s', (text, want) => expect(isPostcodeLine(text, v)).toBe(want));

  it('a return address with a UK postcode over the window address gives the buyer', () => {
    const r = run([
      L(50, 40, 'Quillfeather Print Ltd', 14, true),
      L(50, 118, 'Quillfeather Print Ltd · 12 Inkpot Lane · Papertown PT4 2QX', 6),
      ...block(50, 130, ['Brambleworth Bakery', '7 Crumb Street', 'Loafield LF2 9RB']),
      ...rest,
    ]);
    expect(r.buyer_name).toBe('Brambleworth Bakery');
  });
});

describe('legal forms of the locale packs', () => {
  it('a French one-person company (EURL) letterhead is the seller, not the SAS it bills', () => {
    const r = run([
      L(50, 40, 'Atelier Brindille EURL', 14, true),
      L(50, 118, 'Atelier Brindille EURL · 4 rue des Glycines · 33000 Bordeaux', 6),
      ...block(50, 130, ['Maison Cerfeuil SAS', '12 avenue des Tilleuls', '69003 Lyon']),
      L(340, 100, 'Facture', 14, true),
      ...row(125, [340, 'N° de facture :'], [545, 'F-2024-031', 'r']),
      ...row(137, [340, 'Date :'], [545, '05/03/2024', 'r']),
      ...row(240, [50, 'Désignation'], [545, 'Montant HT', 'r']),
      ...row(256, [50, 'Reliure de cahiers'], [545, '120,00 €', 'r']),
      ...row(290, [380, 'Total TTC'], [545, '144,00 €', 'r']),
    ]);
    expect({ seller: r.seller_name, buyer: r.buyer_name }).toEqual({ seller: 'Atelier Brindille EURL', buyer: 'Maison Cerfeuil SAS' });
  });
});

describe('billed party, delivery party and brand letterheads', () => {
  const tail: Item[] = [
    L(50, 210, 'Invoice No. QP-1187', 14, true),
    ...row(240, [50, 'Invoice date:'], [170, '15 March 2024']),
    ...row(280, [50, 'Description'], [545, 'Amount', 'r']),
    ...row(296, [50, 'Letterpress cards'], [545, '50.00', 'r']),
    ...row(330, [380, 'Total'], [545, '50.00', 'r']),
  ];

  it('a "Ship to" block beside the unlabelled address window: the buyer is the window\'s party', () => {
    const r = run([
      L(50, 40, 'Quillfeather Print Ltd', 14, true),
      L(50, 118, 'Quillfeather Print Ltd · 12 Inkpot Lane · Papertown PT4 2QX', 6),
      L(320, 116, 'Ship to:', 8, true),
      ...block(50, 130, ['Brambleworth Bakery Ltd', '7 Crumb Street', 'Loafield LF2 9RB']),
      ...block(320, 130, ['Hollowmere Depot Ltd', '3 Wharf Road', 'Canalby CB3 1XY']),
      ...tail,
    ]);
    expect(r.buyer_name).toBe('Brambleworth Bakery Ltd');
  });

  it('a salutation alone in the unlabelled address window opens it', () => {
    const r = run([
      L(50, 40, 'Atelier Brindille SAS', 14, true),
      L(50, 118, 'Atelier Brindille SAS · 4 rue des Glycines · 33000 Bordeaux', 6),
      L(320, 116, 'Adresse de livraison :', 8, true),
      ...block(50, 130, ['M.', 'Paul Cerfeuil', '12 avenue des Tilleuls', '69003 Lyon']),
      ...block(320, 130, ['Entrepôt Lisière SARL', '5 quai des Brumes', '69007 Lyon']),
      ...tail,
    ]);
    expect(r.buyer_name).toBe('Paul Cerfeuil');
  });

  it('a brand letterhead over a legal name printed in the footer: the legal name is the seller', () => {
    const r = run([
      L(50, 40, 'QUILLFEATHER', 16, true),
      L(50, 62, '12 Inkpot Lane · Papertown PT4 2QX · Tel: +44 20 5550 1234', 8),
      ...block(50, 130, ['Brambleworth Bakery Ltd', '7 Crumb Street', 'Loafield LF2 9RB']),
      ...tail,
      L(50, 770, 'Quillfeather Print Ltd · Registered in England and Wales No. 01234567', 6),
    ]);
    expect(r.seller_name).toBe('Quillfeather Print Ltd');
  });

  it('the legal name of a brand letterhead may be printed on the last page only', () => {
    const first: Item[] = [
      L(50, 40, 'QUILLFEATHER', 16, true),
      L(50, 62, '12 Inkpot Lane · Papertown PT4 2QX · Tel: +44 20 5550 1234', 8),
      ...block(50, 130, ['Brambleworth Bakery Ltd', '7 Crumb Street', 'Loafield LF2 9RB']),
      ...tail,
    ];
    const last: Item[] = [
      L(50, 40, 'Terms and conditions apply.'),
      L(50, 770, 'Quillfeather Print Ltd · Registered in England and Wales No. 01234567', 6),
    ];
    expect(extractFromLayout(layoutOf([first, last]), invoiceSchema).result.seller_name).toBe('Quillfeather Print Ltd');
  });
});

describe('contact lines of the locale packs', () => {
  it('a French phone line ("Tél.") under a brand letterhead marks the buyer\'s legal name below it as someone else', () => {
    const r = run([
      L(50, 40, 'BRINDILLE', 16, true),
      L(50, 62, '4 rue des Glycines · 33000 Bordeaux · Tél. : 05 56 00 00 00', 8),
      ...block(50, 130, ['Maison Cerfeuil SARL', '12 avenue des Tilleuls', '69003 Lyon']),
      L(50, 210, 'Facture n° F-2024-031', 14, true),
      ...row(240, [50, 'Date :'], [170, '05/03/2024']),
      ...row(280, [50, 'Désignation'], [545, 'Montant', 'r']),
      ...row(296, [50, 'Reliure de cahiers'], [545, '120,00 €', 'r']),
      ...row(330, [380, 'Total TTC'], [545, '120,00 €', 'r']),
      L(50, 770, 'Brindille Atelier SAS · RCS Bordeaux 000 000 000', 6),
    ]);
    expect({ seller: r.seller_name, buyer: r.buyer_name }).toEqual({ seller: 'Brindille Atelier SAS', buyer: 'Maison Cerfeuil SARL' });
  });
});

describe('the seller holds its tax id', () => {
  it('two unlabelled blocks, the client first: the block under which the VAT id stands is the seller', () => {
    const r = run([
      ...block(34, 35, ['Marrowby Bakers Ltd', '9 Crust Lane', 'Loafield LF2 9RB', 'P: +44 1632 960123']),
      ...block(34, 116, ['Quillfeather Print Ltd', 'VAT: GB123456782', '4 Ink Row', 'Papertown PT4 2QX']),
      ...rest,
    ]);
    expect(r).toMatchObject({ seller_name: 'Quillfeather Print Ltd', buyer_name: 'Marrowby Bakers Ltd', vat_id: 'GB123456782' });
  });
});

describe('a party name is never a date', () => {
  it('the cell beside the "To:" label that prints a date is not the buyer; the name under the label is', () => {
    const r = run([
      L(34, 40, 'Quillfeather Print Ltd', 14, true),
      ...row(283, [34, 'To:'], [413, 'Due Date October 17, 2031 00:00']),
      ...block(34, 312, ['Marrowby Bakers Ltd', '9 Crust Lane', 'Loafield LF2 9RB']),
      ...row(400, [50, 'Description'], [360, 'Qty', 'r'], [545, 'Amount', 'r']),
      ...row(416, [50, 'Letterpress cards'], [360, '2', 'r'], [545, '50.00', 'r']),
      ...row(440, [380, 'Total'], [545, '50.00', 'r']),
    ]);
    expect(r.buyer_name).toBe('Marrowby Bakers Ltd');
  });
});

describe('a buyer name wrapped under its heading', () => {
  it.each([
    [['Marrowby Bakers', 'e.K.'], 'Marrowby Bakers e.K.'],
    [['Marrowby Bakers GmbH &', 'Co. KG'], 'Marrowby Bakers GmbH & Co. KG'],
  ])('%j reads as %s', (nameLines, name) => {
    const r = run([
      L(56, 40, 'Quillfeather Print Ltd', 14, true),
      L(56, 242, 'Rechnungsanschrift', 9, true),
      ...block(56, 264, [...nameLines, 'Lindenweg 12', '10115 Berlin']),
      ...rest.map((i) => ({ ...i, y: i.y + 300 })),
    ]);
    expect(r.buyer_name).toBe(name);
  });

  it('an unlabelled addressee block whose name stands apart from its address: the name, not the town', () => {
    const r = run([
      L(412, 40, 'Quillfeather Print Ltd', 10, true),
      ...block(412, 52, ['4 Ink Row', 'Papertown PT4 2QX']),
      L(54, 175, 'Marrowby Bakers KG', 9, true),
      ...block(54, 195, ['Lindenweg 12', 'Birkenau', 'Deutschland 10115']),
      ...rest.map((i) => ({ ...i, y: i.y + 300 })),
    ]);
    expect(r.buyer_name).toBe('Marrowby Bakers KG');
  });
});

describe('block headings without a colon', () => {
  const details = (name: string, vat: string, street: string) => [name, street, 'Loafield LF2 9RB', `VAT-ID: ${vat}`];

  it('"To" and "From" over two stacked blocks name the buyer and the seller; the seller\'s VAT id is the one in its block', () => {
    const r = run([
      L(34, 79, 'To'),
      ...block(34, 92, details('Marrowby Bakers Ltd', 'GB111111111', '9 Crust Lane')),
      L(34, 173, 'From'),
      ...block(34, 187, details('Quillfeather Print Ltd', 'GB222222222', '4 Ink Row')),
      ...rest.map((i) => ({ ...i, y: i.y + 200 })),
    ]);
    expect(r).toMatchObject({ buyer_name: 'Marrowby Bakers Ltd', seller_name: 'Quillfeather Print Ltd', vat_id: 'GB222222222' });
  });

  it('"An" and "Von" side by side on one line; a heading word is never a name', () => {
    const r = run([
      ...row(37, [36, 'An'], [300, 'Von']),
      ...row(50, [36, 'Marrowby Backwaren GmbH'], [300, 'Quillfeder Druck KG']),
      ...row(64, [36, 'Krumenweg 9'], [300, 'Tintenweg 4']),
      ...row(77, [36, '10115 Berlin'], [300, '20095 Hamburg']),
      ...rest.map((i) => ({ ...i, y: i.y + 200 })),
    ]);
    expect(r).toMatchObject({ buyer_name: 'Marrowby Backwaren GmbH', seller_name: 'Quillfeder Druck KG' });
  });
});

describe('an addressee printed beside the issuer, unlabelled', () => {
  // Two blocks side by side from the first line: the issuer's on the left, the addressee's on the right.
  const sideBySide = (right: string[]): Item[] => [
    ...block(50, 130, ['Amberline Studio Ltd', '15 Gull Way', 'Portford PF6 3LD', 'GB']),
    ...block(380, 130, right),
    ...rest,
  ];

  it("is the addressee even though its first line shares the issuer name's line", () => {
    const r = run(sideBySide(['Cobble Yard Limited', '48 Tern Street', 'Marlow MR4 7TB', 'GB']));
    expect(r.seller_name).toBe('Amberline Studio Ltd');
    expect(r.buyer_name).toBe('Cobble Yard Limited');
  });

  it('is the company under a contact person, and "& Partners" is a company\'s name', () => {
    const r = run([
      ...block(50, 130, ['Amberline Studio Ltd', '15 Gull Way', 'Portford PF6 3LD', 'GB']),
      ...block(380, 150, ['Wren Halloway', 'Tidewell & Partners', '48 Tern Street', 'Marlow MR4 7TB']),
      ...rest,
    ]);
    expect(r.buyer_name).toBe('Tidewell & Partners');
  });
});

describe('party labels and names beside other cells on their line', () => {
  const items: Item[] = [
    L(50, 220, 'Description', 9, true),
    ...row(236, [50, 'Trail maps'], [545, '88.00', 'r']),
    ...row(270, [380, 'Total'], [545, '88.00', 'r']),
  ];

  it('reads the buyer under "Bill To" when "Ship To" and a numbered key stand right of it', () => {
    const r = run([
      L(50, 40, 'Ridgeway Outfitters Inc.', 12, true),
      ...row(120, [50, 'Bill To'], [220, 'Ship To'], [400, 'Invoice #'], [470, '10457']),
      ...block(50, 132, ['Cairn Guides LLC', '41 Aspen Way', 'Estes Park, CO 80517']),
      ...block(220, 132, ['Trailhead Depot', '9 Elk Lane', 'Estes Park, CO 80517']),
      ...items,
    ]);
    expect(r.buyer_name).toBe('Cairn Guides LLC');
  });
});

describe('an attention line over the firm', () => {
  it('takes the firm with a legal form under a person named by salutation as the party', () => {
    const r = run([
      L(50, 40, 'Quillfeather Print Ltd', 14, true),
      L(50, 120, 'Bill to', 9, true),
      ...block(50, 132, ['Ms Clara Whitfield', 'Oakridge Legal LLP', '4 Chancery Court', 'Loafield LF1 1CC']),
      ...rest,
    ]);
    expect(r.buyer_name).toBe('Oakridge Legal LLP');
  });

  it('keeps a person with no firm under them as the party', () => {
    const r = run([
      L(50, 40, 'Quillfeather Print Ltd', 14, true),
      L(50, 120, 'Bill to', 9, true),
      ...block(50, 132, ['Ms Clara Whitfield', '4 Chancery Court', 'Loafield LF1 1CC']),
      ...rest,
    ]);
    expect(r.buyer_name).toBe('Ms Clara Whitfield');
  });

  it('reads the window address past a labelled customer number under the return address', () => {
    const r = run([
      L(380, 40, 'NORDWIND', 14, true),
      L(50, 120, 'Nordwind Elektro GmbH · Deichweg 4 · 26123 Oldenburg', 7),
      ...block(50, 134, ['Kundennr. 30021', 'Bäckerei Sonnenkorn GmbH', 'Marktstraße 17', '26122 Oldenburg']),
      ...rest,
    ]);
    expect(r.buyer_name).toBe('Bäckerei Sonnenkorn GmbH');
  });
});

describe('the issuer the legal footer names', () => {
  // A French guest house bills a company: its own block top left (no legal form on it), the customer's block on the
  // right with a legal form and a VAT number under it, the guest house's name again over its legal footer.
  const page: Item[] = [
    L(400, 40, 'FACTURE', 16, true),
    ...row(60, [400, 'N° :'], [460, 'GH-2031']),
    ...row(72, [400, 'Date :'], [460, '14/06/2024']),
    ...block(50, 110, ['Gîte des Quatre Vents', '3, chemin des Ormes', '24000 Périgueux', 'France']),
    ...block(360, 170, ['Vervain Conseil SARL', '18, rue des Lilas', '33000 Bordeaux', 'France']),
    ...row(230, [360, 'TVA : FR08812345674']),
    ...row(280, [50, 'Description'], [360, 'Qté', 'r'], [545, 'Total HT', 'r']),
    ...row(296, [50, 'Nuitées du 02/06 au 05/06'], [360, '3', 'r'], [545, '270,00', 'r']),
    ...row(330, [380, 'Total TTC'], [545, '297,00', 'r']),
    L(180, 770, 'Gîte des Quatre Vents', 7),
    L(120, 782, '3, chemin des Ormes – 24000 Périgueux', 7),
    L(80, 794, 'EURL au capital de 8 000 € – SIRET 81234567400012 – RCS Périgueux – TVA FR41812345674', 7),
  ];

  it("is the seller, and the tax id under the other block is not the seller's", () => {
    const r = run(page);
    expect(r).toMatchObject({ seller_name: 'Gîte des Quatre Vents', buyer_name: 'Vervain Conseil SARL', vat_id: 'FR41812345674' });
  });
});

describe('an addressee block set flush right', () => {
  it('is read line by line along its right edge', () => {
    const r = run([
      L(400, 40, 'Invoice INV-7781', 12),
      ...row(58, [400, 'Invoice Date:'], [470, '1 Apr 2025']),
      ...block(60, 110, ['Ambledown Studio Ltd', '4 Larchfield Mews', 'Hollin Cross HX2 7QP', 'GB'], 11, 18),
      ...['Ivo Stern', 'Quarrow Velstan & Partners', '9 Saltmarsh Way', 'Fernholt FH3 8ZW', 'GB'].map((t, i) =>
        R(545, 110 + i * 18, t, 11),
      ),
      ...row(240, [60, 'Description'], [545, 'Amount', 'r']),
      ...row(256, [60, 'Support hours'], [545, '850.25', 'r']),
      ...row(290, [400, 'Total'], [545, '850.25', 'r']),
    ]);
    expect(r).toMatchObject({ seller_name: 'Ambledown Studio Ltd', buyer_name: 'Quarrow Velstan & Partners' });
  });
});
