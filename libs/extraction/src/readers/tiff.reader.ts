import UTIF, { type IFD } from 'utif2';
import { ExtractionError } from '../engine.types.js';
import type { DocLayout, Page } from '../layout/layout.types.js';
import { readImage } from './image.reader.js';
import type { OcrService } from './ocr.service.js';

export interface TiffReadOptions {
  maxPages?: number;
  signal?: AbortSignal;
}

/** Largest page decoded (pixels): beyond it the RGBA buffer alone would take hundreds of MB. */
const MAX_PAGE_PIXELS = 60e6;
/** IFDs followed in the page chain at most (a chain is a linked list a corrupt file can make endless). */
const MAX_IFDS = 5000;

export function isTiff(b: Uint8Array): boolean {
  return (
    b.length >= 8 &&
    ((b[0] === 0x49 && b[1] === 0x49 && b[2] === 0x2a && b[3] === 0) || (b[0] === 0x4d && b[1] === 0x4d && b[2] === 0 && b[3] === 0x2a))
  );
}

/**
 * Reads every page of a (multi-page) TIFF: each page is decoded (utif2), re-encoded as PNG and goes through
 * the same per-image OCR path as any other image (upscaling of small scans included), as its own page.
 * Reduced-resolution copies (thumbnails) and masks are not pages. Pages beyond `maxPages` are not decoded.
 */
export async function readTiff(bytes: Uint8Array, ocr: OcrService, opts: TiffReadOptions = {}): Promise<DocLayout> {
  const { data, pageDirs: all } = tiffPages(bytes);
  const pageDirs = all.slice(0, Math.max(1, opts.maxPages ?? Infinity));

  const pages: Page[] = [];
  for (const [i, ifd] of pageDirs.entries()) {
    if (opts.signal?.aborted) throw new ExtractionError('extraction_timeout', 'extraction was aborted');
    const png = await pagePng(data, ifd, i + 1);
    const layout = await readImage(png, ocr, i + 1);
    pages.push(...layout.pages);
  }
  return { pages };
}

type Ifd = IFD;

/** The TIFF's page count (its primary images), from the directories only: no page is decoded. */
export function tiffPageCount(bytes: Uint8Array): number {
  return tiffPages(bytes).pageDirs.length;
}

/** The directories of the TIFF's pages: full-resolution images, not thumbnails or masks (else every image). */
function tiffPages(bytes: Uint8Array): { data: Uint8Array<ArrayBuffer>; pageDirs: Ifd[] } {
  const { data, ifds } = decodeDirectories(bytes);
  const images = ifds.filter((d) => num(d, 't256') > 0 && num(d, 't257') > 0);
  const primary = images.filter((d) => (num(d, 't254') & 0b101) === 0);
  const pageDirs = primary.length ? primary : images;
  if (!pageDirs.length) throw new ExtractionError('corrupt_file', 'the TIFF has no image');
  return { data, pageDirs };
}

function num(ifd: Ifd, tag: string): number {
  const v = ifd[tag];
  const n = Array.isArray(v) ? Number(v[0]) : NaN;
  return Number.isFinite(n) ? n : 0;
}

/** utif2 reports some problems on the console (and stops with a string throw on others): keep both contained. */
function quiet<T>(fn: () => T): T {
  const log = console.log;
  console.log = () => undefined;
  try {
    return fn();
  } finally {
    console.log = log;
  }
}

function corrupt(detail: unknown): ExtractionError {
  const msg = detail instanceof Error ? detail.message : String(detail);
  return new ExtractionError('corrupt_file', `the TIFF cannot be decoded (${msg})`);
}

/**
 * The directory chain, read defensively: utif2 follows next-IFD offsets without a bound, so the chain is walked
 * here first and cut (next offset zeroed, in a copy) at the first offset that loops, points outside the file,
 * or exceeds MAX_IFDS. Then utif2 parses the tags.
 */
function decodeDirectories(bytes: Uint8Array): { data: Uint8Array<ArrayBuffer>; ifds: Ifd[] } {
  if (!isTiff(bytes)) throw new ExtractionError('corrupt_file', 'the file is not a TIFF');
  const data = new Uint8Array(bytes); // own copy: the chain may be patched, and utif2 wants a whole ArrayBuffer
  const dv = new DataView(data.buffer);
  const le = data[0] === 0x49;
  let off = dv.getUint32(4, le);
  const seen = new Set<number>();
  let pointerAt = 4;
  while (off !== 0) {
    const entriesEnd = off + 2 + (off + 2 <= data.length ? dv.getUint16(off, le) : 0) * 12;
    if (seen.has(off) || off + 2 > data.length || entriesEnd + 4 > data.length || seen.size >= MAX_IFDS) {
      if (pointerAt === 4) throw new ExtractionError('corrupt_file', 'the TIFF has no readable image directory');
      dv.setUint32(pointerAt, 0, le);
      break;
    }
    seen.add(off);
    pointerAt = entriesEnd;
    off = dv.getUint32(entriesEnd, le);
  }
  try {
    // The second argument (parse options) exists in utif2 but not in its type definitions; maker notes are not needed.
    const decode = UTIF.decode as (buffer: ArrayBuffer, prm: { parseMN: boolean; debug: boolean }) => Ifd[];
    const ifds = quiet(() => decode(data.buffer, { parseMN: false, debug: false }));
    return { data, ifds: Array.isArray(ifds) ? ifds : [] };
  } catch (e) {
    throw corrupt(e);
  }
}

/** One page as PNG bytes (grayscale when the page has no colour; alpha composited onto white). */
async function pagePng(data: Uint8Array<ArrayBuffer>, ifd: Ifd, page: number): Promise<Uint8Array> {
  const width = num(ifd, 't256');
  const height = num(ifd, 't257');
  if (width * height > MAX_PAGE_PIXELS) {
    throw new ExtractionError(
      'file_too_large',
      `TIFF page ${page} is ${width}×${height} pixels, more than ${MAX_PAGE_PIXELS / 1e6} megapixels`,
    );
  }
  let rgba: Uint8Array;
  try {
    rgba = quiet(() => {
      UTIF.decodeImage(data.buffer, ifd);
      return UTIF.toRGBA8(ifd);
    });
  } catch (e) {
    throw corrupt(`page ${page}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!(rgba instanceof Uint8Array) || rgba.length < width * height * 4) throw corrupt(`page ${page} has no pixel data`);
  return encodePng(rgba, width, height);
}

/** RGBA pixels → PNG bytes (alpha composited onto white) with @napi-rs/canvas, for the OCR readers. */
export async function encodePng(rgba: Uint8Array, width: number, height: number): Promise<Uint8Array> {
  const { createCanvas, ImageData } = await import('@napi-rs/canvas');
  const src = createCanvas(width, height);
  src
    .getContext('2d')
    .putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, width * height * 4), width, height), 0, 0);
  const out = createCanvas(width, height);
  const ctx = out.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(src, 0, 0);
  return new Uint8Array(out.toBuffer('image/png'));
}
