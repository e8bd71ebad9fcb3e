import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { readText } from '../readers/text.reader.js';
import { createExtractionEngine } from '../extraction.engine.js';
import { makePdf } from '../testing/pdf.test-helper.js';

const schema = {
  fields: [
    {
      key: 'line_items',
      data_type: 'table' as const,
      fields: [
        { key: 'description', label: 'Description', data_type: 'string' as const },
        { key: 'quantity', label: 'Quantity', data_type: 'number' as const },
        { key: 'unit_price', label: 'Unit price', data_type: 'number' as const },
        { key: 'amount', label: 'Amount', data_type: 'number' as const },
      ],
    },
  ],
};

/** The line items read from a plain-text page (lines joined). */
const itemsOfText = (lines: string[]) => extractFromLayout(readText(new TextEncoder().encode(lines.join('\n'))), schema).result.line_items;

/** Extracts a text-layer PDF with a fresh engine, closed afterwards. */
async function extractPdf(bytes: Uint8Array, schema: Parameters<ReturnType<typeof createExtractionEngine>['extract']>[1]) {
  const engine = createExtractionEngine();
  try {
    return await engine.extract({ bytes, mimeType: 'application/pdf', filename: 't.pdf' }, schema);
  } finally {
    await engine.close();
  }
}

