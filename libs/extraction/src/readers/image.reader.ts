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

/**
 * Tesseract is tuned for ~300 dpi text; phone photos and 100-dpi fax scans have 10–15 px letters.
 * Small images are upscaled (with smoothing) before OCR and the boxes scaled back, which recovers many
 * words the model drops at native size. Uses @napi-rs/canvas (prebuilt, comes with pdfjs-dist); when it
 * cannot load, OCR runs on the original bytes.
 */
async function upscale(bytes: Uint8Array, size: { width: number; height: number } | undefined): Promise<{ image: Uint8Array; factor: number }> {
  const target = Number(process.env.DOCKET_OCR_MIN_WIDTH ?? 1300);
  if (!size || size.width >= target || size.width * size.height > 12e6) return { image: bytes, factor: 1 };
  const factor = Math.min(Number(process.env.DOCKET_OCR_MAX_SCALE ?? 1.5), target / size.width);
  try {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const img = await loadImage(Buffer.from(bytes));
    const canvas = createCanvas(Math.round(img.width * factor), Math.round(img.height * factor));
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    return { image: canvas.toBuffer('image/png'), factor };
  } catch {
    return { image: bytes, factor: 1 };
  }
}

/** OCRs one image as one page (`page` numbers it: a multi-page TIFF calls this once per page). */
export async function readImage(bytes: Uint8Array, ocr: OcrService, page = 1): Promise<DocLayout> {
  const header = imageSize(bytes);
  const { image, factor } = await upscale(bytes, header);
  const res = await ocr.recognize(image);
  if (factor !== 1) {
    for (const w of res.words) (w.x0 /= factor), (w.x1 /= factor), (w.y0 /= factor), (w.y1 /= factor);
    if (res.width) res.width /= factor;
    if (res.height) res.height /= factor;
  }
  const size = header ?? (res.width && res.height ? { width: res.width, height: res.height } : undefined);
  const width = size?.width ?? Math.max(1, ...res.words.map((w) => w.x1));
  const height = size?.height ?? Math.max(1, ...res.words.map((w) => w.y1));
  return { pages: [buildPage(page, width, height, res.words, true)] };
}
