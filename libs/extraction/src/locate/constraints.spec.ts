import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { acceptableString } from './constraints.js';
import { block, invoiceSchema, L, layoutOf, row, type Item } from '../testing/invoice-layout.test-helper.js';

// Constraints every extraction must respect, whatever the document: an amount is never a year, date, postcode,
// phone number or identifier; a printed label is never a value; net + tax = total and the line items' sum decide
// between competing amounts; code lines under an item (GTIN, SKU …) are no part of its description; the due date
// is not before the invoice date; seller and buyer are different parties. Every name, number and address below is
// invented.

const run = (items: Item[]) => extractFromLayout(layoutOf([items]), invoiceSchema).result;

/** A plain invoice head: seller letterhead, buyer block under "Bill to:", number and dates. */
const head = (extra: { invoiceDate?: string; due?: string } = {}): Item[] => [
  L(50, 40, 'Nordwind Werkzeuge GmbH', 14, true),
  ...block(50, 60, ['Maple Street 12', '20457 Hamburg', 'VAT ID: DE361507283'], 8),
  L(360, 40, 'INVOICE', 18, true),
  ...row(70, [360, 'Invoice no.:'], [460, 'NW-2024-0815']),
  ...row(82, [360, 'Invoice date:'], [460, extra.invoiceDate ?? '15.03.2024']),
  ...(extra.due ? row(94, [360, 'Due date:'], [460, extra.due]) : []),
  L(50, 120, 'Bill to:', 9, true),
  ...block(50, 132, ['Lindenhof Bäckerei KG', 'Birch Lane 7', '50667 Köln']),
];

/** A two-line item table: header at y 200, rows at 216 and 230. */
const items = (y = 200): Item[] => [
  ...row(y, [50, 'Description'], [360, 'Qty', 'r'], [450, 'Unit price', 'r'], [545, 'Amount', 'r']),
  ...row(y + 16, [50, 'Torque wrench 40-200 Nm'], [360, '1', 'r'], [450, '60.00', 'r'], [545, '60.00', 'r']),
  ...row(y + 30, [50, 'Socket set 1/2 inch'], [360, '2', 'r'], [450, '20.00', 'r'], [545, '40.00', 'r']),
];

/** Summary block: net 100.00, VAT 19.00, total 119.00 from y. */
const summary = (y: number): Item[] => [
  ...row(y, [380, 'Net amount'], [545, '100.00', 'r']),
  ...row(y + 12, [380, 'VAT 19%'], [545, '19.00', 'r']),
  ...row(y + 24, [380, 'Total EUR'], [545, '119.00', 'r']),
];

describe('constraint 1: an amount is never a year, date, postcode, phone number or identifier', () => {
  it('a "© 2023" footer and a tax year are not amounts', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      ...row(282, [380, 'Total'], [545, '100.00', 'r']),
      L(50, 300, 'Tax-exempt small business. Tax year: 2023'),
      L(50, 800, 'Total quality tools © 2023 Nordwind Werkzeuge GmbH', 7),
    ]);
    expect(r.total_amount).toBe(100);
    expect(r.net_amount).toBe(100);
    expect(r.tax_amount).toBeUndefined();
  });

  it('a postcode after a tax office is not the tax amount', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      ...row(282, [380, 'Total'], [545, '100.00', 'r']),
      L(50, 320, 'Tax office: Finanzamt Nordstadt, 20095 Hamburg'),
    ]);
    expect(r.tax_amount).toBeUndefined();
    expect(r.total_amount).toBe(100);
  });

  it('a street number under a "VAT:" label that holds a VAT id is not the tax amount', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      ...row(282, [380, 'Total'], [545, '100.00', 'r']),
      L(50, 320, 'Lindenhof Bäckerei KG'),
      L(50, 332, 'VAT: DE287469315'),
      L(50, 344, '156 Birch Lane'),
    ]);
    expect(r.tax_amount).toBeUndefined();
    expect(r.total_amount).toBe(100);
  });

  it('a phone number is not the total', () => {
    // (Printed after the summary: among equal labels the later one would otherwise win.)
    const r = run([
      ...head(),
      ...items(),
      ...summary(270),
      L(50, 320, 'Total service hotline: 040 123 456'),
      L(50, 332, 'Total support: +49 40 1234567'),
    ]);
    expect(r.total_amount).toBe(119);
    const bare = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      L(50, 320, 'Total service hotline: 040 123 456'),
    ]);
    expect(bare.total_amount).not.toBe(40123456);
  });

  it('an order number under a "Total" header is not the total', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      ...row(282, [380, 'VAT 19%'], [545, '19.00', 'r']),
      ...row(294, [380, 'Total'], [545, '119.00', 'r']),
      ...row(330, [50, 'Order total'], [200, 'Customer']),
      ...row(342, [50, 'Order no. 55012'], [200, 'Lindenhof']),
    ]);
    expect(r.total_amount).toBe(119);
  });

  it('an IBAN, a VAT id or a date is not an amount', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      ...row(282, [380, 'Total'], [545, '100.00', 'r']),
      ...row(320, [50, 'Net total:'], [150, 'DE361507283']),
      ...row(332, [50, 'Tax:'], [150, '15.03.2024']),
      ...row(344, [50, 'Total:'], [150, 'DE31 4307 1596 2846 1703 52']),
    ]);
    expect(r).toMatchObject({ net_amount: 100, total_amount: 100 });
    expect(r.tax_amount).toBeUndefined();
  });
});