describe('table extraction', () => {
  it('reads rows under a header with abbreviated column names and stops at totals', () => {
    const text = [
      'Invoice 1',
      '',
      'Item                 Qty    Price      Amount',
      'Widget large           2    10.00       20.00',
      'Gadget                 1     5.50        5.50',
      '  with extra cable',
      'Subtotal                                25.50',
      'Total                                   25.50',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Widget large', quantity: 2, unit_price: 10, amount: 20 },
      { description: 'Gadget with extra cable', quantity: 1, unit_price: 5.5, amount: 5.5 },
    ]);
  });

  it('re-maps numeric columns by quantity × unit price = amount when header words mislead', () => {
    const text = [
      'Amount     Product              Price      Total',
      '1.00       Design hours         160.00     160.00',
      '400.00     Balloons               0.79     316.00',
      '800.00     Hot air                0.025     20.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Design hours', quantity: 1, unit_price: 160, amount: 160 },
      { description: 'Balloons', quantity: 400, unit_price: 0.79, amount: 316 },
      { description: 'Hot air', quantity: 800, unit_price: 0.025, amount: 20 },
    ]);
  });

  it('re-mapping by quantity × unit price = amount keeps a column whose header named it (the product is symmetric)', () => {
    // "Amount" over the unit prices and "Price" over the line totals: only those two are swapped; "Qty" stays.
    const text = [
      'Item                 Amount     Qty      Price',
      'Widget large          12.50       3      37.50',
      'Gadget                 4.20      10      42.00',
      'Cable                  2.00       7      14.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Widget large', quantity: 3, unit_price: 12.5, amount: 37.5 },
      { description: 'Gadget', quantity: 10, unit_price: 4.2, amount: 42 },
      { description: 'Cable', quantity: 7, unit_price: 2, amount: 14 },
    ]);
  });

  it('a column set close beside the descriptions (a date, no schema field) keeps its own cells: a gutter no line crosses', () => {
    // One space between the date and the description on every line: closer than a column gap, yet no line crosses it.
    const text = [
      'Date       Description               Quantity   Unit price    Amount',
      '02.03.2024 Window cleaning                  2        15.00     30.00',
      '03.03.2024 Gutter repair and sealing        1        80.00     80.00',
      '04.03.2024 Hedge trimming                   3        12.50     37.50',
      '05.03.2024 Leaf removal                     4         9.00     36.00',
      '                                        Total                 183.50',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Window cleaning', quantity: 2, unit_price: 15, amount: 30 },
      { description: 'Gutter repair and sealing', quantity: 1, unit_price: 80, amount: 80 },
      { description: 'Hedge trimming', quantity: 3, unit_price: 12.5, amount: 37.5 },
      { description: 'Leaf removal', quantity: 4, unit_price: 9, amount: 36 },
    ]);
  });

  it('a tax column inside the rows ("VAT 20%" after the figures) does not close the items; the totals line does', () => {
    const text = [
      'Description               Price     Qty   Tax          Amount',
      'Window cleaning           15.00       2   VAT 20%       30.00',
      'Gutter repair             80.00       1   VAT 5%        80.00',
      'Hedge trimming            12.50       3   VAT 20%       37.50',
      '                                    Subtotal           147.50',
      '                                    Tax                 23.50',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Window cleaning', quantity: 2, unit_price: 15, amount: 30 },
      { description: 'Gutter repair', quantity: 1, unit_price: 80, amount: 80 },
      { description: 'Hedge trimming', quantity: 3, unit_price: 12.5, amount: 37.5 },
    ]);
  });

  it('rows whose cells are set close (one run of words from the date to the hours) are rows, not prose', () => {
    const ts = {
      fields: [
        {
          key: 'sheet',
          data_type: 'table' as const,
          fields: [
            { key: 'date', label: 'Date', data_type: 'string' as const },
            { key: 'user', label: 'User', data_type: 'string' as const },
            { key: 'activity', label: 'Activity', data_type: 'string' as const },
            { key: 'hours', label: 'Hours', data_type: 'number' as const },
          ],
        },
      ],
    };
    // Every value of a column has the same width, so one space separates the cells and they still line up.
    const text = [
      'Date       User    Activity         Hours',
      '2024-03-04 Ann Lee Roof check north 5',
      '2024-03-05 Bob Kay Pane clean south 3.5',
      '2024-03-06 Cy Moss Leaf sweep front 2',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), ts);
    expect(out.result.sheet).toEqual([
      { date: '2024-03-04', user: 'Ann Lee', activity: 'Roof check north', hours: 5 },
      { date: '2024-03-05', user: 'Bob Kay', activity: 'Pane clean south', hours: 3.5 },
      { date: '2024-03-06', user: 'Cy Moss', activity: 'Leaf sweep front', hours: 2 },
    ]);
  });

  it('a row whose long cell runs across two columns is still a row when its other cells stand apart (not prose)', () => {
    const reg = {
      fields: [
        {
          key: 'register',
          data_type: 'table' as const,
          fields: [
            { key: 'no', label: 'No', data_type: 'number' as const },
            { key: 'holder', label: 'Holder', data_type: 'string' as const },
            { key: 'licence', label: 'Licence', data_type: 'string' as const },
            { key: 'area', label: 'Area', data_type: 'string' as const },
            { key: 'contact', label: 'Contact', data_type: 'string' as const },
          ],
        },
      ],
    };
    const text = [
      'No   Holder                Licence          Area        Contact',
      '1    Amber Lantern Co      LC-1001/2031     North       0100-200-300',
      '2    Bright Harbour Trading Partners Ltd LC-1002/2031   South     0100-200-301',
      '3    Cedar Row Ltd         LC-1003/2031     East        0100-200-302',
      '4    Elm Grove Partners    LC-1004/2031     West        0100-200-303',
    ].join('\n');
    const rows = extractFromLayout(readText(new TextEncoder().encode(text)), reg).result.register as Record<string, unknown>[];
    // (Before, the second row's long run crossing two columns was taken for prose closing the table after one row.)
    expect(rows.map((r) => r.no)).toEqual([1, 2, 3, 4]);
    expect(rows[3]).toMatchObject({ area: 'West', contact: '0100-200-303' });
  });

  it("text under a printed caption beside a guessed column is that caption's; a label glued to its figure closes the items", () => {
    // "Service Period" and "Plan" name no field: the description is the wordier of the two, not both run together,
    // and "Total:£245.50" (label and figure in one word) is the totals block, not a wrapped description.
    const text = [
      'Service Period              Plan                                    Amount',
      '01 Mar 2031 - 31 Mar 2031   Window cleaning Alder                  £120.00',
      '01 Feb 2031 - 28 Feb 2031   Gutter repair Birch                     £80.50',
      '01 Jan 2031 - 31 Jan 2031   Hedge trimming Cedar                    £45.00',
      '                                                       Total:£245.50',
      '                                                 Balance:£0.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Window cleaning Alder', amount: 120 },
      { description: 'Gutter repair Birch', amount: 80.5 },
      { description: 'Hedge trimming Cedar', amount: 45 },
    ]);
  });

  describe('row groups set apart by a blank line', () => {
    const growth = {
      fields: [
        {
          key: 'growth',
          data_type: 'table' as const,
          fields: [
            { key: 'item', label: 'Item', data_type: 'string' as const },
            { key: 'y2031', label: '2031', data_type: 'number' as const },
            { key: 'y2032', label: '2032', data_type: 'number' as const },
            { key: 'y2033', label: '2033', data_type: 'number' as const },
          ],
        },
      ],
    };
    const head = [
      'Item              2031    2032    2033',
      'North              1.2     1.4     1.6',
      'South              2.2     2.4     2.6',
      'East               2.3     2.5     2.7',
      '',
    ];
    const items = (lines: string[]) =>
      (
        extractFromLayout(readText(new TextEncoder().encode([...head, ...lines].join('\n'))), growth).result.growth as { item: string }[]
      ).map((r) => r.item);

    it("go on when the next group's first row sets its label in from the column", () => {
      expect(items(['   Grain           3.1     3.3     3.5', 'Timber             4.1     4.3     4.5'])).toEqual([
        'North',
        'South',
        'East',
        'Grain',
        'Timber',
      ]);
    });

    it("go on past a caption on the label column set close above the group's rows", () => {
      expect(items(['Imports:', 'Grain              3.1     3.3     3.5', 'Timber             4.1     4.3     4.5'])).toEqual(
        expect.arrayContaining(['Grain', 'Timber']),
      );
    });
  });

  it('continues a table across a page break in a PDF', async () => {
    const bytes = await makePdf((d) => {
      const header = (y: number) => {
        d.fontSize(10).text('Description', 50, y).text('Quantity', 250, y).text('Unit price', 330, y).text('Amount', 450, y);
      };
      header(100);
      d.text('Apples', 50, 120).text('3', 250, 120).text('1.00', 330, 120).text('3.00', 450, 120);
      d.addPage();
      header(100);
      d.text('Pears', 50, 120).text('2', 250, 120).text('2.50', 330, 120).text('5.00', 450, 120);
      d.text('Total', 50, 150).text('8.00', 450, 150);
    });
    const out = await extractPdf(bytes, schema);
    expect(out.pages).toBe(2);
    expect(out.result.line_items).toEqual([
      { description: 'Apples', quantity: 3, unit_price: 1, amount: 3 },
      { description: 'Pears', quantity: 2, unit_price: 2.5, amount: 5 },
    ]);
  });

  it('items running into the page footer go on overleaf: a tax word in the footer ("VAT ID") does not close them', async () => {
    const bytes = await makePdf(
      (d) => {
        d.fontSize(10).text('Description', 50, 100).text('Quantity', 250, 100).text('Unit price', 330, 100).text('Amount', 450, 100);
        for (let i = 0; i < 32; i++)
          d.text(`Tulip bulb lot ${i + 1}`, 50, 120 + i * 20)
            .text('1', 250, 120 + i * 20)
            .text('2.00', 330, 120 + i * 20)
            .text('2.00', 450, 120 + i * 20);
        d.fontSize(7).text('VAT ID: GB000111222 | Seaside Bulbs Ltd | www.seaside-bulbs.example', 50, 757, { lineBreak: false });
        d.addPage();
        d.fontSize(10).text('Crocus bag', 50, 60).text('2', 250, 60).text('3.00', 330, 60).text('6.00', 450, 60);
        d.text('Total', 330, 100).text('70.00', 450, 100);
      },
      { margin: 10 },
    );
    const out = await extractPdf(bytes, schema);
    const items = out.result.line_items as Record<string, unknown>[];
    expect(items).toHaveLength(33);
    expect(items[32]).toEqual({ description: 'Crocus bag', quantity: 2, unit_price: 3, amount: 6 });
  });

  it('a unit word printed under a quantity cell (vertically centred cells) is that cell, not the summary block', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Description', 50, 100).text('Quantity', 250, 100).text('Unit price', 330, 100).text('Amount', 450, 100);
      const items: [string, string, string, string, string][] = [
        ['Garden hose', '2.00', 'pcs', '8.50', '17.00'],
        ['Lawn care visit', '3.00', 'hours', '20.00', '60.00'],
        ['Seed mix', '1.00', 'bag', '4.25', '4.25'],
      ];
      items.forEach(([desc, qty, unit, price, amount], i) => {
        const y = 130 + i * 34;
        d.text(qty, 250, y - 9).text(unit, 250, y + 9);
        d.text(desc, 50, y).text(price, 330, y).text(amount, 450, y);
      });
      d.text('Subtotal', 330, 240).text('81.25', 450, 240);
    });
    const out = await extractPdf(bytes, schema);
    expect(out.result.line_items).toEqual([
      { description: 'Garden hose', quantity: 2, unit_price: 8.5, amount: 17 },
      { description: 'Lawn care visit', quantity: 3, unit_price: 20, amount: 60 },
      { description: 'Seed mix', quantity: 1, unit_price: 4.25, amount: 4.25 },
    ]);
  });

  it('continues a table overleaf when the next page does not print the header again', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Description', 50, 100).text('Quantity', 250, 100).text('Unit price', 330, 100).text('Amount', 450, 100);
      const items = ['Apples', 'Pears', 'Plums', 'Cherries', 'Figs', 'Dates', 'Limes', 'Lemons'];
      // Page 1 is filled with rows down to its foot, then a footer.
      for (let i = 0; i < 27; i++) {
        const y = 120 + i * 20;
        d.text(`${items[i % items.length]} box ${i + 1}`, 50, y)
          .text('1', 250, y)
          .text('2.00', 330, y)
          .text('2.00', 450, y);
      }
      d.text('Page 1 of 2', 270, 700); // (pdfkit starts a new page for text below its 72 pt bottom margin)
      d.addPage();
      // A running head, then the rows go on without a header.
      d.text('ACME Trading Ltd - Invoice 2024-117 (continued)', 50, 40);
      d.text('Walnuts', 50, 90).text('2', 250, 90).text('3.50', 330, 90).text('7.00', 450, 90);
      d.text('Hazelnuts', 50, 110).text('1', 250, 110).text('4.00', 330, 110).text('4.00', 450, 110);
      d.text('Total', 330, 150).text('71.00', 450, 150);
      d.text('Thank you for your business. Payment within 30 days to the account below.', 50, 200);
      d.text('Page 2 of 2', 270, 700);
    });
    const out = await extractPdf(bytes, schema);
    const rows = out.result.line_items as Record<string, unknown>[];
    expect(rows).toHaveLength(29);
    expect(rows[0]).toEqual({ description: 'Apples box 1', quantity: 1, unit_price: 2, amount: 2 });
    expect(rows.slice(-2)).toEqual([
      { description: 'Walnuts', quantity: 2, unit_price: 3.5, amount: 7 },
      { description: 'Hazelnuts', quantity: 1, unit_price: 4, amount: 4 },
    ]);
  });

  it('continues overleaf past a carry line ("Carried forward" at the foot, "Übertrag" at the top)', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Description', 50, 100).text('Quantity', 250, 100).text('Unit price', 330, 100).text('Amount', 450, 100);
      for (let i = 0; i < 26; i++) {
        const y = 120 + i * 20;
        d.text(`Crate ${i + 1}`, 50, y)
          .text('1', 250, y)
          .text('2.00', 330, y)
          .text('2.00', 450, y);
      }
      d.text('Carried forward', 330, 650).text('52.00', 450, 650);
      d.text('Page 1 of 2', 270, 700);
      d.addPage();
      d.text('Übertrag', 330, 60).text('52.00', 450, 60);
      d.text('Walnuts', 50, 90).text('2', 250, 90).text('3.50', 330, 90).text('7.00', 450, 90);
      d.text('Total', 330, 150).text('59.00', 450, 150);
    });
    const out = await extractPdf(bytes, schema);
    const rows = out.result.line_items as Record<string, unknown>[];
    expect(rows).toHaveLength(27);
    expect(rows[26]).toEqual({ description: 'Walnuts', quantity: 2, unit_price: 3.5, amount: 7 });
  });

  it('does not take the next page for a continuation when the table ended on its page', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Description', 50, 100).text('Quantity', 250, 100).text('Unit price', 330, 100).text('Amount', 450, 100);
      d.text('Apples', 50, 120).text('3', 250, 120).text('1.00', 330, 120).text('3.00', 450, 120);
      d.text('Pears', 50, 140).text('2', 250, 140).text('2.50', 330, 140).text('5.00', 450, 140);
      // After a wide gap, something else fills the page: the table is over, not cut by the page break.
      d.text('Delivery notes', 50, 300).text('Handle with care, keep cool.', 50, 320);
      d.addPage();
      d.text('Price list 2025', 50, 60);
      d.text('Oranges', 50, 90).text('10', 250, 90).text('0.80', 330, 90).text('8.00', 450, 90);
    });
    const out = await extractPdf(bytes, schema);
    expect(out.result.line_items).toEqual([
      { description: 'Apples', quantity: 3, unit_price: 1, amount: 3 },
      { description: 'Pears', quantity: 2, unit_price: 2.5, amount: 5 },
    ]);
  });

  const people = {
    fields: [
      {
        key: 'staff',
        data_type: 'table' as const,
        fields: [
          { key: 'name', label: 'Name', data_type: 'string' as const },
          { key: 'city', label: 'City', data_type: 'string' as const },
          { key: 'year', label: 'Year joined', data_type: 'number' as const },
        ],
      },
    ],
  };
  const staffOf = async (bytes: Uint8Array) => {
    const out = await extractPdf(bytes, people);
    return out.result.staff as Record<string, unknown>[];
  };

  it('continues a plain (unpriced) table overleaf when rows sit under its columns', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Name', 50, 80).text('City', 220, 80).text('Year joined', 400, 80);
      for (let i = 0; i < 28; i++)
        d.text(`Person ${i + 1}`, 50, 100 + i * 20)
          .text('Leeds', 220, 100 + i * 20)
          .text(String(2000 + (i % 20)), 400, 100 + i * 20);
      d.addPage();
      d.text('Person 29', 50, 60).text('York', 220, 60).text('2021', 400, 60);
      d.text('Person 30', 50, 80).text('Hull', 220, 80).text('2022', 400, 80);
    });
    const rows = await staffOf(bytes);
    expect(rows).toHaveLength(30);
    expect(rows[29]).toEqual({ name: 'Person 30', city: 'Hull', year: 2022 });
  });

  it('continues a table overleaf whose rows print a column the schema does not ask for', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Name', 50, 80).text('City', 200, 80).text('Year joined', 330, 80).text('Desk', 480, 80);
      for (let i = 0; i < 28; i++)
        d.text(`Person ${i + 1}`, 50, 100 + i * 20)
          .text('Leeds', 200, 100 + i * 20)
          .text(String(2000 + (i % 20)), 330, 100 + i * 20)
          .text(`D-${100 + i}`, 480, 100 + i * 20);
      d.addPage();
      d.text('Person 29', 50, 60).text('York', 200, 60).text('2021', 330, 60).text('D-128', 480, 60);
      d.text('Person 30', 50, 80).text('Hull', 200, 80).text('2022', 330, 80).text('D-129', 480, 80);
    });
    const rows = await staffOf(bytes);
    expect(rows).toHaveLength(30);
    expect(rows[29]).toEqual({ name: 'Person 30', city: 'Hull', year: 2022 });
  });

  describe('rows set well apart', () => {
    const sales = {
      fields: [
        {
          key: 'sales',
          data_type: 'table' as const,
          fields: [
            { key: 'region', label: 'Region', data_type: 'string' as const },
            { key: 'units', label: 'Units sold', data_type: 'number' as const },
            { key: 'manager', label: 'Manager', data_type: 'string' as const },
          ],
        },
      ],
    };
    const regions = ['North Vale', 'East Hollow', 'South Brook', 'West Ridge', 'Upper Fen', 'Lower Marsh', 'Old Quarry', 'Ashcombe'];
    const head = (d: PDFKit.PDFDocument) => d.fontSize(10).text('Region', 60, 100).text('Units sold', 220, 100).text('Manager', 380, 100);
    const row = (d: PDFKit.PDFDocument, y: number, i: number) =>
      d
        .text(regions[i]!, 60, y)
        .text(String(100 + i * 7), 220, y)
        .text(`M. Tern ${i}`, 380, y);
    const read = async (draw: (d: PDFKit.PDFDocument) => void) => {
      const out = await extractPdf(await makePdf(draw), sales);
      return out.result.sales as Record<string, unknown>[];
    };

    it('a second group of rows after a gap of four lines, on the same column edges, is the same table', async () => {
      const rows = await read((d) => {
        head(d);
        for (let i = 0; i < 4; i++) row(d, 118 + i * 16, i);
        for (let i = 4; i < 8; i++) row(d, 118 + i * 16 + 64, i);
      });
      expect(rows).toHaveLength(8);
      expect(rows[7]).toEqual({ region: 'Ashcombe', units: 149, manager: 'M. Tern 7' });
    });

    it('sections printed under repeated copies of the header on one page are one table (the schema asks for one)', async () => {
      const rows = await read((d) => {
        for (let s = 0; s < 2; s++) {
          const y = 80 + s * 120;
          d.fontSize(10).text(s ? 'Second half' : 'First half', 250, y);
          d.text('Region', 60, y + 16)
            .text('Units sold', 220, y + 16)
            .text('Manager', 380, y + 16);
          for (let i = 0; i < 4; i++) row(d, y + 34 + i * 14, s * 4 + i);
        }
      });
      expect(rows.map((r) => r.region)).toEqual(regions);
    });

    it('sections under repeated headers stay one table when the schema has another table of other columns', async () => {
      const schema2 = {
        fields: [
          ...sales.fields,
          {
            key: 'budget',
            data_type: 'table' as const,
            fields: [
              { key: 'region', label: 'Region', data_type: 'string' as const },
              { key: 'units', label: 'Units sold', data_type: 'number' as const },
              { key: 'manager', label: 'Manager', data_type: 'string' as const },
              { key: 'target', label: 'Target', data_type: 'number' as const },
            ],
          },
        ],
      };
      const bytes = await makePdf((d) => {
        for (let s = 0; s < 2; s++) {
          const y = 80 + s * 120;
          d.fontSize(10).text(s ? 'Second half' : 'First half', 250, y);
          d.text('Region', 60, y + 16)
            .text('Units sold', 220, y + 16)
            .text('Manager', 380, y + 16);
          for (let i = 0; i < 4; i++) row(d, y + 34 + i * 14, s * 4 + i);
        }
        // A table of the other field, whose header also names every column of the first: its own, not a section.
        d.text('Region', 60, 400).text('Units sold', 220, 400).text('Manager', 380, 400).text('Target', 480, 400);
        for (let i = 0; i < 2; i++) row(d, 418 + i * 14, i).text(String(300 + i), 480, 418 + i * 14);
      });
      const out = await extractPdf(bytes, schema2);
      expect((out.result.sales as Record<string, unknown>[]).map((r) => r.region)).toEqual(regions);
      expect(out.result.budget).toEqual([
        { region: regions[0], units: 100, manager: 'M. Tern 0', target: 300 },
        { region: regions[1], units: 107, manager: 'M. Tern 1', target: 301 },
      ]);
    });

    it('but a header of words on the same edges after the gap starts another table', async () => {
      const rows = await read((d) => {
        head(d);
        for (let i = 0; i < 4; i++) row(d, 118 + i * 16, i);
        d.text('Branch', 60, 240).text('Opened', 220, 240).text('Staff', 380, 240);
        for (let i = 0; i < 3; i++)
          d.text(regions[i]!, 60, 256 + i * 16)
            .text(String(1990 + i), 220, 256 + i * 16)
            .text(String(12 + i), 380, 256 + i * 16);
      });
      expect(rows).toHaveLength(4);
    });
  });

  it('reads columns whose captions are printed up the page (narrow statistical columns)', async () => {
    const towns = {
      fields: [
        {
          key: 'towns',
          data_type: 'table' as const,
          fields: [
            { key: 'town', label: 'Town', data_type: 'string' as const },
            { key: 'voters', label: 'Voters registered', data_type: 'number' as const },
            { key: 'ballots', label: 'Ballots cast', data_type: 'number' as const },
            { key: 'spoiled', label: 'Ballots spoiled', data_type: 'number' as const },
          ],
        },
      ],
    };
    const bytes = await makePdf((d) => {
      d.fontSize(9).text('Turnout by town in the spring vote, all polling stations counted', 50, 120, { lineBreak: false });
      d.text('Town', 50, 200, { lineBreak: false });
      // (Read word by word, the foot of the captions says "Voters Ballots Ballots": which ballots is which?)
      ['Voters registered', 'Ballots cast', 'Ballots spoiled'].forEach((c, i) => {
        d.save();
        d.rotate(-90, { origin: [150 + i * 30, 210] });
        d.text(c, 150 + i * 30, 210, { lineBreak: false });
        d.restore();
      });
      [
        ['Ashvale', '963', '439', '5'],
        ['Brookmere', '712', '423', '12'],
      ].forEach((r, k) => r.forEach((t, i) => d.text(t, i ? 150 + (i - 1) * 30 : 50, 225 + k * 14, { lineBreak: false })));
    });
    const out = await extractPdf(bytes, towns);
    expect(out.result.towns).toEqual([
      { town: 'Ashvale', voters: 963, ballots: 439, spoiled: 5 },
      { town: 'Brookmere', voters: 712, ballots: 423, spoiled: 12 },
    ]);
  });

  it('takes the header line placing more columns when two name as many (a caption line above, the year over the figures)', async () => {
    const figures = {
      fields: [
        {
          key: 'figures',
          data_type: 'table' as const,
          fields: [
            { key: 'indicator', label: 'Indicator', data_type: 'string' as const },
            { key: 'f_2023', label: '2023', data_type: 'number' as const },
          ],
        },
      ],
    };
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Indicator', 60, 100, { lineBreak: false });
      d.text('2023', 420, 140, { lineBreak: false });
      [
        ['Members at the year end', '1,204'],
        ['New members in the year', '187'],
        ['Meetings held', '12'],
      ].forEach(([t, n], i) => d.text(t!, 60, 160 + i * 16, { lineBreak: false }).text(n!, 420, 160 + i * 16, { lineBreak: false }));
    });
    const out = await extractPdf(bytes, figures);
    expect(out.result.figures).toEqual([
      { indicator: 'Members at the year end', f_2023: 1204 },
      { indicator: 'New members in the year', f_2023: 187 },
      { indicator: 'Meetings held', f_2023: 12 },
    ]);
  });

  it('gives a last column the schema names by position only the run of words right of every header cell', async () => {
    const menu = {
      fields: [
        {
          key: 'menu',
          data_type: 'table' as const,
          fields: [
            { key: 'dish', label: 'Dishes of the day', data_type: 'string' as const },
            { key: 'column_2', label: 'Column 2', data_type: 'string' as const },
          ],
        },
      ],
    };
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Dishes of the day', 60, 100, { lineBreak: false });
      [
        ['Leek and potato soup with rye bread', '6 EUR'],
        ['Baked trout, almonds and green beans', '14 EUR'],
        ['Apple tart', '5 EUR'],
      ].forEach(([t, p], i) => d.text(t!, 60, 130 + i * 16, { lineBreak: false }).text(p!, 420, 130 + i * 16, { lineBreak: false }));
    });
    const out = await extractPdf(bytes, menu);
    expect(out.result.menu).toEqual([
      { dish: 'Leek and potato soup with rye bread', column_2: '6 EUR' },
      { dish: 'Baked trout, almonds and green beans', column_2: '14 EUR' },
      { dish: 'Apple tart', column_2: '5 EUR' },
    ]);
  });

  describe('a two-column list with a wide gap between its groups of rows', () => {
    const menu = {
      fields: [
        {
          key: 'menu',
          data_type: 'table' as const,
          fields: [
            { key: 'dish', label: 'Dish', data_type: 'string' as const },
            { key: 'price', label: 'Price', data_type: 'number' as const },
          ],
        },
      ],
    };
    type MenuLine = [number, string, string?];
    const first: MenuLine[] = [
      [130, 'Leek and potato soup', '6.00'],
      [146, 'Onion soup with cheese', '6.50'],
      [162, 'Bean broth', '5.50'],
    ];
    const read = async (rows: MenuLine[]) => {
      const bytes = await makePdf((d) => {
        d.fontSize(10).text('Dish', 60, 100, { lineBreak: false }).text('Price', 400, 100, { lineBreak: false });
        for (const [y, t, p] of rows) {
          d.text(t, 60, y, { lineBreak: false });
          if (p) d.text(p, 400, y, { lineBreak: false });
        }
      });
      return (await extractPdf(bytes, menu)).result.menu as { dish: string; price: number }[];
    };

    it('reads on when rows of two cells follow on its edges (three blank lines above them)', async () => {
      const rows: MenuLine[] = [...first, [226, 'Baked trout', '14.00'], [242, 'Lamb chops', '18.00'], [258, 'Pork belly', '15.00']];
      expect((await read(rows)).map((r) => r.dish)).toEqual(rows.map((r) => r[1]));
    });

    it('reads on when a group caption stands among the rows that follow', async () => {
      const rows: MenuLine[] = [
        ...first,
        [226, 'Baked trout', '14.00'],
        [242, 'From the grill'],
        [258, 'Lamb chops', '18.00'],
        [274, 'Pork belly', '15.00'],
      ];
      expect((await read(rows)).map((r) => r.price)).toEqual([6, 6.5, 5.5, 14, 18, 15]);
    });
  });

  describe('a results table with a headerless first column and group captions among its rows', () => {
    const leaves = ['Image / Reed', 'Image / Marsh', 'Text / Dune', 'Text / Fjord'];
    const results = {
      fields: [
        {
          key: 'results',
          data_type: 'table' as const,
          fields: [
            { key: 'column_1', label: 'Column 1', data_type: 'string' as const },
            ...leaves.map((l) => ({ key: l.toLowerCase().replace(/\W+/g, '_'), label: l, data_type: 'string' as const })),
          ],
        },
      ],
    };
    const X = [90, 220, 290, 360, 430];
    const draw = (d: PDFKit.PDFDocument) => {
      d.fontSize(9).text('Table 2: Scores per benchmark, mean and spread over five runs.', 110, 130, { lineBreak: false });
      d.text('Image', 250, 150, { lineBreak: false }).text('Text', 395, 150, { lineBreak: false });
      ['Reed', 'Marsh', 'Dune', 'Fjord'].forEach((h, i) => d.text(h, X[i + 1]!, 163, { lineBreak: false }));
      const lines: [number, string[]][] = [
        [180, ['Baselines']],
        [192, ['Nearest neighbour', '61.2 ± 0.4', '55.0 ± 1.1', '70.3 ± 0.2', '48.9 ± 0.7']],
        [204, ['Gradient boosting', '68.1 ± 0.2', '60.4 ± 0.8', '75.5 ± 0.3', '53.0 ± 0.5']],
        [216, ['Proposed']],
        [228, ['Ours (small)', '70.9 ± 0.3', '62.7 ± 0.6', '77.1 ± 0.4', '55.8 ± 0.4']],
      ];
      for (const [y, cells] of lines) cells.forEach((t, i) => d.text(t, X[i]!, y, { lineBreak: false }));
    };

    it('looks for no caption of a column named by position only ("Column 1" is no "1" in a figure)', async () => {
      const out = await extractPdf(await makePdf(draw), results);
      const rows = out.result.results as Record<string, string>[];
      expect(rows.find((r) => r.column_1 === 'Nearest neighbour')).toEqual({
        column_1: 'Nearest neighbour',
        image_reed: '61.2 ± 0.4',
        image_marsh: '55.0 ± 1.1',
        text_dune: '70.3 ± 0.2',
        text_fjord: '48.9 ± 0.7',
      });
    });

    it('keeps a caption under a row apart when its first word had room on the row label above (no wrap)', async () => {
      const out = await extractPdf(await makePdf(draw), results);
      const labels = (out.result.results as Record<string, string>[]).map((r) => r.column_1);
      expect(labels).toEqual(['Baselines', 'Nearest neighbour', 'Gradient boosting', 'Proposed', 'Ours (small)']);
    });
  });

  it('keeps a last row whose figures are set closer than a word space in narrow columns (no note across the grid)', async () => {
    const turnout = {
      fields: [
        {
          key: 'turnout',
          data_type: 'table' as const,
          fields: [
            { key: 'town', label: 'Town', data_type: 'string' as const },
            { key: 'reg', label: 'Reg.', data_type: 'number' as const },
            { key: 'cast', label: 'Cast', data_type: 'number' as const },
            { key: 'void', label: 'Void', data_type: 'number' as const },
          ],
        },
      ],
    };
    const bytes = await makePdf((d) => {
      d.fontSize(9).text('Turnout by town in the spring vote, all polling stations counted', 50, 120, { lineBreak: false });
      ['Town', 'Reg.', 'Cast', 'Void'].forEach((h, i) => d.text(h, i ? 150 + (i - 1) * 30 : 50, 200, { lineBreak: false }));
      [
        ['Ashvale', '963', '439', '5'],
        ['Brookmere', '1212', '423', '12'],
      ].forEach((r, k) => r.forEach((t, i) => d.text(t, i ? 150 + (i - 1) * 30 : 50, 216 + k * 14, { lineBreak: false })));
    });
    const out = await extractPdf(bytes, turnout);
    expect(out.result.turnout).toEqual([
      { town: 'Ashvale', reg: 963, cast: 439, void: 5 },
      { town: 'Brookmere', reg: 1212, cast: 423, void: 12 },
    ]);
  });

  it('reads a column of rates printed with a percent sign as numbers, but no rate as a line amount', async () => {
    const rates = {
      fields: [
        {
          key: 'rates',
          data_type: 'table' as const,
          fields: [
            { key: 'branch', label: 'Branch', data_type: 'string' as const },
            { key: 'growth', label: 'Growth', data_type: 'number' as const },
          ],
        },
      ],
    };
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Branch', 60, 100).text('Growth', 300, 100);
      ['Harbour', 'Hillside', 'Market'].forEach((b, i) =>
        d.text(b, 60, 118 + i * 14).text(['12.5 %', '-3%', '0.8 %'][i]!, 300, 118 + i * 14),
      );
    });
    const engine = createExtractionEngine();
    const out = await engine.extract({ bytes, mimeType: 'application/pdf', filename: 't.pdf' }, rates);
    const items = await engine.extract(
      {
        bytes: await makePdf((d) => {
          d.fontSize(10).text('Description', 60, 100).text('Qty', 300, 100).text('Amount', 450, 100);
          d.text('Cleaning', 60, 118).text('2', 300, 118).text('10%', 450, 118);
          d.text('Repairs', 60, 132).text('1', 300, 132).text('45.00', 450, 132);
        }),
        mimeType: 'application/pdf',
        filename: 'i.pdf',
      },
      schema,
    );
    await engine.close();
    expect(out.result.rates).toEqual([
      { branch: 'Harbour', growth: 12.5 },
      { branch: 'Hillside', growth: -3 },
      { branch: 'Market', growth: 0.8 },
    ]);
    expect((items.result.line_items as Record<string, unknown>[])[0]?.amount).toBeUndefined();
  });

  it('reads CSV as a table', async () => {
    const csv = 'Description,Qty,Unit Price,Amount\n"Widget, blue",2,10.00,20.00\nGadget,1,5.50,5.50\n';
    const engine = createExtractionEngine();
    const out = await engine.extract({ bytes: new TextEncoder().encode(csv), mimeType: 'text/csv', filename: 't.csv' }, schema);
    expect(out.result.line_items).toEqual([
      { description: 'Widget, blue', quantity: 2, unit_price: 10, amount: 20 },
      { description: 'Gadget', quantity: 1, unit_price: 5.5, amount: 5.5 },
    ]);
    expect(out.markdown).toContain('|');
  });
  it('reads on past section subtotals and drops indented notes and unpriced bundle parts', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(10).text('Description', 50, 100).text('Quantity', 250, 100).text('Unit price', 330, 100).text('Amount', 450, 100);
      d.text('--- Hardware ---', 50, 120);
      d.text('Laptop bundle', 50, 140).text('1', 250, 140).text('900.00', 330, 140).text('900.00', 450, 140);
      d.text('Laptop 13 inch', 62, 153).text('1', 250, 153);
      d.text('Serial: AB-123-XY', 62, 166);
      d.text('Subtotal $ 900.00', 400, 186);
      d.text('--- Services ---', 50, 206);
      d.text('Setup', 50, 226).text('2', 250, 226).text('50.00', 330, 226).text('100.00', 450, 226);
      d.text('Subtotal', 330, 262).text('1,000.00', 450, 262);
      d.text('Total', 330, 276).text('1,000.00', 450, 276);
    });
    const out = await extractPdf(bytes, schema);
    expect(out.result.line_items).toEqual([
      { description: 'Laptop bundle', quantity: 1, unit_price: 900, amount: 900 },
      { description: 'Setup', quantity: 2, unit_price: 50, amount: 100 },
    ]);
  });
  it('keeps indented notes under an item, past its article code line, out of the next item (a note quoting a figure out of every description)', async () => {
    const bytes = await makePdf((d) => {
      let y = 100;
      const cell = (t: string, x: number, w?: number, size = 9) =>
        d.fontSize(size).text(t, x, y, w ? { width: w, align: 'right', lineBreak: false } : { lineBreak: false });
      cell('Description', 50).text('Qty', 290, y, { width: 40, align: 'right' }).text('Price', 340, y, { width: 60, align: 'right' });
      cell('Net', 460, 85);
      y += 16;
      const item = (name: string, code: string, figures: string[], note?: string) => {
        cell(name, 50);
        cell(figures[0]!, 290, 40);
        cell(figures[1]!, 340, 60);
        cell(figures[2]!, 460, 85);
        y += 11;
        cell(`Art. no. ${code}`, 60, undefined, 7);
        y += 10;
        if (note) {
          cell(note, 60, undefined, 8);
          y += 11;
        }
        y += 4;
      };
      item('Beaker 250 ml', 'BK-250', ['48', '3.50', '168.00'], 'sold in packs of six');
      item('Lab balance', 'LB-001', ['3', '299.00', '777.00'], 'less 13.4% school discount (-120.00)');
      item('Safety goggles', 'SG-14', ['60', '5.00', '300.00']);
      y += 8;
      cell('Net total', 340);
      cell('1,245.00', 460, 85);
    });
    const out = await extractPdf(bytes, schema);
    const items = out.result.line_items as { description: string }[];
    // (A note without a figure under the first item, past its code line, goes with that item, not the next.)
    expect(items[0]!.description).toMatch(/^Beaker 250 ml/);
    expect(items.slice(1)).toEqual([
      { description: 'Lab balance', quantity: 3, unit_price: 299, amount: 777 },
      { description: 'Safety goggles', quantity: 60, unit_price: 5, amount: 300 },
    ]);
  });

  it('reads rows named "Grand …" or "Sub-…" and stops at "Grand total"', () => {
    const text = [
      'Item                   Qty    Price      Amount',
      'Grand piano tuning       1    90.00       90.00',
      'Sub-floor repair         2    10.00       20.00',
      'Grand total                              110.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Grand piano tuning', quantity: 1, unit_price: 90, amount: 90 },
      { description: 'Sub-floor repair', quantity: 2, unit_price: 10, amount: 20 },
    ]);
  });

  it('takes the header whose labels stand apart over a caption naming the same columns, and ends at the source line', () => {
    const text = [
      'Table 1: Growth rate in Arcadia, EU-15 and EU-25 (change on previous year)',
      '',
      '              Arcadia       EU-15       EU-25',
      '1996              3.7         1.6         1.7',
      '2006 (*)          3.5           -         2.1',
      'Total             7.2         1.6         3.8',
      'Source: statistics office, accounts, 2007.',
      'Arcadia has the structure of a modern economy, with exports led by machine tools.',
    ].join('\n');
    const growth = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'row_label', label: 'Row label', data_type: 'string' as const },
            { key: 'arcadia', label: 'Arcadia', data_type: 'number' as const },
            { key: 'eu_15', label: 'EU-15', data_type: 'string' as const },
            { key: 'eu_25', label: 'EU-25', data_type: 'number' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), growth);
    expect(out.result.table_1).toEqual([
      { row_label: '1996', arcadia: 3.7, eu_15: '1.6', eu_25: 1.7 },
      { row_label: '2006 (*)', arcadia: 3.5, eu_15: '-', eu_25: 2.1 },
      { row_label: 'Total', arcadia: 7.2, eu_15: '1.6', eu_25: 3.8 },
    ]);
  });

  it('takes the description from the column with words when the matched one holds article codes, without code prefixes', () => {
    const text = [
      'Artikel    Omschrijving                 Prijs    Hoeveelheid    Bedrag',
      'E900017    Reinigingsset XR1234/10      49,99    1 PCS           49,99',
      'E103560    [FL-22] Flyer Korting         0,00    1 PCS            0,00',
      'Factuur totaal EUR                                              49,99',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Reinigingsset XR1234/10', quantity: 1, unit_price: 49.99, amount: 49.99 },
      { description: 'Flyer Korting', quantity: 1, unit_price: 0, amount: 0 },
    ]);
  });

  it('does not open a header with a caption line right above it that names no column', () => {
    const text = [
      'Table 2: Employment by sector, 1991 and',
      '        1996 (share of all employed, per cent)',
      'Year        Farming      Industry',
      '1991           11.0          40.7',
      '1996            9.5          39.4',
    ].join('\n');
    const sectors = {
      fields: [
        {
          key: 'table_2',
          data_type: 'table' as const,
          fields: [
            { key: 'year', label: 'Year', data_type: 'number' as const },
            { key: 'farming', label: 'Farming', data_type: 'number' as const },
            { key: 'industry', label: 'Industry', data_type: 'number' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), sectors);
    expect(out.result.table_2).toEqual([
      { year: 1991, farming: 11, industry: 40.7 },
      { year: 1996, farming: 9.5, industry: 39.4 },
    ]);
  });

  it('reads side-by-side tables sharing one header line, and labels printed with their spaces lost', () => {
    const text = [
      'Rail travellers rules   Enquiries      Free movement   Enquiries',
      'Spain                         268      Spain                 153',
      'Germany                       233      Germany               119',
      'Italy                          92      France                 99',
    ].join('\n');
    const twoTables = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'rights', label: 'Railtravellersrules', data_type: 'string' as const },
            { key: 'enquiries', label: 'Enquiries', data_type: 'number' as const },
          ],
        },
        {
          key: 'table_2',
          data_type: 'table' as const,
          fields: [
            { key: 'movement', label: 'Free movement', data_type: 'string' as const },
            { key: 'enquiries', label: 'Enquiries', data_type: 'number' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), twoTables);
    expect(out.result.table_1).toEqual([
      { rights: 'Spain', enquiries: 268 },
      { rights: 'Germany', enquiries: 233 },
      { rights: 'Italy', enquiries: 92 },
    ]);
    expect(out.result.table_2).toEqual([
      { movement: 'Spain', enquiries: 153 },
      { movement: 'Germany', enquiries: 119 },
      { movement: 'France', enquiries: 99 },
    ]);
  });

  it('starts the header below a caption that names the columns in one sentence', () => {
    const text = [
      'Table 3: Number of night workers by site cluster',
      'Site cluster           Sample      Population',
      'Northern                   58             612',
      'Southlands                 81             740',
    ].join('\n');
    const workers = {
      fields: [
        {
          key: 'table_3',
          data_type: 'table' as const,
          fields: [
            { key: 'cluster', label: 'Sitecluster', data_type: 'string' as const },
            { key: 'sample', label: 'Night workers / Sample', data_type: 'number' as const },
            { key: 'population', label: 'Night workers / Population', data_type: 'number' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), workers);
    expect(out.result.table_3).toEqual([
      { cluster: 'Northern', sample: 58, population: 612 },
      { cluster: 'Southlands', sample: 81, population: 740 },
    ]);
  });

  it('measures the gap that ends a table in the body text height, not in a larger header font', async () => {
    const bytes = await makePdf((d) => {
      d.fontSize(14).text('Ailments', 50, 100).text('Male', 250, 100).text('Female', 330, 100);
      d.fontSize(8).text('Cough', 50, 122).text('6', 255, 122).text('25', 335, 122);
      d.text('Sore knee', 50, 134).text('46', 255, 134).text('156', 335, 134);
      d.text('Migraine', 50, 146).text('1', 255, 146).text('0', 335, 146);
      d.text('Frequency of ailments by team year', 120, 170);
      d.text('Ailments', 50, 186).text('1st year 2nd year 3rd year', 200, 186);
      d.text('Cough', 50, 198).text('9', 250, 198).text('17', 300, 198).text('5', 350, 198);
    });
    const byGender = {
      fields: [
        {
          key: 'table_4',
          data_type: 'table' as const,
          fields: [
            { key: 'ailments', label: 'Ailments', data_type: 'string' as const },
            { key: 'male', label: 'Gender / Male', data_type: 'number' as const },
            { key: 'female', label: 'Gender / Female', data_type: 'number' as const },
          ],
        },
      ],
    };
    const out = await extractPdf(bytes, byGender);
    expect(out.result.table_4).toEqual([
      { ailments: 'Cough', male: 6, female: 25 },
      { ailments: 'Sore knee', male: 46, female: 156 },
      { ailments: 'Migraine', male: 1, female: 0 },
    ]);
  });

  it('reads an item list printed without a header off its aligned amounts, without the lines indented under each item', () => {
    const text = [
      'Summary',
      '  Service charges                         $4.11',
      '    Charges                               $4.11',
      '    Tax *                                 $0.00',
      'Total for this invoice                    $4.11',
      '',
      'Detail',
      '  Data Transfer                           $0.01',
      '    Charges                               $0.01',
      '    VAT **                                $0.00',
      '  Compute Cloud                           $1.87',
      '    Charges                               $1.87',
      '    VAT **                                $0.00',
      '  Storage Service                         $2.23',
      '    Charges                               $2.23',
      '    VAT **                                $0.00',
      '',
      'All charges and prices are in US Dollars',
      'All services are sold by Example Web Services, Inc.',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Data Transfer', amount: 0.01 },
      { description: 'Compute Cloud', amount: 1.87 },
      { description: 'Storage Service', amount: 2.23 },
    ]);
  });

  it('reads a count and a unit price printed in an item\'s text ("2 x … @ 3.00") when count × price is the amount', () => {
    const items = itemsOfText([
      'Corner Bakery',
      '',
      '2 x Blueberry muffins @ 3.00                 6.00',
      '1 x Coffee urn rental @ 32.00               32.00',
      '12 x Cinnamon rolls @ 1.50                  18.00',
      '3 x Gift boxes @ 2.00                        5.00',
      '',
      'Total                                       61.00',
    ]);
    expect(items).toEqual([
      { description: 'Blueberry muffins', quantity: 2, unit_price: 3, amount: 6 },
      { description: 'Coffee urn rental', quantity: 1, unit_price: 32, amount: 32 },
      { description: 'Cinnamon rolls', quantity: 12, unit_price: 1.5, amount: 18 },
      // (3 × 2.00 is not 5.00: the text is left as printed.)
      { description: '3 x Gift boxes @ 2.00', amount: 5 },
    ]);
  });

  it('reads the count and unit price printed in the text of items under an "Item ‖ Amount" header', () => {
    const items = itemsOfText([
      'Item                                      Amount',
      '2 x Latte @ 3.50                            7.00',
      'Bagel with cream cheese                     4.25',
      '',
      'Total                                      11.25',
    ]);
    expect(items).toEqual([
      { description: 'Latte', quantity: 2, unit_price: 3.5, amount: 7 },
      { description: 'Bagel with cream cheese', amount: 4.25 },
    ]);
  });

  it('finds no headerless items in a document with only a totals block and a sentence naming the columns', () => {
    const text = [
      'Thank you for your order. All prices and amounts are in euros.',
      'Please see the attached description of services.',
      '',
      'Subtotal                                 100.00',
      'VAT 20%                                   20.00',
      'Total                                    120.00',
      'Paid                                     120.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toBeUndefined();
  });

  it('drops chart labels printed right of the table out of its last column', () => {
    const text = [
      'Area                      Requests',
      '                                                    Headquarters',
      'Headquarters                  3.412',
      'General support               1.905                 General support',
      'Purchasing                    1.688',
      '                                                    Purchasing',
      'Logistics                       745                 Logistics',
    ].join('\n');
    const topics = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'topic', label: 'Area', data_type: 'string' as const },
            { key: 'enquiries', label: 'Requests', data_type: 'string' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), topics);
    expect(out.result.table_1).toEqual([
      { topic: 'Headquarters', enquiries: '3.412' },
      { topic: 'General support', enquiries: '1.905' },
      { topic: 'Purchasing', enquiries: '1.688' },
      { topic: 'Logistics', enquiries: '745' },
    ]);
  });

  it('keeps the running text of the other column of a two-column page out of a table set in one column', async () => {
    // The running text's lines and the table's rows are set on different pitches: most rows share a line with text.
    const prose = [
      'We study the behaviour of a simple method on several',
      'invented benchmarks and report the mean of five runs with',
      'different seeds. The results suggest that the larger variant',
      'is more accurate while the smaller one is faster at inference',
      'time on commodity hardware. We study the behaviour of a',
      'simple method on several invented benchmarks and report',
      'the mean of five runs with different seeds. The results',
      'suggest that the larger variant is more accurate while the',
      'smaller one is faster at inference time on commodity',
      'hardware. We study the behaviour of a simple method on',
      'several invented benchmarks and report the mean of five',
      'runs with different seeds.',
    ];
    const bytes = await makePdf(
      (d) => {
        d.font('Times-Roman').fontSize(9);
        prose.forEach((t, i) => d.text(t, 50, 50 + i * 10.2, { lineBreak: false }));
        const rule = (at: number, width: number) => d.moveTo(320, at).lineTo(485, at).lineWidth(width).stroke();
        let y = 124.5;
        rule(y, 1);
        y += 3;
        const cols: [number, number][] = [
          [322, 76],
          [402, 41],
          [447, 36],
        ];
        const row = (cells: string[], font: string) => {
          cells.forEach((t, i) =>
            d
              .font(font)
              .fontSize(8)
              .text(t, cols[i]![0], y, { width: cols[i]![1], align: i ? 'center' : 'left', lineBreak: false }),
          );
          y += 12.8;
        };
        row(['Setting', 'Recall', 'F1'], 'Times-Bold');
        rule(y - 2, 0.6);
        row(['Full model', '0.887', '0.899'], 'Times-Roman');
        row(['Without encoder', '0.851', '0.862'], 'Times-Roman');
        row(['Without decoder', '0.823', '0.842'], 'Times-Roman');
        row(['No pretraining', '0.779', '0.790'], 'Times-Roman');
        rule(y - 2, 1);
      },
      { size: 'A4', margin: 50 },
    );
    const ablation = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'setting', label: 'Setting', data_type: 'string' as const },
            { key: 'recall', label: 'Recall', data_type: 'string' as const },
            { key: 'f1', label: 'F1', data_type: 'string' as const },
          ],
        },
      ],
    };
    const out = await extractPdf(bytes, ablation);
    expect(out.result.table_1).toEqual([
      { setting: 'Full model', recall: '0.887', f1: '0.899' },
      { setting: 'Without encoder', recall: '0.851', f1: '0.862' },
      { setting: 'Without decoder', recall: '0.823', f1: '0.842' },
      { setting: 'No pretraining', recall: '0.779', f1: '0.790' },
    ]);
  });

  it('reads a header of a caption, a group label and leaves wrapped over two lines', () => {
    const text = [
      'Table 2.7: Frequency of equipment usage by type of equipment',
      '                  Frequency of equipment usage',
      'Equipment       In the last   In the last   Never',
      '                month         year',
      'Printers        9.6%          4.0%          80.1%',
      'Projector       2.7%          1.6%          91.6%',
    ].join('\n');
    const usage = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'equipment', label: 'Equipment', data_type: 'string' as const },
            { key: 'month', label: 'Frequency of equipment usage / In the last month', data_type: 'string' as const },
            { key: 'year', label: 'Frequency of equipment usage / In the last year', data_type: 'string' as const },
            { key: 'never', label: 'Frequency of equipment usage / Never', data_type: 'string' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), usage);
    expect(out.result.table_1).toEqual([
      { equipment: 'Printers', month: '9.6%', year: '4.0%', never: '80.1%' },
      { equipment: 'Projector', month: '2.7%', year: '1.6%', never: '91.6%' },
    ]);
  });

  it('does not build a header from a short line and the running text below it', () => {
    const text = [
      'Detail',
      '  Data Transfer                           $0.01',
      '  Compute Cloud                           $1.87',
      '  Storage Service                         $2.23',
      '',
      'See the item description page for details',
      '  for details',
      'Recurring fees for this billing period are collected together on',
      'your next billing date. The final fees you pay for this billing',
      'period can differ from the figures shown on this page.',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Data Transfer', amount: 0.01 },
      { description: 'Compute Cloud', amount: 1.87 },
      { description: 'Storage Service', amount: 2.23 },
    ]);
  });

  it('is not ended by a line in its body that names fewer columns than its header', () => {
    const text = [
      'Country           Enquiries',
      'Spain                   268',
      'Germany                 233',
      'Total EU-15             501          Country breakdown',
      'Hungary                  17',
      'Romania                  16',
    ].join('\n');
    const countries = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'country', label: 'Country', data_type: 'string' as const },
            { key: 'q', label: 'Enquiries received', data_type: 'number' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), countries);
    expect((out.result.table_1 as unknown[]).length).toBe(5);
    expect(out.result.table_1).toContainEqual({ country: 'Romania', q: 16 });
  });

  it('keeps a statistic printed across the columns under the last row out of the rows', () => {
    const text = [
      'District        Sample     Population',
      'Upland          14 (9%)    120 (8%)',
      'Lowland         31 (20%)   402 (27%)',
      'Total           45         522',
      'Test value = 2.71, df = 1, p = 0.099',
    ].join('\n');
    const districts = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'district', label: 'District', data_type: 'string' as const },
            { key: 'sample', label: 'Sample', data_type: 'string' as const },
            { key: 'population', label: 'Population', data_type: 'string' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), districts);
    expect((out.result.table_1 as { district: string }[]).map((r) => r.district)).toEqual(['Upland', 'Lowland', 'Total']);
  });

  it('reads on past a blank line between groups of rows printed on the same column edges, not into a paragraph', () => {
    const text = [
      'Group      Products            Share',
      'Alpha      Total: 20%          Brand A',
      '           (list one,          Brand B',
      '           list two)',
      '',
      'Beta       Total: 10%          Brand C',
      '',
      'The groups above cover most of the market in the year under review.',
    ].join('\n');
    const groups = {
      fields: [
        {
          key: 'table_1',
          data_type: 'table' as const,
          fields: [
            { key: 'g', label: 'Group', data_type: 'string' as const },
            { key: 'p', label: 'Products', data_type: 'string' as const },
            { key: 's', label: 'Share', data_type: 'string' as const },
          ],
        },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), groups);
    const rows = out.result.table_1 as Record<string, string>[];
    expect(rows).toContainEqual({ g: 'Beta', p: 'Total: 10%', s: 'Brand C' });
    expect(rows.some((r) => Object.values(r).some((v) => v.includes('market')))).toBe(false);
  });
  it('keeps a letter currency mark printed apart from its figure ("Fr. 10.00") out of the description', () => {
    const text = [
      'Item                 Qty      Price          Amount',
      'Widget large           2   Fr. 10.00      Fr. 20.00',
      'Gadget                 1    Fr. 5.50       Fr. 5.50',
      'Total                                     Fr. 25.50',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Widget large', quantity: 2, unit_price: 10, amount: 20 },
      { description: 'Gadget', quantity: 1, unit_price: 5.5, amount: 5.5 },
    ]);
  });

  it('keeps a unit printed alone on the line under its quantity with the quantity, not the description', () => {
    const text = [
      'Description              Qty       Price       Amount',
      'Widget large            3.00      10.00        30.00',
      '                       month',
      'Gadget                  2.00       5.50        11.00',
      '                         pcs',
      'Total                                          41.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Widget large', quantity: 3, unit_price: 10, amount: 30 },
      { description: 'Gadget', quantity: 2, unit_price: 5.5, amount: 11 },
    ]);
  });

  it('takes the column that names every item as the description when the "Description" column holds notes on some', () => {
    const text = [
      'Item               Description           Qty     Price     Amount',
      'Widget large       with wall bracket       2     10.00      20.00',
      'Gadget                                     1      5.50       5.50',
      'Cable set          two metres              3      1.00       3.00',
      'Total                                                       28.50',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Widget large', quantity: 2, unit_price: 10, amount: 20 },
      { description: 'Gadget', quantity: 1, unit_price: 5.5, amount: 5.5 },
      { description: 'Cable set', quantity: 3, unit_price: 1, amount: 3 },
    ]);
  });
  it('reads a compound column label by its head word: "Einzelbetrag" is the unit price, "Gesamtpreis" the line amount', () => {
    const german = {
      fields: [
        {
          key: 'positionen',
          data_type: 'table' as const,
          fields: [
            { key: 'beschreibung', label: 'Beschreibung', data_type: 'string' as const },
            { key: 'einzelbetrag', label: 'Einzelbetrag', data_type: 'number' as const },
            { key: 'anzahl', label: 'Anzahl', data_type: 'number' as const },
            { key: 'gesamtpreis', label: 'Gesamtpreis', data_type: 'number' as const },
          ],
        },
      ],
    };
    const text = [
      'Beschreibung          Anzahl     Einzelbetrag     Gesamtpreis',
      'Wartung Heizung          3            12,50           37,50',
      'Anfahrt                  2             8,00           16,00',
      'Filter klein             4             1,25            5,00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), german);
    expect(out.result.positionen).toEqual([
      { beschreibung: 'Wartung Heizung', einzelbetrag: 12.5, anzahl: 3, gesamtpreis: 37.5 },
      { beschreibung: 'Anfahrt', einzelbetrag: 8, anzahl: 2, gesamtpreis: 16 },
      { beschreibung: 'Filter klein', einzelbetrag: 1.25, anzahl: 4, gesamtpreis: 5 },
    ]);
  });
  it('keeps a column of date ranges out of the description, and a printed header cell out of a guessed number column', () => {
    const text = [
      'Service Period                 Plan                    Amount',
      '17 Feb 2031 - 19 Mar 2031      Training day          €1,467.44',
      '18 Jan 2031 - 17 Feb 2031      Design workshop         €853.92',
      '19 Dec 2030 - 18 Jan 2031      Site survey             €176.14',
      '',
      'Total                                                €2,497.50',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Training day', amount: 1467.44 },
      { description: 'Design workshop', amount: 853.92 },
      { description: 'Site survey', amount: 176.14 },
    ]);
  });
  it('reads a "Quantity & Price" column of "13x US$2.50" cells, row ordinals and amounts with a currency prefix', () => {
    const text = [
      '#   Product                 Quantity & Price        Tota',
      '1   Garden hose              13x US$2.50       US$32.50',
      '2   Lamp oil                  2x US$4.00        US$8.00',
      '3   Rope ladder             1.5x US$100.00    US$150.00',
      '',
      'Total                                         US$190.50',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Garden hose', quantity: 13, unit_price: 2.5, amount: 32.5 },
      { description: 'Lamp oil', quantity: 2, unit_price: 4, amount: 8 },
      { description: 'Rope ladder', quantity: 1.5, unit_price: 100, amount: 150 },
    ]);
  });
  it('splits a "count × price" cell that lands under the price header of the pair', () => {
    const text = [
      'Product          Qty   &   Price         Total',
      'Garden hose              13x US$2.50    US$32.50',
      'Lamp oil                  2x US$4.00     US$8.00',
      '',
      'Total                                   US$40.50',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Garden hose', quantity: 13, unit_price: 2.5, amount: 32.5 },
      { description: 'Lamp oil', quantity: 2, unit_price: 4, amount: 8 },
    ]);
  });
});

