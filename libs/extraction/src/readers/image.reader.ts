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

/** Largest upscale of a low-dpi page scan (brought to ~200 dpi). */
const PAGE_MAX_SCALE = 2;
/** Other small images are brought towards this width … */
const MIN_WIDTH = 1300;
/** … upscaled at most this much. */
const MAX_SCALE = 1.5;

/** Tesseract page segmentation mode for page images: a single uniform block of text. */
const PAGE_PSM = 6;

/** Letter/A4 portrait proportions: a scanned or photographed page rather than a receipt or a screenshot. */
function isPage(size: { width: number; height: number } | undefined): boolean {
  return size !== undefined && size.width > 0 && size.height / size.width > 1.2 && size.height / size.width < 1.5;
}

/**
 * Upscale factor before OCR. Tesseract is tuned for ~300 dpi text; phone photos and 100-dpi fax scans have
 * 10–15 px letters. A portrait page scan (Letter/A4 proportions) gets its resolution estimated from its
 * width (~8.3 in) and is brought to ~200 dpi (at most 2×); other small images (receipts, screenshots) are
 * brought towards 1300 px wide (at most 1.5×).
 */
export function ocrScale(size: { width: number; height: number } | undefined): number {
  if (!size || size.width <= 0 || size.height <= 0 || size.width * size.height > 12e6) return 1;
  if (isPage(size)) {
    const dpi = size.width / 8.3;
    if (dpi < 150) return Math.min(PAGE_MAX_SCALE, 200 / dpi);
  }
  if (size.width >= MIN_WIDTH) return 1;
  return Math.min(MAX_SCALE, MIN_WIDTH / size.width);
}

/**
 * Erases ruled lines (form boxes, underlines, table borders): runs of dark pixels much longer than any
 * letter stroke, horizontal or vertical. Tesseract otherwise takes ruled regions for pictures and drops
 * the text inside them, or reads underlines as `_` glued to the words. Works in place on RGBA pixels.
 */
export function eraseRules(px: Uint8ClampedArray | Uint8Array, width: number, height: number): void {
  const gray = (i: number) => (px[4 * i]! * 299 + px[4 * i + 1]! * 587 + px[4 * i + 2]! * 114) / 1000;
  const dark = new Uint8Array(width * height);
  for (let i = 0; i < dark.length; i++) dark[i] = gray(i) < 140 ? 1 : 0;
  const min = Math.max(20, Math.round(0.025 * Math.min(width, height)));
  const kill = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    let s = -1;
    for (let x = 0; x <= width; x++) {
      const d = x < width && dark[y * width + x] === 1;
      if (d && s < 0) s = x;
      else if (!d && s >= 0) {
        if (x - s >= min) for (let k = s; k < x; k++) kill[y * width + k] = 1;
        s = -1;
      }
    }
  }
  for (let x = 0; x < width; x++) {
    let s = -1;
    for (let y = 0; y <= height; y++) {
      const d = y < height && dark[y * width + x] === 1;
      if (d && s < 0) s = y;
      else if (!d && s >= 0) {
        if (y - s >= min) for (let k = s; k < y; k++) kill[k * width + x] = 1;
        s = -1;
      }
    }
  }
  // The grey anti-aliased edges along an erased rule would stay behind as two faint rules (which the OCR
  // then takes for a picture and drops the text on them): lighter pixels next to erased ones go too, while
  // the dark cores of letter strokes touching the rule stay.
  const halo = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      if (!kill[y * width + x]) continue;
      for (let dy = -HALO; dy <= HALO; dy++)
        for (let dx = -HALO; dx <= HALO; dx++) {
          const yy = y + dy;
          const xx = x + dx;
          if (yy < 0 || yy >= height || xx < 0 || xx >= width) continue;
          const j = yy * width + xx;
          if (!kill[j] && gray(j) >= HALO_GREY) halo[j] = 1;
        }
    }
  for (let i = 0; i < kill.length; i++) if (kill[i] || halo[i]) px[4 * i] = px[4 * i + 1] = px[4 * i + 2] = 255;
}

/** Width in pixels of the grey edge erased along a ruled line, and the grey level below which a pixel is ink. */
const HALO = 2;
const HALO_GREY = 110;

/**
 * Small images are upscaled (with smoothing) before OCR and the boxes scaled back, which recovers many
 * words the model drops at native size; upscaled page scans also get their ruled lines erased. Uses
 * @napi-rs/canvas (prebuilt, comes with pdfjs-dist); when it cannot load, OCR runs on the original bytes.
 */
async function upscale(bytes: Uint8Array, size: { width: number; height: number } | undefined): Promise<{ image: Uint8Array; factor: number }> {
  const factor = ocrScale(size);
  if (factor <= 1) return { image: bytes, factor: 1 };
  const page = isPage(size);
  try {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const img = await loadImage(Buffer.from(bytes));
    const canvas = createCanvas(Math.round(img.width * factor), Math.round(img.height * factor));
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    if (page) {
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
      eraseRules(data.data, canvas.width, canvas.height);
      ctx.putImageData(data, 0, 0);
    }
    return { image: canvas.toBuffer('image/png'), factor };
  } catch {
    return { image: bytes, factor: 1 };
  }
}

/** OCRs one image as one page (`page` numbers it: a multi-page TIFF calls this once per page). */
export async function readImage(bytes: Uint8Array, ocr: OcrService, page = 1): Promise<DocLayout> {
  const header = imageSize(bytes);
  const { image, factor } = await upscale(bytes, header);
  // A page (Letter/A4 proportions) is read as one block of text: the default mode (one column of variable-size
  // text) drops the light typed fill-ins of form rows that sit apart from their printed labels.
  const res = await ocr.recognize(image, isPage(header) ? { pageSegMode: PAGE_PSM } : undefined);
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
