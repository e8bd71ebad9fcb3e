import { ExtractionError } from '../engine.types.js';
import { buildPage, skewOf } from '../layout/layout.builder.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import type { Canvas, Image } from '@napi-rs/canvas';
import { encodeBmp } from './bmp.js';
import type { OcrBackend, OcrService } from './ocr.service.js';

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

/** Pixels above which an image is scaled down before OCR. */
const MAX_PIXELS = 12e6;
/** Largest upscale of a low-dpi page scan (brought to ~200 dpi). */
const PAGE_MAX_SCALE = 2;
/** Other small images are brought towards this width … */
const MIN_WIDTH = 1300;
/** … upscaled at most this much. */
const MAX_SCALE = 1.5;

/** Tesseract page segmentation mode for page images: a single uniform block of text. */
const PAGE_PSM = 6;
/** … and the alternative reading of a low-resolution page scan: sparse text, each word found on its own. */
const SPARSE_PSM = 11;

/** A page's height is more than this many times its width (Letter is 1.29, A4 1.41)… */
const PAGE_MIN_ASPECT = 1.2;
/** …and less than this many times (a longer image is a receipt). */
const PAGE_MAX_ASPECT = 1.5;
/** Letter/A4 portrait proportions: a scanned or photographed page rather than a receipt or a screenshot. */
function isPage(size: { width: number; height: number } | undefined): boolean {
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
function prepared(
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
function canvasBytes(canvas: Canvas, backend: OcrBackend | undefined): Uint8Array {
  if (backend !== 'paddle') return canvas.toBuffer('image/png');
  return encodeBmp(canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data, canvas.width, canvas.height);
}

/** Mean OCR confidence of a reading, over the characters of its letter/digit words. */
function meanConf(words: Word[]): number {
  let n = 0;
  let sum = 0;
  for (const w of words) if (/[\p{L}\d]/u.test(w.text)) ((n += w.text.length), (sum += w.conf * w.text.length));
  return n ? sum / n : 0;
}

/** A reading whose mean confidence is below this is print the wrong way up… */
const UPRIGHT_CONF = 0.5;
/** …and so is one with fewer words than this (of two letters or digits)… */
const MIN_UPRIGHT_WORDS = 3;
/** …or with fewer words than this… */
const FEW_WORDS = 15;
/** …read at a mean confidence below this. */
const FEW_WORDS_CONF = 0.75;
/**
 * Does a reading look like print read the wrong way up? Upright pages read at a mean confidence of 0.65–0.9
 * (SROIE, FUNSD), upside-down ones at 0.2–0.35, sideways ones as a handful of words (a few of them confident
 * scraps). A short upright text (a label, a screenshot line) reads few words but confidently.
 */
function misoriented(words: Word[]): boolean {
  const real = words.filter((w) => /[\p{L}\d]{2}/u.test(w.text));
  const conf = meanConf(real);
  return conf < UPRIGHT_CONF || real.length < MIN_UPRIGHT_WORDS || (real.length < FEW_WORDS && conf < FEW_WORDS_CONF);
}

/** The ink check is made on a copy at most this many pixels on its longer side. */
const INK_SAMPLE_PX = 400;
/** A pixel is ink when its luminance (weights summing to 1000) is below this (grey level 128). */
const INK_LEVEL = 128_000;
/** Print has more than this share of ink pixels (less is a blank page)… */
const MIN_INK_SHARE = 0.002;
/** …and less than this share (more is a black frame or a photo). */
const MAX_INK_SHARE = 0.4;
/**
 * Does the image look like print at all: some dark pixels, but not mostly dark (a blank page, a black frame or a
 * photo is not turned round)? Measured on a small copy.
 */
async function hasInk(img: Image): Promise<boolean> {
  try {
    const { createCanvas } = await import('@napi-rs/canvas');
    const k = Math.min(1, INK_SAMPLE_PX / Math.max(img.width, img.height));
    const canvas = createCanvas(Math.max(1, Math.round(img.width * k)), Math.max(1, Math.round(img.height * k)));
    const ctx = canvas.getContext('2d');
    // On white: transparent pixels are paper, not ink.
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, canvas.width, canvas.height);
    ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
    const px = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
    let dark = 0;
    for (let i = 0; i < px.length; i += 4) if (px[i]! * 299 + px[i + 1]! * 587 + px[i + 2]! * 114 < INK_LEVEL) dark++;
    const share = dark / (px.length / 4);
    return share > MIN_INK_SHARE && share < MAX_INK_SHARE;
  } catch {
    return false;
  }
}

/** The image decoded for drawing, or undefined when it cannot be decoded here. */
async function decode(bytes: Uint8Array): Promise<Image | undefined> {
  try {
    const { loadImage } = await import('@napi-rs/canvas');
    return await loadImage(Buffer.from(bytes));
  } catch {
    return undefined;
  }
}

/** Confident text of a reading: characters weighted by their confidence. */
function textScore(words: Word[]): number {
  let score = 0;
  for (const w of words) if (/[\p{L}\d]/u.test(w.text)) score += w.text.length * w.conf * w.conf;
  return score;
}

/** The image turned clockwise by `quarter` × 90° (PNG), or undefined when it cannot be drawn here. */
async function turned(img: Image, quarter: 1 | 2 | 3, backend: OcrBackend | undefined): Promise<Uint8Array | undefined> {
  try {
    const { createCanvas } = await import('@napi-rs/canvas');
    const [W, H] = [img.width, img.height];
    const canvas = quarter === 2 ? createCanvas(W, H) : createCanvas(H, W);
    const ctx = canvas.getContext('2d');
    if (quarter === 1) ctx.translate(H, 0);
    else if (quarter === 2) ctx.translate(W, H);
    else ctx.translate(0, W);
    ctx.rotate((quarter * Math.PI) / 2);
    ctx.drawImage(img, 0, 0);
    return canvasBytes(canvas, backend);
  } catch {
    return undefined;
  }
}

/**
 * The image rotated by the slant measured on its first reading (`slope` = dy/dx of its text lines), on a white
 * canvas of the same size, with a function mapping a word box of the straightened image back onto the original
 * (the box of the rotated corners). Undefined when the image cannot be decoded here.
 */
async function deskewed(
  bytes: Uint8Array,
  slope: number,
  backend: OcrBackend | undefined,
): Promise<{ image: Uint8Array; unrotate: (w: Word) => void } | undefined> {
  try {
    const { createCanvas, loadImage } = await import('@napi-rs/canvas');
    const img = await loadImage(Buffer.from(bytes));
    const angle = Math.atan(slope);
    const canvas = createCanvas(img.width, img.height);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, img.width, img.height);
    const [cx, cy] = [img.width / 2, img.height / 2];
    ctx.translate(cx, cy);
    ctx.rotate(-angle);
    ctx.drawImage(img, -cx, -cy);
    const [cos, sin] = [Math.cos(angle), Math.sin(angle)];
    const back = (x: number, y: number) => [cx + (x - cx) * cos - (y - cy) * sin, cy + (x - cx) * sin + (y - cy) * cos] as const;
    const unrotate = (w: Word) => {
      const pts = [back(w.x0, w.y0), back(w.x1, w.y0), back(w.x0, w.y1), back(w.x1, w.y1)];
      [w.x0, w.x1] = [Math.min(...pts.map((p) => p[0])), Math.max(...pts.map((p) => p[0]))];
      [w.y0, w.y1] = [Math.min(...pts.map((p) => p[1])), Math.max(...pts.map((p) => p[1]))];
    };
    return { image: canvasBytes(canvas, backend), unrotate };
  } catch {
    return undefined;
  }
}

