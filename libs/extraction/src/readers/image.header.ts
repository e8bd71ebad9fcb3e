/** What an image file's header and container say before anything decodes it: its size, and whether it is whole. */

/** Pixel size from the image header (PNG, JPEG, WebP, TIFF-less fallback: the OCR word extents). */
export function imageSize(b: Uint8Array): { width: number; height: number } | undefined {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length > 24 && b[0] === 0x89 && b[1] === 0x50) return { width: dv.getUint32(16), height: dv.getUint32(20) };
  if (b.length > 4 && b[0] === 0xff && b[1] === 0xd8) {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1]!;
      const len = dv.getUint16(i + 2);
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
        return { height: dv.getUint16(i + 5), width: dv.getUint16(i + 7) };
      i += 2 + len;
    }
  }
  return undefined;
}

/**
 * Is the image's container complete: a PNG's chunks up to IEND (with image data), a JPEG's segments up to its
 * scan data and an end-of-image marker after it, a WebP's RIFF size within the file? The native decoder behind
 * @napi-rs/canvas crashes the whole process (SIGSEGV) on a header-only or cut-off upload, so nothing reaches it
 * unchecked. This walks the container only; pixel data is left to the decoders.
 */
export function imageComplete(b: Uint8Array): boolean {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  if (b.length >= 8 && b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) {
    let sawData = false;
    for (let i = 8; i + 8 <= b.length;) {
      const len = dv.getUint32(i);
      const type = String.fromCharCode(b[i + 4]!, b[i + 5]!, b[i + 6]!, b[i + 7]!);
      if (i === 8 && type !== 'IHDR') return false;
      if (i + 12 + len > b.length) return false;
      if (type === 'IDAT') sawData = true;
      if (type === 'IEND') return sawData;
      i += 12 + len;
    }
    return false;
  }
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    let frame = false;
    for (let i = 2; i + 4 <= b.length;) {
      // Stray bytes between segments: decoders skip them with a warning, and so does this walk.
      if (b[i] !== 0xff) {
        i += 1;
        continue;
      }
      const marker = b[i + 1]!;
      // Fill bytes, and markers without a length (restart markers, TEM).
      if (marker === 0xff) {
        i += 1;
        continue;
      }
      if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
        i += 2;
        continue;
      }
      const len = dv.getUint16(i + 2);
      if (len < 2 || i + 2 + len > b.length) return false;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) frame = true;
      if (marker === 0xda) {
        // Scan data follows; the image ends with EOI (FF D9) somewhere after it (trailing bytes are tolerated).
        for (let k = b.length - 2; k >= i + 2 + len; k--) if (b[k] === 0xff && b[k + 1] === 0xd9) return frame;
        return false;
      }
      i += 2 + len;
    }
    return false;
  }
  if (b.length >= 12 && String.fromCharCode(...b.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...b.subarray(8, 12)) === 'WEBP') {
    return b.length >= 8 + dv.getUint32(4, true) && b.length >= 30;
  }
  return true;
}
