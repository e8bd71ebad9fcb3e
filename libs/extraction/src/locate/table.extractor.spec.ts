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
    const engine = createExtractionEngine();
    const out = await engine.extract({ bytes, mimeType: 'application/pdf', filename: 't.pdf' }, schema);
    await engine.close();
    expect(out.pages).toBe(2);
    expect(out.result.line_items).toEqual([
      { description: 'Apples', quantity: 3, unit_price: 1, amount: 3 },
      { description: 'Pears', quantity: 2, unit_price: 2.5, amount: 5 },
    ]);
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
    const engine = createExtractionEngine();
    const out = await engine.extract({ bytes, mimeType: 'application/pdf', filename: 't.pdf' }, schema);
    await engine.close();
    expect(out.result.line_items).toEqual([
      { description: 'Laptop bundle', quantity: 1, unit_price: 900, amount: 900 },
      { description: 'Setup', quantity: 2, unit_price: 50, amount: 100 },
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
});
