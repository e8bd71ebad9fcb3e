/**
 * Uncompressed 24-bit BMP: the hand-over format of a prepared (upscaled, turned, straightened) image to PaddleOCR.
 * Encoding a canvas to PNG cost 0.3–1.8 s per page on this project's machines (the zlib pass over a photo of a
 * receipt), more than the detector's run; a BMP is a header in front of the pixels (a few milliseconds), lossless,
 * and decoded by the same image loader. Hand-written: the format is a 54-byte header, and the registry's BMP
 * encoders (bmp-js 0.1, unmaintained) want their own channel order.
 */

/** File header (14 bytes) + BITMAPINFOHEADER (40 bytes). */
const BMP_HEADER_BYTES = 54;
/** Pixels per metre written in the header (72 dpi; readers here ignore it). */
const PIXELS_PER_METRE = 2835;

/**
 * RGBA pixels (not premultiplied, as `getImageData` returns them) → a 24-bit BMP, each pixel composited over white
 * (as PaddleOCR draws an image before reading it). Rows bottom-up, each padded to a multiple of 4 bytes.
 */
export function encodeBmp(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): Uint8Array {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1 || rgba.length < 4 * width * height)
    throw new RangeError(`no ${width} × ${height} RGBA image in ${rgba.length} bytes`);
  const stride = (3 * width + 3) & ~3;
  const out = new Uint8Array(BMP_HEADER_BYTES + stride * height);
  const dv = new DataView(out.buffer);
  out[0] = 0x42; // 'B'
  out[1] = 0x4d; // 'M'
  dv.setUint32(2, out.length, true);
  dv.setUint32(10, BMP_HEADER_BYTES, true);
  dv.setUint32(14, 40, true);
  dv.setInt32(18, width, true);
  dv.setInt32(22, height, true);
  dv.setUint16(26, 1, true); // planes
  dv.setUint16(28, 24, true); // bits per pixel
  dv.setUint32(34, stride * height, true);
  dv.setInt32(38, PIXELS_PER_METRE, true);
  dv.setInt32(42, PIXELS_PER_METRE, true);
  for (let y = 0; y < height; y++) {
    let o = BMP_HEADER_BYTES + (height - 1 - y) * stride;
    for (let i = 4 * y * width, end = i + 4 * width; i < end; i += 4) {
      const a = rgba[i + 3]!;
      out[o++] = overWhite(rgba[i + 2]!, a);
      out[o++] = overWhite(rgba[i + 1]!, a);
      out[o++] = overWhite(rgba[i]!, a);
    }
  }
  return out;
}

/** One channel composited over white (rounded). */
function overWhite(c: number, a: number): number {
  return a === 255 ? c : Math.round((c * a + 255 * (255 - a)) / 255);
}