describe('constraint 2: a label is never a value', () => {
  it('a label printed under the buyer heading is not the buyer name', () => {
    const r = run([
      L(50, 40, 'Nordwind Werkzeuge GmbH', 14, true),
      L(360, 40, 'INVOICE', 18, true),
      L(50, 120, 'Customer', 9, true),
      L(50, 132, 'Customer number 100234'),
      L(50, 144, 'Lindenhof Bäckerei KG'),
      ...summary(270),
    ]);
    expect(r.buyer_name).not.toBe('Customer number 100234');
    expect(r.buyer_name).not.toBe('Customer number');
  });

  it('"Kundennummer" and "Invoice date:" right of a buyer label are labels, not names', () => {
    const r = run([
      L(50, 40, 'Nordwind Werkzeuge GmbH', 14, true),
      ...row(120, [50, 'Kunde'], [200, 'Kundennummer']),
      ...row(132, [50, 'Client'], [200, 'Invoice date']),
      ...summary(270),
    ]);
    expect(r.buyer_name).toBeUndefined();
  });

  it('the value under a "Customer no." label is not the buyer name', () => {
    const r = run([
      L(50, 40, 'Nordwind Werkzeuge GmbH', 14, true),
      ...row(80, [400, 'Customer no.'], [480, 'Invoice no.']),
      ...row(92, [400, 'KD-4471'], [480, 'NW-2024-0815']),
      L(50, 150, 'Bill to', 9, true),
      ...block(50, 162, ['Lindenhof Bäckerei KG', 'Birch Lane 7', '50667 Köln']),
      ...summary(270),
    ]);
    expect(r.buyer_name).toBe('Lindenhof Bäckerei KG');
  });

  it('a legal form alone is not a party name', () => {
    const r = run([
      L(50, 40, 'Nordwind Werkzeuge', 14, true),
      ...row(120, [50, 'Customer:'], [200, 'GmbH']),
      ...row(132, [50, 'Seller:'], [200, 'S.A.']),
      ...summary(270),
    ]);
    expect(r.buyer_name).not.toBe('GmbH');
    expect(r.seller_name).not.toBe('S.A.');
  });
});

