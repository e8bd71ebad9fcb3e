import { describe, expect, it } from '@jest/globals';
import { createExtractionEngine } from '../extraction.engine.js';
import { makePdf } from '../testing/pdf.test-helper.js';
import { invoiceSchema } from '../testing/invoice-layout.test-helper.js';

// A letterhead set beside the document's title on one printed line. Every name and address is invented.

describe('an issuer printed beside the title', () => {
  it('is read from its own cell, without the title word', async () => {
    const bytes = await makePdf((d) => {
      d.font('Helvetica-Bold').fontSize(18).text('INVOICE', 72, 60, { lineBreak: false });
      d.fontSize(11).text('Ridgeway Outfitters, Inc.', 360, 60, { lineBreak: false });
      d.font('Helvetica').fontSize(9);
      d.text('800 Canyon Road, Boulder, CO 80302', 360, 75, { lineBreak: false });
      d.text('(303) 555-0142', 360, 87, { lineBreak: false });
      d.text('Bill To', 72, 120, { lineBreak: false }).text('Ship To', 220, 120, { lineBreak: false });
      d.text('Invoice #', 400, 120, { lineBreak: false }).text('10457', 470, 120, { lineBreak: false });
      ['Cairn Guides LLC', '41 Aspen Way', 'Estes Park, CO 80517'].forEach((t, k) => d.text(t, 72, 132 + k * 11, { lineBreak: false }));
      ['Trailhead Depot', '9 Elk Lane', 'Estes Park, CO 80517'].forEach((t, k) => d.text(t, 220, 132 + k * 11, { lineBreak: false }));
      d.text('Description', 72, 200, { lineBreak: false }).text('Amount', 480, 200, { lineBreak: false });
      d.text('Trail maps', 72, 216, { lineBreak: false }).text('88.00', 490, 216, { lineBreak: false });
      d.text('Total', 400, 250, { lineBreak: false }).text('88.00', 490, 250, { lineBreak: false });
    });
    const engine = createExtractionEngine();
    try {
      const out = await engine.extract({ bytes, mimeType: 'application/pdf', filename: 't.pdf' }, invoiceSchema);
      expect(out.result.seller_name).toBe('Ridgeway Outfitters, Inc.');
      expect(out.result.buyer_name).toBe('Cairn Guides LLC');
    } finally {
      await engine.close();
    }
  });
});