describe('table headers in scripts other than Latin', () => {
  const table = (labels: string[]) => ({
    fields: [
      {
        key: 'rows',
        data_type: 'table' as const,
        fields: [
          { key: 'name', label: labels[0], data_type: 'string' as const },
          { key: 'count', label: labels[1], data_type: 'number' as const },
          { key: 'sum', label: labels[2], data_type: 'number' as const },
        ],
      },
    ],
  });
  const read = (lines: string[], labels: string[]) =>
    extractFromLayout(readText(new TextEncoder().encode(lines.join('\n'))), table(labels)).result.rows;

  it('matches Cyrillic column labels (letters outside a–z are words too)', () => {
    const rows = read(
      [
        'Наименование        Количество      Сумма',
        'Зелёный стол                 2      40.00',
        'Синий стул                   4      18.00',
      ],
      ['Наименование', 'Количество', 'Сумма'],
    );
    expect(rows).toEqual([
      { name: 'Зелёный стол', count: 2, sum: 40 },
      { name: 'Синий стул', count: 4, sum: 18 },
    ]);
  });

  it('matches CJK column labels, which are printed without spaces between words', () => {
    const rows = read(
      ['项目名称        数量        金额', '纸张              3       12.00', '墨盒              1       30.50'],
      ['项目名称', '数量', '金额'],
    );
    expect(rows).toEqual([
      { name: '纸张', count: 3, sum: 12 },
      { name: '墨盒', count: 1, sum: 30.5 },
    ]);
  });
});