describe('constraint 3: totals consistency', () => {
  it('net + tax = total picks the printed total over a larger amount paid', () => {
    const r = run([
      ...head(),
      ...items(),
      ...summary(270),
      ...row(306, [380, 'Total paid'], [545, '150.00', 'r']),
      ...row(318, [380, 'Change'], [545, '31.00', 'r']),
    ]);
    expect(r).toMatchObject({ net_amount: 100, tax_amount: 19, total_amount: 119 });
  });

  it('the line items sum decides between competing net amounts', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      ...row(282, [380, 'Total'], [545, '100.00', 'r']),
      L(50, 320, 'Net weight 12.50 kg'),
    ]);
    expect(r.net_amount).toBe(100);
  });

  it('without a tax line the line items sum decides between two net labels', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      ...row(282, [380, 'Total'], [545, '100.00', 'r']),
      ...row(330, [50, 'Net amount of your last order'], [300, '80.00', 'r']),
    ]);
    expect(r.net_amount).toBe(100);
  });

  it('net + tax = total decides when two net amounts compete', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Subtotal'], [545, '100.00', 'r']),
      ...row(282, [380, 'VAT 19%'], [545, '19.00', 'r']),
      ...row(294, [380, 'Total'], [545, '119.00', 'r']),
      ...row(330, [50, 'Net'], [150, '30 days']),
      ...row(342, [50, 'Net amount carried forward'], [545, '250.00', 'r']),
    ]);
    expect(r).toMatchObject({ net_amount: 100, tax_amount: 19, total_amount: 119 });
  });

  it('the printed net + tax is the total when the total line has a label the vocabulary does not call a total', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net total'], [545, '100.00', 'r']),
      ...row(282, [380, 'VAT @ 19%'], [545, '19.00', 'r']),
      ...row(294, [380, 'Amount due'], [545, '119.00', 'r']),
    ]);
    expect(r).toMatchObject({ net_amount: 100, tax_amount: 19, total_amount: 119 });
  });

  it('a discount under the items and one tax line per rate: the line items sum does not replace the printed net', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Subtotal'], [545, '100.00', 'r']),
      ...row(282, [380, 'Discount 10%'], [545, '-10.00', 'r']),
      ...row(294, [380, 'Total excl. VAT'], [545, '90.00', 'r']),
      ...row(306, [380, 'VAT 19%'], [545, '11.40', 'r']),
      ...row(318, [380, 'VAT 7%'], [545, '2.10', 'r']),
      ...row(330, [380, 'Total'], [545, '103.50', 'r']),
    ]);
    expect(r).toMatchObject({ net_amount: 90, tax_amount: 13.5, total_amount: 103.5 });
  });

  it('no printed amount equal to net + tax: the chosen total stands', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net total'], [545, '100.00', 'r']),
      ...row(282, [380, 'VAT @ 19%'], [545, '19.00', 'r']),
      ...row(294, [380, 'Amount due'], [545, '118.00', 'r']),
    ]);
    expect(r.total_amount).not.toBe(119);
  });
});

describe('constraint 4: code lines under an item are not part of its description', () => {
  const table = (lines: Item[]) => [
    ...head(),
    ...row(200, [50, 'Description'], [360, 'Qty', 'r'], [450, 'Unit price', 'r'], [545, 'Amount', 'r']),
    ...lines,
    ...summary(330),
  ];

  it('GTIN, EAN, SKU, Art.-Nr., serial number lines stay out', () => {
    const r = run(
      table([
        ...row(216, [50, 'Torque wrench 40-200 Nm'], [360, '1', 'r'], [450, '60.00', 'r'], [545, '60.00', 'r']),
        L(50, 227, 'GTIN: 4006381333931'),
        ...row(244, [50, 'Socket set 1/2 inch'], [360, '1', 'r'], [450, '20.00', 'r'], [545, '20.00', 'r']),
        L(50, 255, 'EAN 4012345678901'),
        ...row(272, [50, 'Bit holder magnetic'], [360, '1', 'r'], [450, '10.00', 'r'], [545, '10.00', 'r']),
        L(50, 283, 'Art.-Nr. NW-77812'),
        ...row(300, [50, 'Cordless drill 18 V'], [360, '1', 'r'], [450, '10.00', 'r'], [545, '10.00', 'r']),
        L(50, 311, 'SKU NW-DR-18'),
        L(50, 322, 'S/N 7Q44-1188-20'),
      ]),
    );
    expect((r.line_items as { description: string }[]).map((x) => x.description)).toEqual([
      'Torque wrench 40-200 Nm',
      'Socket set 1/2 inch',
      'Bit holder magnetic',
      'Cordless drill 18 V',
    ]);
  });

  it('"Serial no." lines stay out while a wrapped description keeps all its lines', () => {
    const r = run(
      table([
        ...row(216, [50, 'Workbench oak top 160 x 80 cm,'], [360, '1', 'r'], [450, '90.00', 'r'], [545, '90.00', 'r']),
        L(50, 227, 'with two drawers and tool rail'),
        L(50, 238, 'Serial no. 2024-88117'),
        ...row(255, [50, 'Assembly service'], [360, '1', 'r'], [450, '10.00', 'r'], [545, '10.00', 'r']),
      ]),
    );
    expect((r.line_items as { description: string }[]).map((x) => x.description)).toEqual([
      'Workbench oak top 160 x 80 cm, with two drawers and tool rail',
      'Assembly service',
    ]);
  });
});

