import { textCanvas } from './image.test-helper.js';

export interface TiffPage {
  width: number;
  height: number;
  /** 8-bit gray, row-major, 0 = black. */
  gray: Uint8Array;
  /** NewSubfileType (tag 254): 1 marks a reduced-resolution copy (thumbnail), 2 a page of a multi-page file. */
  subfileType?: number;
}

/** Renders lines of black text on white into an 8-bit gray page. */
export function textPage(lines: string[], width = 1700, height = 300 + lines.length * 80, font = '40px sans-serif'): TiffPage {
  const c = textCanvas(lines, { width, height, font, x: Math.round(width * 0.06), y: 100 });
  const rgba = c.getContext('2d').getImageData(0, 0, width, height).data;
  const gray = new Uint8Array(width * height);
  for (let i = 0; i < gray.length; i++) gray[i] = rgba[i * 4]!;
  return { width, height, gray };
}

/**
 * A baseline multi-page TIFF written by hand (uncompressed 8-bit gray, one strip per page, little- or
 * big-endian): each page's pixels, then its directory, chained in order.
 */
export function makeTiff(pages: TiffPage[], opts: { bigEndian?: boolean } = {}): Uint8Array {
  const le = !opts.bigEndian;
  const size = 8 + pages.reduce((n, p) => n + p.gray.length + 1 + 2 + 10 * 12 + 4 + 2, 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set(le ? [0x49, 0x49, 0x2a, 0] : [0x4d, 0x4d, 0, 0x2a], 0);
  let pointerAt = 4;
  let at = 8;
  for (const p of pages) {
    const pixels = at;
    out.set(p.gray, at);
    at += p.gray.length;
    at += at & 1; // directories start on a word boundary
    dv.setUint32(pointerAt, at, le);
    const tags: [number, 3 | 4, number][] = [
      [254, 4, p.subfileType ?? (pages.length > 1 ? 2 : 0)],
      [256, 4, p.width],
      [257, 4, p.height],
      [258, 3, 8],
      [259, 3, 1],
      [262, 3, 1],
      [273, 4, pixels],
      [277, 3, 1],
      [278, 4, p.height],
      [279, 4, p.gray.length],
    ];
    dv.setUint16(at, tags.length, le);
    at += 2;
    for (const [tag, type, value] of tags) {
      dv.setUint16(at, tag, le);
      dv.setUint16(at + 2, type, le);
      dv.setUint32(at + 4, 1, le);
      if (type === 3) dv.setUint16(at + 8, value, le);
      else dv.setUint32(at + 8, value, le);
      at += 12;
    }
    pointerAt = at;
    dv.setUint32(at, 0, le);
    at += 4;
  }
  return out.subarray(0, at);
}
