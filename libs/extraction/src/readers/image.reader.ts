import { ExtractionError } from '../engine.types.js';
import { buildPage, skewOf } from '../layout/layout.builder.js';
import type { DocLayout } from '../layout/layout.types.js';
import { imageComplete, imageSize } from './image.header.js';
import { decode, deskewed, hasInk, misoriented, textScore, turned } from './image.orientation.js';
import { isPage, ocrScale, prepared } from './image.prepare.js';
import type { OcrService } from './ocr.service.js';

/** Tesseract page segmentation mode for page images: a single uniform block of text. */
const PAGE_PSM = 6;
/** … and the alternative reading of a low-resolution page scan: sparse text, each word found on its own. */
const SPARSE_PSM = 11;

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