describe('constraint 5: the due date is not before the invoice date', () => {
  it('a due-labelled date earlier than the invoice date is not the due date', () => {
    const r = run([...head({ due: '01.02.2024' }), ...summary(270), L(50, 320, 'Payment due by: 14.04.2024')]);
    expect(r.invoice_date).toBe('2024-03-15');
    expect(r.due_date).toBe('2024-04-14');
  });

  it('with no later candidate the due date is left empty', () => {
    const r = run([...head({ due: '01.02.2024' }), ...summary(270)]);
    expect(r.invoice_date).toBe('2024-03-15');
    expect(r.due_date).toBeUndefined();
  });
});

describe('constraint 6: seller and buyer are different parties', () => {
  it('a buyer name equal to the seller found by fallback re-picks the seller', () => {
    // No letterhead text (a logo): the first legal-form name at the top is the customer's window block.
    const r = run([
      L(50, 110, 'Customer:', 9, true),
      ...block(50, 122, ['Lindenhof Bäckerei GmbH', 'Birch Lane 7', '50667 Köln']),
      L(360, 110, 'INVOICE', 18, true),
      ...row(140, [360, 'Invoice no.:'], [460, 'NW-2024-0815']),
      ...summary(270),
      L(50, 790, 'Nordwind Werkzeuge GmbH · Maple Street 12 · 20457 Hamburg', 7),
      L(50, 800, 'Account holder: Nordwind Werkzeuge GmbH · IBAN DE31 4307 1596 2846 1703 52', 7),
    ]);
    expect(r.buyer_name).toBe('Lindenhof Bäckerei GmbH');
    expect(r.seller_name).toBe('Nordwind Werkzeuge GmbH');
  });

  it('a fallback seller that is the labelled buyer line is re-picked from the account holder', () => {
    const r = run([
      ...row(40, [50, 'Customer:'], [110, 'Lindenhof Bäckerei GmbH']),
      ...block(110, 52, ['Birch Lane 7', '50667 Köln']),
      L(360, 40, 'INVOICE', 18, true),
      ...summary(270),
      L(50, 800, 'Account holder: Nordwind Werkzeuge GmbH · IBAN DE31 4307 1596 2846 1703 52', 7),
    ]);
    expect(r.buyer_name).toBe('Lindenhof Bäckerei GmbH');
    expect(r.seller_name).toBe('Nordwind Werkzeuge GmbH');
  });

  it('the customer block printed as a letterhead does not make the buyer the seller', () => {
    const customer = [
      ...block(50, 40, ['Lindenhof Bäckerei GmbH', 'Birch Lane 7', '50667 Köln']),
      L(360, 40, 'INVOICE', 18, true),
      ...row(100, [360, 'Customer:'], [430, 'Lindenhof Bäckerei GmbH']),
      ...summary(270),
    ];
    // With the issuer in the legal footer it is re-picked from there …
    const r = run([
      ...customer,
      L(50, 790, 'Nordwind Werkzeuge GmbH · Maple Street 12 · 20457 Hamburg', 7),
      L(50, 800, 'Amtsgericht Hamburg HRB 99881 · Managing director: Jana Holm', 7),
    ]);
    expect(r.buyer_name).toBe('Lindenhof Bäckerei GmbH');
    expect(r.seller_name).toBe('Nordwind Werkzeuge GmbH');
    // … and without any other issuer it is left empty.
    const alone = run(customer);
    expect(alone.buyer_name).toBe('Lindenhof Bäckerei GmbH');
    expect(alone.seller_name).toBeUndefined();
  });

  it('a seller label printing the buyer name does not make them equal', () => {
    const r = run([
      L(50, 40, 'Nordwind Werkzeuge GmbH', 14, true),
      ...block(50, 60, ['Maple Street 12', '20457 Hamburg'], 8),
      ...row(120, [50, 'Buyer:'], [120, 'Lindenhof Bäckerei GmbH']),
      ...row(132, [50, 'Supplier ref. for:'], [150, 'Lindenhof Bäckerei GmbH']),
      ...summary(270),
    ]);
    expect(r.buyer_name).toBe('Lindenhof Bäckerei GmbH');
    expect(r.seller_name).not.toBe(r.buyer_name);
  });
});

