import { afterAll, describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import { invoiceSchema, L, pdfOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// An item table over two pages whose first part ends in a note that the table goes on ("Continued on next page", set
// flush right under the last row, as LaTeX's longtable foot prints it), the header printed again overleaf. Every name
// and figure is invented.

const engine = createExtractionEngine();
afterAll(() => engine.close());

const head = (y: number): Item[] => [
  L(60, y, 'Description', 9, true),
  R(400, y, 'Qty', 9, true),
  R(470, y, 'Price', 9, true),
  R(535, y, 'Amount', 9, true),
];
const item = (y: number, d: string, q: string, p: string, a: string): Item[] => [L(60, y, d), R(400, y, q), R(470, y, p), R(535, y, a)];

function pages(note: string): Item[][] {
  const first = [
    L(60, 50, 'Quenmar Velde Ltd', 14, true),
    L(60, 120, 'Tosca Brinell', 10),
    L(60, 190, 'Invoice 2031-044', 14, true),
    ...head(240),
    ...item(258, 'Survey of the Ravelin site', '2', '140.00', '280.00'),
    ...item(272, 'Drawings for the Ravelin site', '1', '360.00', '360.00'),
    ...item(286, 'Printing of the drawings', '6', '12.50', '75.00'),
    R(535, 300, note, 8),
    L(60, 800, 'Quenmar Velde Ltd · 4 Orrin Lane · Tessford', 7),
  ];
  const second = [
    ...head(60),
    ...item(78, 'Site meeting', '3', '90.00', '270.00'),
    ...item(92, 'Travel to the site', '1', '45.00', '45.00'),
    L(380, 120, 'Total', 9, true),
    R(535, 120, '1,030.00', 9, true),
  ];
  return [first, second];
}

describe('a table that ends its page with a note that it goes on', () => {
  it.each(['Continued on next page', 'Fortsetzung auf der nächsten Seite', 'Suite page suivante', 'Vervolg op volgende pagina'])(
    'reads "%s" as no part of the last row of the page',
    async (note) => {
      const bytes = await pdfOf(pages(note));
      const out = await engine.extract({ bytes, mimeType: 'application/pdf', filename: 'invoice.pdf' }, invoiceSchema);
      const rows = out.result.line_items as Record<string, unknown>[];
      expect(rows.map((r) => r.description)).toEqual([
        'Survey of the Ravelin site',
        'Drawings for the Ravelin site',
        'Printing of the drawings',
        'Site meeting',
        'Travel to the site',
      ]);
    },
  );
});

// The same table whose items all fit on the first page, the header printed again overleaf over the totals alone.
function totalsOverleaf(): Item[][] {
  const [first] = pages('Continued on next page');
  const second = [...head(60), L(420, 78, 'Total due', 9, true), R(535, 78, '715.00', 9, true)];
  return [first!, second];
}

describe('a header printed again overleaf over the totals alone', () => {
  it('reads the totals line under it as no item row', async () => {
    const out = await engine.extract(
      { bytes: await pdfOf(totalsOverleaf()), mimeType: 'application/pdf', filename: 'invoice.pdf' },
      invoiceSchema,
    );
    const rows = out.result.line_items as Record<string, unknown>[];
    expect(rows.map((r) => r.amount)).toEqual([280, 360, 75]);
  });
});
