import { describe, expect, it } from '@jest/globals';
import { textCanvas } from '../testing/image.test-helper.js';
import { makePdf } from '../testing/pdf.test-helper.js';
import { hasWidePicture } from './pdf.reader.js';

describe('hasWidePicture', () => {
  it('finds a wide raster picture in the raw bytes, and nothing in a text-only or square-picture PDF', async () => {
    const wide = textCanvas(['Kestrel Tools B.V.'], { width: 1200, height: 240 }).toBuffer('image/png');
    const square = textCanvas(['Logo'], { width: 400, height: 400 }).toBuffer('image/png');
    expect(hasWidePicture(await makePdf((d) => d.text('Invoice').image(wide, 50, 700, { width: 400 })))).toBe(true);
    expect(hasWidePicture(await makePdf((d) => d.text('Invoice').image(square, 50, 50, { width: 100 })))).toBe(false);
    expect(hasWidePicture(await makePdf((d) => d.text('Invoice')))).toBe(false);
  });
});
