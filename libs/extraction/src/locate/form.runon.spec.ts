import { describe, expect, it } from '@jest/globals';
import { extractFromLayout } from '../extraction.engine.js';
import { ocrReceipt } from '../testing/receipt-layout.test-helper.js';

// A printed label that runs on past the schema's label to a colon of its own ("Total Qty:" for "Total") asks another
// question: its value is not the field's (all text invented).

const schema = {
  fields: [
    { key: 'date', label: 'Date', data_type: 'date' as const },
    { key: 'total', label: 'Total', data_type: 'number' as const, description: 'Total amount paid.' },
  ],
};

describe('a printed label running on to its own colon', () => {
  it('is another label: an item count is no total', () => {
    const head = ['KEDAI ROTI MANIS', 'Date: 11/04/2018', 'ROTI  2  10.00'];
    for (const body of [
      ['Total Qty: 2', 'GRAND TOTAL  10.00'],
      ['Total Items: 3', 'GRAND TOTAL  10.00', 'CASH  20.00', 'CHANGE  10.00'],
      ['GRAND TOTAL  10.00', 'Total Qty: 2'],
    ])
      expect(extractFromLayout(ocrReceipt([...head, ...body]), schema).result.total).toBe(10);
  });

  it('is another label: a date received is not the date asked for', () => {
    const got = extractFromLayout(ocrReceipt(['ORDER FORM', 'Date Received: 04/11/1993', 'Date: 05/11/1993', 'Total  12.00']), schema);
    expect(got.result.date).toBe('1993-11-05');
  });
});

describe('a totals row printing a count before its amount', () => {
  it('answers with the amount, not the count', () => {
    const head = ['KEDAI ROTI MANIS', 'Date: 11/04/2018', 'Item  Qty  Amount', 'ROTI  2  7.00'];
    expect(extractFromLayout(ocrReceipt([...head, 'TOTAL  2  10.00']), schema).result.total).toBe(10);
    expect(extractFromLayout(ocrReceipt([...head, 'TOTAL  2  10.00', 'CASH  20.00']), schema).result.total).toBe(10);
    expect(extractFromLayout(ocrReceipt([...head, 'Total 2 item(s)  10.00']), schema).result.total).toBe(10);
  });
});
