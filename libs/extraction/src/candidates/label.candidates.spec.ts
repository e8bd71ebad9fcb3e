import { afterAll, describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import { block, L, row, extractCase, invoiceSchema, layoutOf } from '../testing/invoice-layout.test-helper.js';
import { inferContext } from '../document.context.js';
import { labelCandidates } from './label.candidates.js';

const engine = createExtractionEngine();
afterAll(() => engine.close?.());

// An invented invoice that prints no issue date: only a payment target and one date per item row.
const page = [
  ...block(50, 40, ['Lantern Row Ltd', '12 Quay Street', 'Portford PF1 2AB']),
  ...block(330, 40, ['Harbour Glass LLP', '7 Mill Lane', 'Eastmoor EM3 4CD']),
  L(50, 130, 'Invoice number: 2031-0417'),
  L(50, 143, 'Payment target: 19/03/2031'),
  ...row(190, [50, 'Date'], [120, 'Description'], [380, 'Unit price', 'r'], [440, 'Quantity', 'r'], [545, 'Total price', 'r']),
  ...row(206, [50, '14/11/2030'], [120, 'Window survey'], [380, '£120.00', 'r'], [440, '2', 'r'], [545, '£240.00', 'r']),
  ...row(222, [50, '15/11/2030'], [120, 'Frame repair'], [380, '£80.50', 'r'], [440, '1', 'r'], [545, '£80.50', 'r']),
  ...row(260, [380, 'Total'], [545, '£320.50', 'r']),
];

describe('document dates are not item dates', () => {
  it('reads no issue date from a "Date" column over priced rows, nor from the payment target', async () => {
    const out = await extractCase(engine, { name: 'no issue date', pages: [page], want: {} });
    expect(out.due_date).toBe('2031-03-19');
    expect(out.invoice_date).toBeUndefined();
  });
});

// An invented letterhead whose address lines carry party words: "Client Road", "Buyer Town".
const partyWordsInAddress = [
  ...block(50, 40, ['Kestrel Tools Ltd', '18 Client Road', '40213 Buyer Town']),
  L(50, 110, 'Invoice number: KT-5521'),
  L(50, 123, 'Invoice date: 02/04/2031'),
  ...row(170, [50, 'Description'], [545, 'Amount', 'r']),
  ...row(186, [50, 'Bench grinder'], [545, '£310.00', 'r']),
  ...row(220, [380, 'Total'], [545, '£310.00', 'r']),
];

describe('a party word inside an address line is no label', () => {
  it('reads no buyer from "18 Client Road" or "40213 Buyer Town"', async () => {
    const out = await extractCase(engine, { name: 'party words in address', pages: [partyWordsInAddress], want: {} });
    expect(out.buyer_name).not.toBe('Road');
    expect(out.buyer_name).not.toBe('Town');
    expect(out.seller_name).toBe('Kestrel Tools Ltd');
  });
});

// An invented letter whose number stands in its title, over items numbered under a "No." column.
const numberedItems = [
  ...block(50, 40, ['Wren Lamps Ltd', '4 Copper Lane', 'Dalebury DB2 6QT']),
  ...block(50, 180, ['Osprey Fittings LLP', '9 Weir Street', 'Fenmoor FM7 1RS']),
  L(89, 280, 'Invoice QX-7720'),
  L(89, 348, 'Account no.: W-40417'),
  ...row(374, [89, 'No.'], [118, 'Date'], [182, 'Service'], [432, 'Hours', 'r'], [506, 'Line total', 'r']),
  ...row(392, [95, '1'], [118, '05/14/2031'], [182, 'Lantern rewiring'], [432, '12 h', 'r'], [506, '780.00', 'r']),
  ...row(409, [95, '2'], [118, '05/19/2031'], [182, 'Shade fitting'], [506, '195.00', 'r']),
  ...row(454, [283, 'Total'], [506, '975.00', 'r']),
];

describe('an item position is no document number', () => {
  it('reads no invoice number from the "No." column of numbered priced rows', () => {
    const doc = layoutOf([numberedItems]);
    const numbers = labelCandidates(doc, invoiceSchema.fields, inferContext(doc)).filter((c) => c.f.key === 'invoice_number');
    expect(numbers.map((c) => c.c.value)).toEqual([]);
  });
});
