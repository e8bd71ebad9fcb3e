import { buildPage } from '../layout/layout.builder.js';
import type { DocLayout } from '../layout/layout.types.js';
import type { OcrService } from './ocr.service.js';

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

export async function readImage(bytes: Uint8Array, ocr: OcrService): Promise<DocLayout> {
  const res = await ocr.recognize(bytes);
  const size = imageSize(bytes) ?? (res.width && res.height ? { width: res.width, height: res.height } : undefined);
  const width = size?.width ?? Math.max(1, ...res.words.map((w) => w.x1));
  const height = size?.height ?? Math.max(1, ...res.words.map((w) => w.y1));
  return { pages: [buildPage(1, width, height, res.words, true)] };
}
