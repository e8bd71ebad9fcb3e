import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { FieldDef } from '../engine.types.js';
import { invoiceSchema, L, layoutOf, R, type Item } from '../testing/invoice-layout.test-helper.js';
import { headerCandidates } from './table.header.candidates.js';

// Item codes in line-item tables as ERP and office programs print them (tools/eval/synth-office-invoices.mjs makes such
// PDFs with LibreOffice): a code column set close before the descriptions, its header naming an item ("Item code"),
// codes wrapped in a narrow column, code sub-lines under an item. Codes are their own column, never description text.
// Every word and figure below is invented. (layoutOf: 4.5 units per character at size 9.)

const lineItems = (items: Item[]) => extractFromLayout(layoutOf([items]), invoiceSchema).result.line_items as Record<string, unknown>[];

/** Header: "No." | "Item code" (68 … 108.5) | the description's (from 118) | Qty | Unit price | Amount. */
const header = (y: number, description = 'Description'): Item[] => [
  L(50, y, 'No.'),
  L(68, y, 'Item code'),
  L(118, y, description),
  R(360, y, 'Qty'),
  R(440, y, 'Unit price'),
  R(520, y, 'Amount'),
];
/** One item: its number, its code at 68, its description at 114.5 (the code ends 1.5 before it), its figures. */
const item = (y: number, no: string, code: string, desc: string, qty: string, price: string, amount: string): Item[] => [
  L(50, y, no),
  L(68, y, code),
  L(114.5, y, desc),
  R(360, y, qty),
  R(440, y, price),
  R(520, y, amount),
];

/** A plain item table's header: Description | Qty | Unit price | Amount. */
const plainHeader = (y: number): Item[] => [L(60, y, 'Description'), R(360, y, 'Qty'), R(440, y, 'Unit price'), R(520, y, 'Amount')];
/** One item of the plain table. */
const plainItem = (y: number, desc: string, qty: string, price: string, amount: string): Item[] => [
  L(60, y, desc),
  R(360, y, qty),
  R(440, y, price),
  R(520, y, amount),
];

describe('item codes in line-item tables', () => {
  it('an "Item code" column set one narrow space before the descriptions keeps its codes', () => {
    const rows = lineItems([
      ...header(200),
      ...item(214, '1', 'KX-4021-77', 'Velmor cable set', '3', '12.50', '37.50'),
      ...item(228, '2', 'PT-1188-02', 'Sarnel wall mount', '1', '49.00', '49.00'),
      ...item(242, '3', 'QL-7310-15', 'Dorvik patch panel', '2', '80.25', '160.50'),
      L(380, 270, 'Total'),
      R(520, 270, '247.00'),
    ]);
    expect(rows.map((r) => r.description)).toEqual(['Velmor cable set', 'Sarnel wall mount', 'Dorvik patch panel']);
    expect(rows.map((r) => r.amount)).toEqual([37.5, 49, 160.5]);
  });

  it('"Item code" names no description, even beside a description header that names it less plainly', () => {
    const rows = lineItems([
      ...header(200, 'Product / Service'),
      ...item(214, '1', 'KX-4021-77', 'Velmor cable set', '3', '12.50', '37.50'),
      ...item(228, '2', 'PT-1188-02', 'Sarnel wall mount', '1', '49.00', '49.00'),
      L(380, 256, 'Total'),
      R(520, 256, '86.50'),
    ]);
    expect(rows.map((r) => r.description)).toEqual(['Velmor cable set', 'Sarnel wall mount']);
  });

  it('a code wrapped in its narrow column stays out of the note line it shares', () => {
    const rows = lineItems([
      ...header(200),
      ...item(214, '1', 'KX-', 'Velmor cable set', '3', '12.50', '37.50'),
      L(68, 226, '402177'),
      L(114.5, 226, 'mounted on the east wall'),
      ...item(242, '2', 'PT-1188-02', 'Sarnel wall mount', '1', '49.00', '49.00'),
      ...item(256, '3', 'QL-', 'Dorvik patch panel', '2', '80.25', '160.50'),
      L(68, 268, '731015'),
      L(114.5, 268, 'fitted on site'),
      L(380, 290, 'Total'),
      R(520, 290, '247.00'),
    ]);
    expect(rows.map((r) => r.description)).toEqual([
      'Velmor cable set mounted on the east wall',
      'Sarnel wall mount',
      'Dorvik patch panel fitted on site',
    ]);
  });

  it('a code sub-line under an item ("Item code KX-40211") is no description text', () => {
    const rows = lineItems([
      ...plainHeader(200),
      ...plainItem(214, 'Velmor cable set', '3', '12.50', '37.50'),
      L(60, 226, 'Item code KX-40211'),
      ...plainItem(242, 'Sarnel wall mount', '1', '49.00', '49.00'),
      L(60, 254, 'Item code PT-118802'),
      L(380, 276, 'Total'),
      R(520, 276, '86.50'),
    ]);
    expect(rows.map((r) => r.description)).toEqual(['Velmor cable set', 'Sarnel wall mount']);
  });
});