describe('tables printed side by side', () => {
  it('two tables with the same columns on one header line are two tables, each with its own words', () => {
    const cols = [
      { key: 'bird', label: 'Bird', data_type: 'string' as const },
      { key: 'seen', label: 'Seen', data_type: 'number' as const },
    ];
    const twoTables = {
      fields: [
        { key: 'left', label: 'Table 1', data_type: 'table' as const, fields: cols },
        { key: 'right', label: 'Table 2', data_type: 'table' as const, fields: cols },
      ],
    };
    const text = [
      'Bird             Seen          Bird             Seen',
      'Blue tit            4          Wren                2',
      'Great crested      1           Kestrel            3',
      'Robin               7          Song thrush         5',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), twoTables).result;
    expect(out.left).toEqual([
      { bird: 'Blue tit', seen: 4 },
      { bird: 'Great crested', seen: 1 },
      { bird: 'Robin', seen: 7 },
    ]);
    expect(out.right).toEqual([
      { bird: 'Wren', seen: 2 },
      { bird: 'Kestrel', seen: 3 },
      { bird: 'Song thrush', seen: 5 },
    ]);
  });
  it('on a two-column page the left column’s table is read first, though the right one is printed higher', () => {
    const cols = [
      { key: 'bird', label: 'Bird', data_type: 'string' as const },
      { key: 'seen', label: 'Seen', data_type: 'number' as const },
    ];
    const inOrder = {
      fields: [
        {
          key: 'first',
          label: 'Table 1 (page 1)',
          description: 'Table 1 of the page in reading order.',
          data_type: 'table' as const,
          fields: cols,
        },
        {
          key: 'second',
          label: 'Table 2 (page 1)',
          description: 'Table 2 of the page in reading order.',
          data_type: 'table' as const,
          fields: cols,
        },
      ],
    };
    const text = [
      'We walked through the park on two dry       Bird             Seen',
      'mornings and list them in the tables.        Wren                2',
      'The first morning was dry and calm.          Kestrel             3',
      'Few walkers were about at that hour.         Song thrush         5',
      '',
      'Bird             Seen                        The second morning was wet',
      'Blue tit            4                        and windy, and the counts',
      'Robin               7                        were lower than expected.',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), inOrder).result;
    expect(out.first).toEqual([
      { bird: 'Blue tit', seen: 4 },
      { bird: 'Robin', seen: 7 },
    ]);
    expect(out.second).toEqual([
      { bird: 'Wren', seen: 2 },
      { bird: 'Kestrel', seen: 3 },
      { bird: 'Song thrush', seen: 5 },
    ]);
  });
});