describe('constraint 7: a party name is never an address line or a contact detail', () => {
  it.each([
    ['a street line', '12 Harbour Road'],
    ['a postcode line', '40213 Townsville'],
    ['an e-mail address', 'accounts@lindenhof.example'],
    ['a phone number', '+49 40 5551 2398'],
    ['an IBAN', 'DE31 4307 1596 2846 1703 52'],
  ])('%s right of the buyer label is not the buyer', (_, detail) => {
    const r = run([
      L(50, 40, 'Nordwind Werkzeuge GmbH', 14, true),
      L(360, 40, 'INVOICE', 18, true),
      ...row(70, [360, 'Invoice no.:'], [460, 'NW-2024-0815']),
      ...row(120, [50, 'Customer:'], [110, detail]),
      ...summary(270),
    ]);
    expect(r.buyer_name).not.toBe(detail);
  });
});

describe('constraint 7b: a contact detail is never an acceptable party name', () => {
  const seller = { key: 'seller_name', label: 'Seller', data_type: 'string' as const };
  it.each([
    'orla.penhallow@mail.example',
    'www.penhallow.example',
    '+44 20 5550 1234',
    'Tel. 020 5550 1234',
    'GB33 BUKB 2020 1555 5555 55',
  ])('%s', (detail) => expect(acceptableString(seller, detail)).toBe(false));
  it.each(['Orla Penhallow', 'Studio 54 Events Ltd'])('but %s is', (name) => expect(acceptableString(seller, name)).toBe(true));
});

describe('constraint 8: a figure under a row of column headers is the column its right edge ends in', () => {
  // Left-aligned headers over flush-right figures, each figure ending just before the next header starts.
  const vatTable = (y: number): Item[] => [
    ...row(y, [50, 'Rate'], [120, 'Net value'], [230, 'Tax amount'], [330, 'Total']),
    ...row(y + 14, [50, '19%'], [228, '100.00', 'r'], [327, '19.00', 'r'], [430, '119.00', 'r']),
  ];

  it('reads the tax amount under "Tax amount", not the net value ending next to it', () => {
    const r = run([
      ...head(),
      ...items(),
      ...row(270, [380, 'Net amount'], [545, '100.00', 'r']),
      ...row(282, [380, 'Total EUR'], [545, '119.00', 'r']),
      ...vatTable(320),
    ]);
    expect(r).toMatchObject({ net_amount: 100, tax_amount: 19, total_amount: 119 });
  });

  it('a tax identifier is never a figure of a few digits read beside a "VAT" label', () => {
    const field = { key: 'vat_id', label: 'Seller VAT ID', data_type: 'string' as const };
    expect(acceptableString(field, '1341.32')).toBe(false);
    expect(acceptableString(field, '21.00')).toBe(false);
    expect(acceptableString(field, 'DE361507283')).toBe(true);
    expect(acceptableString(field, 'IE6388047V')).toBe(true);
    expect(acceptableString({ key: 'order', label: 'Order number', data_type: 'string' }, '1341.32')).toBe(true);
  });
});
