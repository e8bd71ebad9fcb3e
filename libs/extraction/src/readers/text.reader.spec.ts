import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { parseCsv, readHtml, readText } from './text.reader.js';

const enc = (s: string) => new TextEncoder().encode(s);

describe('text readers', () => {
  it('splits text/plain pages on form feeds', () => {
    expect(readText(enc('page one\fpage two\n')).pages).toHaveLength(2);
  });

  it('parses quoted CSV with ; delimiter', () => {
    expect(parseCsv('a;b\n"x;1";"say ""hi"""\n')).toEqual([
      ['a', 'b'],
      ['x;1', 'say "hi"'],
    ]);
  });

  it('reads HTML: entities, line breaks, tables', () => {
    const html =
      '<html><head><style>p{}</style></head><body><h1>Invoice</h1><p>Invoice No: K&amp;Q-7<br>Date: 3 March 2024</p>' +
      '<table><tr><th>Item</th><th>Qty</th><th>Amount</th></tr><tr><td>Tea</td><td>2</td><td>&euro;4,00</td></tr></table></body></html>';
    const doc = readHtml(enc(html));
    const out = extractFromLayout(doc, {
      fields: [
        { key: 'invoice_number', label: 'Invoice number', data_type: 'string' },
        { key: 'date', data_type: 'date' },
        {
          key: 'items',
          data_type: 'table',
          fields: [
            { key: 'description', data_type: 'string' },
            { key: 'quantity', data_type: 'number' },
            { key: 'amount', data_type: 'number' },
          ],
        },
      ],
    });
    expect(out.result).toEqual({ invoice_number: 'K&Q-7', date: '2024-03-03', items: [{ description: 'Tea', quantity: 2, amount: 4 }] });
    expect(out.markdown).toContain('| Item | Qty | Amount |');
  });
});
