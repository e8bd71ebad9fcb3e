import { afterAll, describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import { block, L, R, row, type Case, extractCase } from '../testing/invoice-layout.test-helper.js';

const engine = createExtractionEngine();
afterAll(() => engine.close?.());

/** An invented invoice whose number and date stand, unlabelled, at the top right. */
const page = (numberLine: string, x = 545) => [
  R(x, 40, numberLine),
  R(545, 52, '14.02.2031'),
  ...block(50, 120, ['Harbour Lights GmbH', 'Kaistraße 7', '20457 Hamburg']),
  ...block(360, 120, ['Mellow Fields KG', 'Am Anger 3', '99084 Erfurt']),
  ...row(220, [50, 'Artikel'], [330, 'Menge', 'r'], [430, 'Preis', 'r'], [545, 'Summe', 'r']),
  ...row(236, [50, 'Lampenschirm Leinen'], [330, '2', 'r'], [430, '30,00 €', 'r'], [545, '60,00 €', 'r']),
  ...row(270, [360, 'Nettobetrag'], [545, '60,00 €', 'r']),
  ...row(282, [360, 'MwSt. 19 %'], [545, '11,40 €', 'r']),
  ...row(294, [360, 'Gesamtbetrag'], [545, '71,40 €', 'r']),
];

describe('a document number printed without a label beside the document date', () => {
  it('is the identifier alone on the line over the date, in its column', async () => {
    const c: Case = { name: 'number over date', pages: [page('Q-2031-0042')], want: {} };
    const out = await extractCase(engine, c);
    expect(out.invoice_number).toBe('Q-2031-0042');
    expect(out.invoice_date).toBe('2031-02-14');
  });

  it('is not a word, nor an identifier set apart from the date column', async () => {
    expect((await extractCase(engine, { name: 'word', pages: [page('Quittung')], want: {} })).invoice_number).toBeUndefined();
    const apart = await extractCase(engine, { name: 'apart', pages: [[L(50, 40, 'Q-2031-0042'), ...page('').slice(1)]], want: {} });
    expect(apart.invoice_number).toBeUndefined();
  });
});