describe('a totals row under a table of counts', () => {
  it('is a row even when its figures are set close together across the columns', () => {
    const cols = [
      { key: 'ward', label: 'Ward', data_type: 'string' as const },
      { key: 'north', label: 'North', data_type: 'number' as const },
      { key: 'south', label: 'South', data_type: 'number' as const },
      { key: 'east', label: 'East', data_type: 'number' as const },
      { key: 'west', label: 'West', data_type: 'number' as const },
    ];
    const text = [
      'Ward            North     South     East     West',
      'Hillside           12        30       44       18',
      'Riverside           7        21       35       26',
      'Old Town            9        11       20       31',
      '',
      '      Grand totals 28        62       99       75',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), {
      fields: [{ key: 'table_1', data_type: 'table' as const, fields: cols }],
    });
    expect(out.result.table_1).toEqual([
      { ward: 'Hillside', north: 12, south: 30, east: 44, west: 18 },
      { ward: 'Riverside', north: 7, south: 21, east: 35, west: 26 },
      { ward: 'Old Town', north: 9, south: 11, east: 20, west: 31 },
      { ward: 'Grand totals', north: 28, south: 62, east: 99, west: 75 },
    ]);
  });
});

describe('a date column before the description', () => {
  it('keeps the first item’s description line printed above its date and figures', () => {
    const cols = [
      { key: 'date', label: 'Date', data_type: 'string' as const },
      { key: 'description', label: 'Description', data_type: 'string' as const },
      { key: 'unit_price', label: 'Unit price', data_type: 'number' as const },
      { key: 'quantity', label: 'Quantity', data_type: 'number' as const },
      { key: 'amount', label: 'Total price', data_type: 'number' as const },
    ];
    const text = [
      'Date          Description                 Unit price   Quantity   Total price',
      '              Garden design visit',
      '07/02/2031                                    120.00          2        240.00',
      '              on site, half a day',
      '06/02/2031    Hedge trimming                   45.00          3        135.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), {
      fields: [{ key: 'items', data_type: 'table' as const, fields: cols }],
    });
    expect(out.result.items).toEqual([
      { date: '07/02/2031', description: 'Garden design visit on site, half a day', unit_price: 120, quantity: 2, amount: 240 },
      { date: '06/02/2031', description: 'Hedge trimming', unit_price: 45, quantity: 3, amount: 135 },
    ]);
  });
});