/**
 * A page scan below 150 dpi (a fax or a 100-dpi archive scan), which has a second reading: see readImage's
 * `sparse` option.
 */
export function isLowResPage(bytes: Uint8Array): boolean {
  const size = imageSize(bytes);
  return isPage(size) && ocrScale(size) > 1;
}

export interface ReadImageOptions {
  /**
   * Read a page as sparse text (every word found on its own) instead of one block. On low-resolution forms
   * the block reading garbles the small printed labels set beside larger typed fill-ins (it fits one
   * baseline and letter size per row), while the sparse reading loses more of the running text; the
   * caller picks the reading whose labels it finds (see the extraction engine).
   */
  sparse?: boolean;
}

/** OCRs one image as one page (`page` numbers it: a multi-page TIFF calls this once per page). */
export async function readImage(bytes: Uint8Array, ocr: OcrService, page = 1, opts: ReadImageOptions = {}): Promise<DocLayout> {
  if (!imageComplete(bytes)) throw new ExtractionError('corrupt_file', 'the image is truncated or damaged');
  const header = imageSize(bytes);
  const backend = ocr.backend?.();
  const { image, factor } = await prepared(bytes, header, backend);
  // A page (Letter/A4 proportions) is read as one block of text: the default mode (one column of variable-size
  // text) drops the light typed fill-ins of form rows that sit apart from their printed labels.
  const psm = isPage(header) ? { pageSegMode: opts.sparse ? SPARSE_PSM : PAGE_PSM } : undefined;
  let res = await ocr.recognize(image, psm);
  // A page scanned upside down or a photo taken sideways reads as a few words or garbage: the quarter turns are
  // tried and the reading with the most confident text kept; the page is then the image turned upright (its
  // boxes, and the provenance built on them, refer to the upright page).
  let upright = image;
  let quarter = 0;
  // (Decoded once here for the ink check and the three turns.)
  const decoded = misoriented(res.words) ? await decode(image) : undefined;
  if (decoded && (await hasInk(decoded))) {
    let best = { res, image, quarter: 0, score: textScore(res.words) };
    for (const q of [2, 1, 3] as const) {
      const turn = await turned(decoded, q, backend);
      if (!turn) break;
      const again = await ocr.recognize(turn, psm);
      const score = textScore(again.words);
      if (score > best.score) best = { res: again, image: turn, quarter: q, score };
      if (!misoriented(again.words)) break;
    }
    ({ res, image: upright, quarter } = best);
  }
  // A slanted scan or photo (beyond ~0.9°, measured on the words of this reading) is straightened and read again,
  // and the straight reading is kept: on a slant the OCR misreads more letters (SROIE receipts rotated 1.5°:
  // micro-F1 0.75 → 0.80; FUNSD forms 0.552 → 0.566). Costs a second OCR pass on slanted images only.
  const slope = skewOf(res.words);
  if (slope) {
    const straight = await deskewed(upright, slope, backend);
    if (straight) {
      const again = await ocr.recognize(straight.image, psm);
      for (const w of again.words) straight.unrotate(w);
      res = { ...again, width: res.width, height: res.height };
    }
  }
  if (factor !== 1) {
    for (const w of res.words) ((w.x0 /= factor), (w.x1 /= factor), (w.y0 /= factor), (w.y1 /= factor));
    if (res.width) res.width /= factor;
    if (res.height) res.height /= factor;
  }
  let size = header ?? (res.width && res.height ? { width: res.width, height: res.height } : undefined);
  if (size && quarter % 2 === 1) size = { width: size.height, height: size.width };
  const width = size?.width ?? Math.max(1, ...res.words.map((w) => w.x1));
  const height = size?.height ?? Math.max(1, ...res.words.map((w) => w.y1));
  return { pages: [buildPage(page, width, height, res.words, true)] };
}
