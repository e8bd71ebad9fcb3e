import type { Image } from '@napi-rs/canvas';
import { pixels, toChw } from './paddle.pixels.js';
import type { Sessions } from './paddle.sessions.js';

/** PaddleOCR text detection (DB): the probability map of the detector → text segments in image pixels. */

/** The detector's input: the longer side is brought to at most this many pixels… */
const DET_MAX_SIDE = 1920;
/** …and the shorter side to at least this many (small images are enlarged), unless that breaks the cap above. */
const DET_MIN_SIDE = 736;
/** Detector input sides are multiples of this (the network's stride). */
const DET_STRIDE = 32;
/** ImageNet normalisation of the detector (per channel, BGR order as PaddleOCR feeds OpenCV images). */
const DET_MEAN = [0.406, 0.456, 0.485];
const DET_STD = [0.225, 0.224, 0.229];
/** A pixel of the probability map above this is text. */
const DET_PIXEL_THRESHOLD = 0.3;
/** A region is kept when its mean text probability is above this. */
const DET_BOX_THRESHOLD = 0.5;
/** The shrunk text kernel is grown back by area × ratio / perimeter (the DB paper's unclip). */
const DET_UNCLIP_RATIO = 1.6;
/** Regions smaller than this (detector pixels, either side) are noise. */
const DET_MIN_SIDE_PX = 3;

