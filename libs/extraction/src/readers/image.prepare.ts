import type { Canvas } from '@napi-rs/canvas';
import { encodeBmp } from './bmp.js';
import type { OcrBackend } from './ocr.service.js';

/** An image made ready for OCR: scaled to a resolution the engines read well, ruled lines erased for tesseract. */

/** Pixels above which an image is scaled down before OCR. */
const MAX_PIXELS = 12e6;
/** Largest upscale of a low-dpi page scan (brought to ~200 dpi). */
const PAGE_MAX_SCALE = 2;
/** Other small images are brought towards this width … */
const MIN_WIDTH = 1300;
/** … upscaled at most this much. */
const MAX_SCALE = 1.5;

/** A page's height is more than this many times its width (Letter is 1.29, A4 1.41)… */
const PAGE_MIN_ASPECT = 1.2;
/** …and less than this many times (a longer image is a receipt). */
const PAGE_MAX_ASPECT = 1.5;
/** Letter/A4 portrait proportions: a scanned or photographed page rather than a receipt or a screenshot. */
export function isPage(size: { width: number; height: number } | undefined): boolean {
  return size !== undefined && size.width > 0 && size.height / size.width > PAGE_MIN_ASPECT && size.height / size.width < PAGE_MAX_ASPECT;
}

/** Width in inches of a Letter/A4 page, to estimate a page scan's resolution. */
const PAGE_WIDTH_INCHES = 8.3;
/** A page scan below this resolution (dpi) is upscaled… */
const LOW_DPI = 150;
/** …towards this resolution (dpi). */
const TARGET_DPI = 200;
/**
 * Upscale factor before OCR. Tesseract is tuned for ~300 dpi text; phone photos and 100-dpi fax scans have
 * 10–15 px letters. A portrait page scan (Letter/A4 proportions) gets its resolution estimated from its
 * width (~8.3 in) and is brought to ~200 dpi (at most 2×); other small images (receipts, screenshots) are
 * brought towards 1300 px wide (at most 1.5×). Images above 12 Mpx are scaled down to it.
 */
export function ocrScale(size: { width: number; height: number } | undefined): number {
  if (!size || size.width <= 0 || size.height <= 0) return 1;
  // Very large scans (a 600-dpi A4 page is 35 Mpx) are brought down to MAX_PIXELS (~350 dpi on A4): letters stay
  // well above what tesseract needs, and OCR time and memory (the straightened or turned copies included) stay bounded.
  if (size.width * size.height > MAX_PIXELS) return Math.sqrt(MAX_PIXELS / (size.width * size.height));
  if (isPage(size)) {
    const dpi = size.width / PAGE_WIDTH_INCHES;
    if (dpi < LOW_DPI) return Math.min(PAGE_MAX_SCALE, TARGET_DPI / dpi);
  }
  if (size.width >= MIN_WIDTH) return 1;
  return Math.min(MAX_SCALE, MIN_WIDTH / size.width);
}

/** A pixel darker than this grey level (0–255) is ink. */
const INK_GREY = 140;
/** A ruled line is a dark run of at least this many pixels… */
const MIN_RULE_PX = 20;
/** …and at least this share of the image's shorter side (far longer than a letter stroke). */
const RULE_SHARE = 0.025;
/**
 * Erases ruled lines (form boxes, underlines, table borders): runs of dark pixels much longer than any
 * letter stroke, horizontal or vertical. Tesseract otherwise takes ruled regions for pictures and drops
 * the text inside them, or reads underlines as `_` glued to the words. Works in place on RGBA pixels.
 */
export function eraseRules(px: Uint8ClampedArray | Uint8Array, width: number, height: number): void {
  const gray = (i: number) => (px[4 * i]! * 299 + px[4 * i + 1]! * 587 + px[4 * i + 2]! * 114) / 1000;
  const dark = new Uint8Array(width * height);
  for (let i = 0; i < dark.length; i++) dark[i] = gray(i) < INK_GREY ? 1 : 0;
  const min = Math.max(MIN_RULE_PX, Math.round(RULE_SHARE * Math.min(width, height)));
  const kill = new Uint8Array(width * height);
  // Dark runs of at least `min` pixels along rows (horizontal rules), then along columns (vertical rules).
  const markRuns = (outer: number, inner: number, at: (o: number, i: number) => number) => {
    for (let o = 0; o < outer; o++) {
      let s = -1;
      for (let i = 0; i <= inner; i++) {
        const d = i < inner && dark[at(o, i)] === 1;
        if (d && s < 0) s = i;
        else if (!d && s >= 0) {
          if (i - s >= min) for (let k = s; k < i; k++) kill[at(o, k)] = 1;
          s = -1;
        }
      }
    }
  };
  markRuns(height, width, (y, x) => y * width + x);
  markRuns(width, height, (x, y) => y * width + x);
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
 * words the model drops at native size; upscaled page scans also get their ruled lines erased (for tesseract). Uses
 * @napi-rs/canvas (prebuilt, comes with pdfjs-dist); when it cannot load, OCR runs on the original bytes.
 */
// A low-resolution page may be read twice (block, then sparse text): decode, upscale and rule erasing run once
// per upload (keyed on its bytes, released with them).
const preparedCache = new WeakMap<Uint8Array, Map<string, Promise<{ image: Uint8Array; factor: number }>>>();
export function prepared(
  bytes: Uint8Array,
  size: { width: number; height: number } | undefined,
  backend: OcrBackend | undefined,
): Promise<{ image: Uint8Array; factor: number }> {
  let byBackend = preparedCache.get(bytes);
  if (!byBackend) preparedCache.set(bytes, (byBackend = new Map()));
  let p = byBackend.get(backend ?? '');
  if (!p) byBackend.set(backend ?? '', (p = upscale(bytes, size, backend)));
  return p;
}

async function upscale(
  bytes: Uint8Array,
  size: { width: number; height: number } | undefined,
  backend: OcrBackend | undefined,
): Promise<{ image: Uint8Array; factor: number }> {
  const factor = ocrScale(size);
  if (factor === 1) return { image: bytes, factor: 1 };
  // Ruled lines are erased for tesseract, which reads a rule under a fill-in as letters; PaddleOCR's detector leaves
  // rules out by itself, and erasing them cut strokes off the letters that touch them (funsd-wide tune 0.571 → 0.589,
  // check 0.509 → 0.516).
  const erase = isPage(size) && backend !== 'paddle';
  try {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const img = await loadImage(Buffer.from(bytes));
    const canvas = createCanvas(Math.round(img.width * factor), Math.round(img.height * factor));
    const ctx = canvas.getContext('2d');
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'high';
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    if (erase && factor > 1) {
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height);
      eraseRules(data.data, canvas.width, canvas.height);
      ctx.putImageData(data, 0, 0);
    }
    return { image: canvasBytes(canvas, backend), factor };
  } catch {
    return { image: bytes, factor: 1 };
  }
}

/**
 * A prepared image as the bytes handed to the OCR: an uncompressed BMP for PaddleOCR (a PNG encoding cost more than
 * the detector's run, see bmp.ts; same pixels, so the same reading), a PNG for tesseract (its paths are unchanged).
 */
export function canvasBytes(canvas: Canvas, backend: OcrBackend | undefined): Uint8Array {
  if (backend !== 'paddle') return canvas.toBuffer('image/png');
  return encodeBmp(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height);
}