describe('German price headers', () => {
  /** The header of the item table: quantity, unit, description, price per unit, line total. */
  const germanHeader = (y: number): Item[] => [
    L(50, y, 'Menge'),
    L(90, y, 'Einheit'),
    L(140, y, 'Beschreibung'),
    R(440, y, 'Preis/Einh.'),
    R(520, y, 'Gesamtpreis'),
  ];
  const germanItem = (y: number, qty: string, unit: string, desc: string, price: string, amount: string): Item[] => [
    R(75, y, qty),
    L(90, y, unit),
    L(140, y, desc),
    R(440, y, price),
    R(520, y, amount),
  ];

  it('"Preis/Einh." (price per unit) names the unit price as fully as "Einzelpreis" does', () => {
    const line = layoutOf([germanHeader(700)]).pages[0]!.lines[0]!;
    const cols = (invoiceSchema.fields.find((f) => f.key === 'line_items')!.fields ?? []) as FieldDef[];
    const best = Math.max(
      ...headerCandidates(line, cols)
        .filter((c) => cols[c.ci]!.key === 'unit_price')
        .map((c) => c.score),
    );
    expect(best).toBeGreaterThan(0.9);
  });

  it('a table under "Preis/Einh." run over two pages is read on both', () => {
    const page1 = [
      ...germanHeader(700),
      ...germanItem(714, '3', 'Stk', 'Kabelsatz Velmor', '12,50', '37,50'),
      ...germanItem(728, '2', 'Std', 'Montage Sarnel', '80,00', '160,00'),
    ];
    const page2 = [
      ...germanHeader(32),
      ...germanItem(46, '1', 'Tag', 'Schulung Dorvik', '400,00', '400,00'),
      L(380, 80, 'Gesamtbetrag'),
      R(520, 80, '597,50'),
    ];
    const rows = extractFromLayout(layoutOf([page1, page2]), invoiceSchema).result.line_items;
    expect(rows).toEqual([
      { quantity: 3, description: 'Kabelsatz Velmor', unit_price: 12.5, amount: 37.5 },
      { quantity: 2, description: 'Montage Sarnel', unit_price: 80, amount: 160 },
      { quantity: 1, description: 'Schulung Dorvik', unit_price: 400, amount: 400 },
    ]);
  });

  it('tax lines that open with their rate ("7 % Umsatzsteuer") on the page after the items are no items', () => {
    const page1 = [
      ...germanHeader(700),
      ...germanItem(714, '3', 'Stk', 'Kabelsatz Velmor', '12,50', '37,50'),
      ...germanItem(728, '2', 'Std', 'Montage Sarnel', '80,00', '160,00'),
      L(300, 760, 'Nettobetrag'),
      R(520, 760, '197,50'),
    ];
    const page2 = [
      L(300, 32, '19 % Umsatzsteuer'),
      R(520, 32, '30,40'),
      L(300, 46, '7 % Umsatzsteuer'),
      R(520, 46, '2,17'),
      L(300, 60, 'Gesamtbetrag'),
      R(520, 60, '230,07'),
    ];
    const rows = extractFromLayout(layoutOf([page1, page2]), invoiceSchema).result.line_items as Record<string, unknown>[];
    expect(rows.map((r) => r.description)).toEqual(['Kabelsatz Velmor', 'Montage Sarnel']);
  });
});

