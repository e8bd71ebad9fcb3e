import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import type { ExtractionSchema } from '../engine.types.js';
import { readText } from '../readers/text.reader.js';

const summarySchema: ExtractionSchema = {
  fields: [
    { key: 'total_amount', label: 'Total amount', data_type: 'number' },
    { key: 'net_amount', label: 'Net amount', data_type: 'number' },
    { key: 'tax_amount', label: 'Tax amount', data_type: 'number' },
    { key: 'vat_id', label: 'VAT ID', data_type: 'string' },
  ],
};

const run = (text: string, schema = summarySchema) => extractFromLayout(readText(new TextEncoder().encode(text)), schema);

describe('summary amounts', () => {
  it('derives the net amount from total − tax when only those two are printed', () => {
    const out = run('Invoice 17\nVAT 20%: 5.00\nTotal: 29.99\n');
    expect(out.result).toMatchObject({ total_amount: 29.99, tax_amount: 5, net_amount: 24.99 });
    expect(out.fields.net_amount!.confidence).toBeLessThanOrEqual(out.fields.total_amount!.confidence);
    expect(out.fields.net_amount!.bbox).toBeUndefined();
  });

  it('does not derive tax from total − net (shipping may sit between them)', () => {
    const out = run('Subtotal: 100.00\nShipping: 5.00\nTotal: 125.00\n');
    expect(out.result).toMatchObject({ total_amount: 125, net_amount: 100 });
    expect(out.result.tax_amount).toBeUndefined();
  });

  it('reads net and tax from the totals row under the table column headers', () => {
    const text = [
      'Item                 Qty     Net value     VAT %     Tax amount     Gross',
      'Widget deluxe          2        100,00        23          23,00    123,00',
      'Gadget                 1         50,00        23          11,50     61,50',
      '                 Total:         150,00                    34,50    184,50',
    ].join('\n');
    const out = run(text);
    expect(out.result).toMatchObject({ net_amount: 150, tax_amount: 34.5, total_amount: 184.5 });
  });

  it('does not read an amount from an identifier label or a hyphenated code', () => {
    const out = run('Seller GmbH\nSteuer-Nr. 044 241 601 03\nTax ID: 774-00-01-454\nTotal EUR 34,73\n');
    expect(out.result.tax_amount).toBeUndefined();
    expect(out.result.vat_id).toBe('774-00-01-454');
  });

  it('sums the per-rate VAT lines when no VAT total is printed and net + sum = total', () => {
    const text = 'Subtotaal excl. btw    143,30\nBtw 9% over 99,80    8,98\nBtw 21% over 43,50    9,14\nTotaal incl. btw    161,42\n';
    expect(run(text).result).toMatchObject({ net_amount: 143.3, tax_amount: 18.12, total_amount: 161.42 });
    // One rate line that does not add up stays as printed (a deposit or shipping line may explain the gap).
    expect(run('Net 100,00\nVAT 20% 20,00\nShipping 5,00\nTotal 125,00\n').result).toMatchObject({ tax_amount: 20 });
  });

  it('takes a rate line between the net amount and the total as the tax when it prints their difference', () => {
    const text = 'Subtotal    1,782.50\nNM GRT 8.1875%    145.94\nBalance Due    1,928.44\n';
    expect(run(text).result).toMatchObject({ net_amount: 1782.5, tax_amount: 145.94, total_amount: 1928.44 });
    // A shipping line (no rate) is not a tax.
    expect(run('Subtotal    100.00\nShipping    5.00\nTotal    105.00\n').result.tax_amount).toBeUndefined();
  });
  it('reads the tax from a line between net and total that names tax under another word and prints their difference', () => {
    const out = run('Subtotal            1,000.00\nItem Tax              200.00\nTotal               1,200.00\n');
    expect(out.result).toMatchObject({ total_amount: 1200, net_amount: 1000, tax_amount: 200 });
  });

  it('ranks a summary tax line above a tax rate repeated on every item row', () => {
    const text = [
      'Description          Price   Qty   Tax          Total',
      'Widget large         10.00     2   VAT 5%       20.00',
      'Gadget                5.50     1   VAT 20%       5.50',
      'Cable set             1.00     3   VAT 20%       3.00',
      'Lamp shade            7.00     1   VAT 5%        7.00',
      'Desk                 40.00     1   VAT 20%      40.00',
      'Chair                25.00     2   VAT 20%      50.00',
      'Paper                 2.00     5   VAT 5%       10.00',
      'Pens                  0.50    10   VAT 20%       5.00',
      '',
      '                                  Sub-Total   140.50',
      '                                  Tax          23.21',
      '                                  Total       163.71',
    ].join('\n');
    const out = run(text);
    expect(out.result).toMatchObject({ net_amount: 140.5, tax_amount: 23.21, total_amount: 163.71 });
  });
});
