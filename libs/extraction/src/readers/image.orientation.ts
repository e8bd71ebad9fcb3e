import type { Image } from '@napi-rs/canvas';
import type { Word } from '../layout/layout.types.js';
import { canvasBytes } from './image.prepare.js';
import type { OcrBackend } from './ocr.service.js';

/** A reading's orientation: print read the wrong way up, the image turned by quarter turns or rotated straight. */

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
export function misoriented(words: Word[]): boolean {
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
export async function hasInk(img: Image): Promise<boolean> {
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
export async function decode(bytes: Uint8Array): Promise<Image | undefined> {
  try {
    const { loadImage } = await import('@napi-rs/canvas');
    return await loadImage(Buffer.from(bytes));
  } catch {
    return undefined;
  }
}

/** Confident text of a reading: characters weighted by their confidence. */
export function textScore(words: Word[]): number {
  let score = 0;
  for (const w of words) if (/[\p{L}\d]/u.test(w.text)) score += w.text.length * w.conf * w.conf;
  return score;
}

/** The image turned clockwise by `quarter` × 90° (PNG), or undefined when it cannot be drawn here. */
export async function turned(img: Image, quarter: 1 | 2 | 3, backend: OcrBackend | undefined): Promise<Uint8Array | undefined> {
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
export async function deskewed(
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