describe('tables over pages', () => {
  it('a table whose repeated header names its columns better on the next page starts on the first page all the same', () => {
    const header = (y: number, price: string): Item[] => [
      L(50, y, 'Menge'),
      L(140, y, 'Beschreibung'),
      R(440, y, price),
      R(520, y, 'Betrag'),
    ];
    const item = (y: number, qty: string, desc: string, price: string, amount: string): Item[] => [
      R(75, y, qty),
      L(140, y, desc),
      R(440, y, price),
      R(520, y, amount),
    ];
    const page1 = [
      ...header(700, 'Einzelpreis'),
      ...item(714, '3', 'Kabelsatz Velmor', '12,50', '37,50'),
      ...item(728, '2', 'Montage Sarnel', '80,00', '160,00'),
    ];
    const page2 = [
      ...header(32, 'Preis/Einh.'),
      ...item(46, '1', 'Schulung Dorvik', '400,00', '400,00'),
      L(380, 80, 'Gesamtbetrag'),
      R(520, 80, '597,50'),
    ];
    const rows = extractFromLayout(layoutOf([page1, page2]), invoiceSchema).result.line_items as Record<string, unknown>[];
    expect(rows.map((r) => r.description)).toEqual(['Kabelsatz Velmor', 'Montage Sarnel', 'Schulung Dorvik']);
  });
});

describe('rows broken by the page end', () => {
  it('a note of the page’s last item printed on the next page stays with it; a discount there is no item', () => {
    const page1 = [
      ...plainHeader(700),
      ...plainItem(714, 'Velmor cable set', '3', '12.50', '37.50'),
      L(60, 726, 'mounted on the east wall'),
      ...plainItem(740, 'Sarnel wall mount', '1', '49.00', '49.00'),
    ];
    const page2 = [
      ...plainHeader(32),
      L(60, 46, 'delivered to the loading bay'),
      L(60, 58, 'less 10% discount'),
      R(520, 58, '-4.90'),
      ...plainItem(72, 'Dorvik patch panel', '2', '80.25', '160.50'),
      L(380, 100, 'Net total'),
      R(520, 100, '242.10'),
    ];
    const rows = extractFromLayout(layoutOf([page1, page2]), invoiceSchema).result.line_items as Record<string, unknown>[];
    expect(rows.map((r) => r.description)).toEqual([
      'Velmor cable set mounted on the east wall',
      'Sarnel wall mount delivered to the loading bay',
      'Dorvik patch panel',
    ]);
  });
});

describe('discount sub-lines', () => {
  it('a discount printed under its item with a negative amount ("less 10% discount ‖ -3.75") is no item', () => {
    const rows = lineItems([
      ...plainHeader(200),
      ...plainItem(214, 'Velmor cable set', '3', '12.50', '37.50'),
      L(60, 226, 'less 10% discount'),
      R(520, 226, '-3.75'),
      ...plainItem(242, 'Sarnel wall mount', '1', '49.00', '49.00'),
      L(60, 254, 'abzgl. 5 % Rabatt'),
      R(520, 254, '(2.45)'),
      L(380, 276, 'Net total'),
      R(520, 276, '80.30'),
    ]);
    expect(rows).toEqual([
      { description: 'Velmor cable set', quantity: 3, unit_price: 12.5, amount: 37.5 },
      { description: 'Sarnel wall mount', quantity: 1, unit_price: 49, amount: 49 },
    ]);
  });
});