describe('row labels with dot leaders', () => {
  it('drops the leader dots that run from a label to its figures', () => {
    const cols = [
      { key: 'row_label', label: 'Row label', data_type: 'string' as const },
      { key: 'this_year', label: '2031', data_type: 'string' as const },
      { key: 'last_year', label: '2030', data_type: 'string' as const },
    ];
    const text = [
      '                                      2031        2030',
      'Fees received ....................   4,210       3,980',
      'Rent paid . . . . . . . . . . . . .  (1,200)     (1,150)',
      'Balance ………………………………………………………………………   3,010       2,830',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), {
      fields: [{ key: 'table_1', data_type: 'table' as const, fields: cols }],
    });
    expect(out.result.table_1).toEqual([
      { row_label: 'Fees received', this_year: '4,210', last_year: '3,980' },
      { row_label: 'Rent paid', this_year: '(1,200)', last_year: '(1,150)' },
      { row_label: 'Balance', this_year: '3,010', last_year: '2,830' },
    ]);
  });
});

describe('the table after the items', () => {
  it('a VAT breakdown’s header row right under the items ends them: its figures are no item', () => {
    const text = [
      'Description            Quantity   Unit price     Amount',
      'Garden hose 25 m              2        20.00      40.00',
      'Hose reel                     1        60.00      60.00',
      '',
      'Rate        Net        Tax amount        Total',
      '19%         100.00     19.00             119.00',
    ].join('\n');
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), schema);
    expect(out.result.line_items).toEqual([
      { description: 'Garden hose 25 m', quantity: 2, unit_price: 20, amount: 40 },
      { description: 'Hose reel', quantity: 1, unit_price: 60, amount: 60 },
    ]);
  });

  it('a VAT breakdown set beside the totals block ends the items, and the totals read past its header cells', () => {
    const text = [
      'Description            Quantity   Unit price     Amount',
      'Garden hose 25 m              2        20.00      40.00',
      'Hose reel                     1        60.00      60.00',
      '',
      'Rate      Net        Tax amount      Net total       100.00',
      '20 %      40.00      8.00            Total tax        11.00',
      '5 %       60.00      3.00            Total due       111.00',
    ].join('\n');
    const withTotals = {
      fields: [
        ...schema.fields,
        { key: 'net_amount', label: 'Net amount', data_type: 'number' as const },
        { key: 'tax_amount', label: 'Tax amount', data_type: 'number' as const },
        { key: 'total_amount', label: 'Total', data_type: 'number' as const },
      ],
    };
    const out = extractFromLayout(readText(new TextEncoder().encode(text)), withTotals);
    expect(out.result.line_items).toEqual([
      { description: 'Garden hose 25 m', quantity: 2, unit_price: 20, amount: 40 },
      { description: 'Hose reel', quantity: 1, unit_price: 60, amount: 60 },
    ]);
    expect(out.result).toMatchObject({ net_amount: 100, tax_amount: 11, total_amount: 111 });
  });
});
