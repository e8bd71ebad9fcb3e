import { describe, expect, it } from '@jest/globals';
import { encodeBmp } from './bmp.js';

/** An invented 3 × 2 RGBA image: red, green, blue / grey, half-transparent black, transparent. */
const RGBA = new Uint8ClampedArray([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 100, 100, 100, 255, 0, 0, 0, 128, 9, 9, 9, 0]);

describe('encodeBmp', () => {
  it('writes a 24-bit bottom-up BMP with rows padded to four bytes', () => {
    const bmp = encodeBmp(RGBA, 3, 2);
    const dv = new DataView(bmp.buffer);
    expect(String.fromCharCode(bmp[0]!, bmp[1]!)).toBe('BM');
    expect(bmp.length).toBe(54 + 2 * 12); // 3 px × 3 bytes = 9, padded to 12
    expect(dv.getUint32(2, true)).toBe(bmp.length);
    expect([dv.getInt32(18, true), dv.getInt32(22, true), dv.getUint16(28, true)]).toEqual([3, 2, 24]);
    // The first stored row is the image's bottom row, in BGR order; transparency is composited over white.
    expect([...bmp.subarray(54, 63)]).toEqual([100, 100, 100, 127, 127, 127, 255, 255, 255]);
    expect([...bmp.subarray(66, 75)]).toEqual([0, 0, 255, 0, 255, 0, 255, 0, 0]);
  });

  it('decodes to the same pixels with the image loader PaddleOCR reads with', async () => {
    const { loadImage, createCanvas } = await import('@napi-rs/canvas');
    const img = await loadImage(Buffer.from(encodeBmp(RGBA, 3, 2)));
    const ctx = createCanvas(3, 2).getContext('2d');
    ctx.drawImage(img, 0, 0);
    const px = [...ctx.getImageData(0, 0, 3, 2).data];
    expect(px).toEqual([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 100, 100, 100, 255, 127, 127, 127, 255, 255, 255, 255, 255]);
  });

  it('refuses sizes its pixels do not fill', () => {
    expect(() => encodeBmp(RGBA, 4, 2)).toThrow(RangeError);
    expect(() => encodeBmp(RGBA, 0, 2)).toThrow(RangeError);
  });
});
