import { afterAll, describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import { invoiceSchema, L, pdfOf, R, type Item } from '../testing/invoice-layout.test-helper.js';

// Item tables of freelancers' invoices bill hours at an hourly rate, day by day, and name their columns so: "Date |
// Prestation | Heures | Taux horaire | TVA | Montant", "Datum | Beschrijving | Uren | Uurtarief | Btw | Bedrag" (the
// dates their own column, never description text).
// Every name and figure is invented.

const engine = createExtractionEngine();
afterAll(() => engine.close());

/** A page with an item table: a date column, the description, hours, the rate, the VAT rate and the amount. */
function page(title: string, heads: string[], items: [string, string, string, string][], total: string): Item[] {
  const xs = [60, 120, 360, 430, 475, 535];
  const cells = (y: number, c: string[], bold = false) => c.map((t, k) => (k < 2 ? L(xs[k]!, y, t, 9, bold) : R(xs[k]!, y, t, 9, bold)));
  return [
    L(60, 50, 'Velmora Tessin', 14, true),
    L(60, 120, 'Korvale Brandt', 10),
    L(60, 190, title, 14, true),
    ...cells(240, heads, true),
    ...items.flatMap(([d, q, p, a], i) => cells(258 + i * 14, [`0${i + 3}.05.2025`, d, q, p, '19 %', a])),
    R(475, 320, total.split(' ')[0]!, 9, true),
    R(535, 320, total.split(' ')[1]!, 9, true),
  ];
}

async function items(p: Item[]): Promise<unknown[][]> {
  const out = await engine.extract({ bytes: await pdfOf([p]), mimeType: 'application/pdf', filename: 'invoice.pdf' }, invoiceSchema);
  return (out.result.line_items as Record<string, unknown>[]).map((r) => [r.description, r.quantity, r.unit_price, r.amount]);
}

describe('hours at an hourly rate, in the words freelancers print', () => {
  it('reads "Prestation" as the description and "Taux horaire" as the unit price', async () => {
    const p = page(
      'Facture',
      ['Date', 'Prestation', 'Heures', 'Taux horaire', 'TVA', 'Montant'],
      [
        ['Relecture Velmora', '3', '55,00', '165,00'],
        ['Traduction Brandt', '7,5', '55,00', '412,50'],
      ],
      'Total 577,50',
    );
    expect(await items(p)).toEqual([
      ['Relecture Velmora', 3, 55, 165],
      ['Traduction Brandt', 7.5, 55, 412.5],
    ]);
  });

  it('reads "Beschrijving" as the description and "Uurtarief" as the unit price', async () => {
    const p = page(
      'Factuur',
      ['Datum', 'Beschrijving', 'Uren', 'Uurtarief', 'Btw', 'Bedrag'],
      [
        ['Ontwerp Korvale', '6', '70,00', '420,00'],
        ['Advies Tessin', '2,5', '70,00', '175,00'],
      ],
      'Totaal 595,00',
    );
    expect(await items(p)).toEqual([
      ['Ontwerp Korvale', 6, 70, 420],
      ['Advies Tessin', 2.5, 70, 175],
    ]);
  });

  it('reads "Dienst" (service) as the description', async () => {
    const p = page(
      'Factuur',
      ['Datum', 'Dienst', 'Uren', 'Uurtarief', 'Btw', 'Bedrag'],
      [
        ['Ontwerp Korvale', '6', '70,00', '420,00'],
        ['Advies Tessin', '2,5', '70,00', '175,00'],
      ],
      'Totaal 595,00',
    );
    expect(await items(p)).toEqual([
      ['Ontwerp Korvale', 6, 70, 420],
      ['Advies Tessin', 2.5, 70, 175],
    ]);
  });
});
