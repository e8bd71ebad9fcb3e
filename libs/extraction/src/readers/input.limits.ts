import { ExtractionError } from '../engine.types.js';

/**
 * Bounds on tenant input that are checked before anything is decoded or rendered (ADR 0008): a 30 KB PNG can
 * claim 100 000 × 100 000 pixels (40 GB of RGBA once decoded), a PDF page can claim to be 3 km wide. Sizes are
 * read from headers only; nothing here allocates in proportion to the claimed size.
 */

/** Largest image decoded for OCR (pixels). A 600-dpi A4 scan is 35 Mpx; 60 Mpx of RGBA is 240 MB. */
export const MAX_IMAGE_PIXELS = 60e6;
/** Resolution a PDF page without text layer is rendered at for OCR (dpi)… */
export const PDF_RENDER_DPI = 300;
/** …unless the rendering would exceed this many pixels: then the resolution is lowered to fit… */
export const MAX_RENDER_PIXELS = 40e6;
/** …but not below this resolution (dpi), under which OCR reads nothing: such a page is refused. */
export const MIN_RENDER_DPI = 100;
/** PDF user-space units per inch. */
const POINTS_PER_INCH = 72;

export interface PixelSize {
  width: number;
  height: number;
}

/**
 * Pixel size from the header of a PNG, JPEG, WebP or BMP (TIFF pages are checked per page by the TIFF reader),
 * or undefined when the header is not one of these or cannot be read.
 */
export function imageHeaderSize(b: Uint8Array): PixelSize | undefined {
  const dv = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const ascii = (from: number, to: number) => String.fromCharCode(...b.subarray(from, to));
  if (b.length >= 24 && b[0] === 0x89 && ascii(1, 4) === 'PNG' && ascii(12, 16) === 'IHDR')
    return { width: dv.getUint32(16), height: dv.getUint32(20) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b, dv);
  if (b.length >= 30 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return webpSize(b, dv, ascii(12, 16));
  if (b.length >= 26 && ascii(0, 2) === 'BM') return { width: Math.abs(dv.getInt32(18, true)), height: Math.abs(dv.getInt32(22, true)) };
  return undefined;
}

/** Start-of-frame markers (SOF0–SOF15 except DHT C4, JPG C8, DAC CC) carry the frame's size. */
function isSof(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegSize(b: Uint8Array, dv: DataView): PixelSize | undefined {
  for (let i = 2; i + 9 < b.length;) {
    if (b[i] !== 0xff) {
      i += 1; // stray bytes between segments, skipped as decoders do
      continue;
    }
    const marker = b[i + 1]!;
    if (marker === 0xff || (marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      i += marker === 0xff ? 1 : 2;
      continue;
    }
    if (isSof(marker)) return { height: dv.getUint16(i + 5), width: dv.getUint16(i + 7) };
    if (marker === 0xda) return undefined; // scan data before any frame header
    i += 2 + dv.getUint16(i + 2);
  }
  return undefined;
}

function webpSize(b: Uint8Array, dv: DataView, chunk: string): PixelSize | undefined {
  if (chunk === 'VP8X') return { width: 1 + (dv.getUint32(24, true) & 0xffffff), height: 1 + (dv.getUint32(27, true) & 0xffffff) };
  if (chunk === 'VP8L') {
    const bits = dv.getUint32(21, true);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (chunk === 'VP8 ') return { width: dv.getUint16(26, true) & 0x3fff, height: dv.getUint16(28, true) & 0x3fff };
  return undefined;
}

/** Refuses (`image_too_large`) an image whose header claims more than MAX_IMAGE_PIXELS, before it is decoded. */
export function assertImagePixels(bytes: Uint8Array, maxPixels = MAX_IMAGE_PIXELS): void {
  const size = imageHeaderSize(bytes);
  if (size && size.width * size.height > maxPixels) {
    throw new ExtractionError(
      'image_too_large',
      `the image is ${size.width}×${size.height} pixels, more than the ${maxPixels / 1e6} megapixel limit`,
    );
  }
}

/**
 * Scale (device pixels per PDF point) to render a page of `width` × `height` points at: PDF_RENDER_DPI, lowered
 * so the rendering stays within MAX_RENDER_PIXELS (an A0 poster renders at ~160 dpi). A page that would need
 * less than MIN_RENDER_DPI to fit is refused (`page_too_large`) before anything is rendered.
 */
export function pdfRenderScale(width: number, height: number, page: number): number {
  const wanted = PDF_RENDER_DPI / POINTS_PER_INCH;
  const area = Math.max(0, width) * Math.max(0, height);
  if (!(area > 0)) return wanted;
  const fit = Math.sqrt(MAX_RENDER_PIXELS / area);
  if (fit >= wanted) return wanted;
  if (fit < MIN_RENDER_DPI / POINTS_PER_INCH) {
    const inches = (v: number) => Math.round(v / POINTS_PER_INCH);
    throw new ExtractionError(
      'page_too_large',
      `page ${page} is ${inches(width)}×${inches(height)} inches; it cannot be rendered for OCR at ${MIN_RENDER_DPI} dpi within ${MAX_RENDER_PIXELS / 1e6} megapixels`,
    );
  }
  return fit;
}

/**
 * Runs a reader under the extraction deadline: rejects with `extraction_timeout` as soon as `signal` aborts,
 * even while the reader is inside one long step (a page's OCR, a rendering). Readers also check the signal
 * between pages to stop their own work.
 */
export function underDeadline<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  const timeout = () => new ExtractionError('extraction_timeout', 'extraction took longer than its deadline');
  if (signal.aborted) return Promise.reject(timeout());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(timeout());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