/** A detected text segment in source-image pixels. */
export interface Segment {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** The detector's input size for an image: multiples of the stride, within DET_MIN_SIDE..DET_MAX_SIDE. */
export function detInputSize(width: number, height: number): { w: number; h: number } {
  let ratio = Math.min(1, DET_MAX_SIDE / Math.max(width, height));
  if (Math.min(width, height) * ratio < DET_MIN_SIDE)
    ratio = Math.min(DET_MAX_SIDE / Math.max(width, height), DET_MIN_SIDE / Math.min(width, height));
  const round = (v: number) => Math.max(DET_STRIDE, Math.round(v / DET_STRIDE) * DET_STRIDE);
  return { w: round(width * ratio), h: round(height * ratio) };
}

/** Text regions of the image, or of one area of it (`area`, in image pixels; regions are in image pixels either way). */
async function detect(s: Sessions, img: Image, area: Segment = { x0: 0, y0: 0, x1: img.width, y1: img.height }): Promise<Segment[]> {
  const [aw, ah] = [area.x1 - area.x0, area.y1 - area.y0];
  const { w, h } = detInputSize(aw, ah);
  const px = await pixels(img, area.x0, area.y0, aw, ah, w, h);
  const prob = await probabilityMap(s, toChw(px, w, h, DET_MEAN, DET_STD), w, h);
  return regionsToImage(textRegions(prob, w, h), area, w, h);
}

/** The detector runs on horizontal strips of this many input rows (plus the overlap): its activations grow with the input. */
const DET_STRIP_ROWS = 512;
/**
 * Strips overlap by this many rows, half on each side; each strip's map is kept only in its middle. (128 rows changed
 * the readings, tune funsd-wide 0.655 → 0.651 and sroie-wide 0.847 → 0.836; 384 gave 0.657 and 0.858.)
 */
const DET_STRIP_OVERLAP = 384;

/**
 * The detector's text probability map of a CHW input, computed strip by strip on tall inputs: a 300-dpi A4 page
 * detected whole held ~1.0 GB in the OCR process; in strips, ~0.74 GB (docs/performance.md). The network is
 * convolutional, so a strip's map in its middle, away from the cut edges by half the overlap, is close to the whole
 * map's (not identical: its receptive field reaches further).
 */
export async function probabilityMap(s: Sessions, chw: Float32Array, w: number, h: number): Promise<Float32Array> {
  const run = async (input: Float32Array, rows: number) => {
    const out = await s.det.run({ [s.det.inputNames[0]!]: new s.ort.Tensor('float32', input, [1, 3, rows, w]) });
    return out[s.det.outputNames[0]!]!.data as Float32Array;
  };
  if (h <= DET_STRIP_ROWS + DET_STRIP_OVERLAP) return run(chw, h);
  const prob = new Float32Array(w * h);
  const half = DET_STRIP_OVERLAP / 2;
  for (let top = 0; top < h; top += DET_STRIP_ROWS) {
    const bottom = Math.min(h, top + DET_STRIP_ROWS);
    const [y0, y1] = [Math.max(0, top - half), Math.min(h, bottom + half)];
    const rows = y1 - y0;
    const strip = new Float32Array(3 * rows * w);
    for (let c = 0; c < 3; c++) strip.set(chw.subarray(c * h * w + y0 * w, c * h * w + y1 * w), c * rows * w);
    const map = await run(strip, rows);
    prob.set(map.subarray((top - y0) * w, (bottom - y0) * w), top * w);
  }
  return prob;
}

/**
 * Regions found on the detector's `w` × `h` input (the image's `area` scaled to the detector's size, most often
 * down) → image pixels: scaled back by the area's size over the input's, clipped to the area, moved to its origin.
 */
export function regionsToImage(regions: readonly Segment[], area: Segment, w: number, h: number): Segment[] {
  const [aw, ah] = [area.x1 - area.x0, area.y1 - area.y0];
  return regions.map((r) => ({
    x0: area.x0 + Math.max(0, (r.x0 * aw) / w),
    y0: area.y0 + Math.max(0, (r.y0 * ah) / h),
    x1: area.x0 + Math.min(aw, (r.x1 * aw) / w),
    y1: area.y0 + Math.min(ah, (r.y1 * ah) / h),
  }));
}

/** Text covering at most this share of the image's area (a receipt scanned on an A4 page, photographed on a table)… */
const FOCUS_MAX_SHARE = 0.5;
/** …is detected again on its own area when the detector then sees it at least this many times larger. */
const FOCUS_MIN_GAIN = 1.25;
/** The area detected again reaches this many text-line heights (the median region's) beyond the text found. */
const FOCUS_MARGIN_LINES = 2;

/**
 * The area holding the image's text when it is small beside the whole image, else undefined. The detector sees the
 * image brought to DET_MAX_SIDE at most: a small document on a large background reaches it with letters a few pixels
 * high, and misses or splits them; detected again on its own area, brought to the detector's size, it reads like a
 * close-up. Found from the regions of the first detection (faint print included, which an ink threshold would miss).
 */
export function focusArea(regions: readonly Segment[], width: number, height: number): Segment | undefined {
  if (!regions.length) return undefined;
  const heights = regions.map((r) => r.y1 - r.y0).sort((a, b) => a - b);
  const margin = FOCUS_MARGIN_LINES * heights[heights.length >> 1]!;
  const area = {
    x0: Math.max(0, Math.min(...regions.map((r) => r.x0)) - margin),
    y0: Math.max(0, Math.min(...regions.map((r) => r.y0)) - margin),
    x1: Math.min(width, Math.max(...regions.map((r) => r.x1)) + margin),
    y1: Math.min(height, Math.max(...regions.map((r) => r.y1)) + margin),
  };
  const [aw, ah] = [area.x1 - area.x0, area.y1 - area.y0];
  if (aw < 1 || ah < 1 || (aw * ah) / (width * height) > FOCUS_MAX_SHARE) return undefined;
  const gain = detInputSize(aw, ah).w / aw / (detInputSize(width, height).w / width);
  return gain >= FOCUS_MIN_GAIN ? area : undefined;
}

/** Text regions of the image, detected a second time on the text's own area when that is small (see focusArea). */
export async function detectFocused(s: Sessions, img: Image): Promise<Segment[]> {
  const regions = await detect(s, img);
  const area = focusArea(regions, img.width, img.height);
  return area ? detect(s, img, area) : regions;
}

/**
 * DB post-processing: connected regions of the thresholded probability map (8-neighbourhood), kept when their mean
 * probability is high enough, as axis-aligned boxes grown back by the unclip distance. Sorted top to bottom, then
 * left to right.
 */
export function textRegions(prob: Float32Array, w: number, h: number): Segment[] {
  const label = new Int32Array(w * h).fill(-1);
  const stack: number[] = [];
  const regions: Segment[] = [];
  for (let start = 0; start < w * h; start++) {
    if (label[start] !== -1 || prob[start]! <= DET_PIXEL_THRESHOLD) continue;
    let [x0, y0, x1, y1, sum, n] = [w, h, 0, 0, 0, 0];
    label[start] = regions.length;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      const x = i % w;
      const y = (i - x) / w;
      ((x0 = Math.min(x0, x)), (x1 = Math.max(x1, x)), (y0 = Math.min(y0, y)), (y1 = Math.max(y1, y)));
      sum += prob[i]!;
      n++;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          const yy = y + dy;
          if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
          const j = yy * w + xx;
          if (label[j] === -1 && prob[j]! > DET_PIXEL_THRESHOLD) {
            label[j] = regions.length;
            stack.push(j);
          }
        }
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    // Every region gets a slot (labels index it); weak or tiny ones are filtered out below.
    const keep = sum / n > DET_BOX_THRESHOLD && Math.min(bw, bh) >= DET_MIN_SIDE_PX;
    const d = keep ? (bw * bh * DET_UNCLIP_RATIO) / (2 * (bw + bh)) : 0;
    regions.push(keep ? { x0: x0 - d, y0: y0 - d, x1: x1 + 1 + d, y1: y1 + 1 + d } : { x0: 0, y0: 0, x1: -1, y1: -1 });
  }
  return regions.filter((r) => r.x1 > r.x0).sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
}
