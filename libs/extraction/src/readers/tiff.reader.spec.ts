import { describe, expect, it } from '@jest/globals';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { makeTiff, type TiffPage } from '../testing/tiff.test-helper.js';
import { imageSize } from './image.header.js';
import { readImage } from './image.reader.js';
import type { OcrResult, OcrService } from './ocr.service.js';
import { encodePng, isTiff, readTiff } from './tiff.reader.js';
import { errorCodeOf } from '../testing/error.test-helper.js';

/**
 * A fake OCR: records the images it is given and reports a confident line of three words across the image (an
 * upright reading: with fewer words the reader would also try the image the other ways up).
 */
function fakeOcr() {
  const images: Uint8Array[] = [];
  const ocr: OcrService = {
    async recognize(image: Uint8Array): Promise<OcrResult> {
      images.push(image);
      const size = imageSize(image)!;
      const third = size.width / 3;
      return {
        words: [0, 1, 2].map((k) => ({
          text: `w${images.length}${'abc'[k]}`,
          x0: k * third,
          y0: 0,
          x1: (k + 1) * third,
          y1: size.height,
          conf: 0.9,
        })),
      };
    },
    async close() {},
  };
  return { ocr, images };
}

/** A white page with a black square whose corner is at (x, y). */
function page(width: number, height: number, x: number, y: number, subfileType?: number): TiffPage {
  const gray = new Uint8Array(width * height).fill(255);
  for (let j = y; j < Math.min(height, y + 10); j++) for (let i = x; i < Math.min(width, x + 10); i++) gray[j * width + i] = 0;
  return { width, height, gray, subfileType };
}

async function pixel(png: Uint8Array, x: number, y: number): Promise<number> {
  const img = await loadImage(Buffer.from(png));
  const c = createCanvas(img.width, img.height);
  const ctx = c.getContext('2d');
  ctx.drawImage(img, 0, 0);
  return ctx.getImageData(x, y, 1, 1).data[0]!;
}

describe('readTiff', () => {
  it('reads every page of a multi-page TIFF as its own page, in order', async () => {
    for (const bigEndian of [false, true]) {
      const { ocr, images } = fakeOcr();
      const tiff = makeTiff([page(1400, 300, 100, 100), page(1500, 320, 600, 200), page(1600, 340, 50, 300)], { bigEndian });
      expect(isTiff(tiff)).toBe(true);
      const doc = await readTiff(tiff, ocr);
      expect(doc.pages.map((p) => [p.number, p.width, p.height, p.ocr])).toEqual([
        [1, 1400, 300, true],
        [2, 1500, 320, true],
        [3, 1600, 340, true],
      ]);
      expect(doc.pages.map((p) => p.lines[0]!.page)).toEqual([1, 2, 3]);
      expect(images).toHaveLength(3);
      // Each page's own pixels reach OCR: the square of page 2 is at (600, 200).
      expect(await pixel(images[1]!, 605, 205)).toBe(0);
      expect(await pixel(images[1]!, 105, 105)).toBe(255);
    }
  }, 30_000);

  it('sends each page through the same per-image path as a PNG (small pages upscaled, boxes scaled back)', async () => {
    const small = page(600, 400, 20, 20);
    const viaTiff = fakeOcr();
    const doc = await readTiff(makeTiff([small, small]), viaTiff.ocr);
    const viaPng = fakeOcr();
    const single = await readImage(await encodePng(grayToRgba(small), 600, 400), viaPng.ocr, 2);
    expect(imageSize(viaTiff.images[1]!)).toEqual(imageSize(viaPng.images[0]!));
    expect(doc.pages[1]!.lines.map((l) => [l.x0, l.y0, l.x1, l.y1])).toEqual(single.pages[0]!.lines.map((l) => [l.x0, l.y0, l.x1, l.y1]));
    expect(doc.pages[1]!.width).toBe(600);
  }, 30_000);

  it('skips reduced-resolution copies (thumbnails)', async () => {
    const { ocr, images } = fakeOcr();
    const doc = await readTiff(makeTiff([page(1400, 300, 0, 0, 2), page(140, 30, 0, 0, 1), page(1400, 300, 0, 0, 2)]), ocr);
    expect(doc.pages).toHaveLength(2);
    expect(images).toHaveLength(2);
  });

  it('reads at most maxPages pages', async () => {
    const { ocr, images } = fakeOcr();
    const doc = await readTiff(makeTiff([1, 2, 3, 4, 5].map(() => page(1400, 300, 0, 0))), ocr, { maxPages: 2 });
    expect(doc.pages.map((p) => p.number)).toEqual([1, 2]);
    expect(images).toHaveLength(2);
  });

  it('stops with extraction_timeout when aborted between pages', async () => {
    const ac = new AbortController();
    const images: Uint8Array[] = [];
    const ocr: OcrService = {
      async recognize(image) {
        images.push(image);
        ac.abort();
        return { words: [] };
      },
      async close() {},
    };
    expect(await errorCodeOf(readTiff(makeTiff([page(1400, 300, 0, 0), page(1400, 300, 0, 0)]), ocr, { signal: ac.signal }))).toBe(
      'extraction_timeout',
    );
    expect(images).toHaveLength(1);
  });

  it('fails with corrupt_file on damaged TIFFs, never anything else', async () => {
    const { ocr } = fakeOcr();
    const good = makeTiff([page(200, 100, 0, 0), page(200, 100, 0, 0)]);
    const firstIfd = new DataView(good.buffer, good.byteOffset).getUint32(4, true);

    const truncatedHeader = good.slice(0, 10);
    const ifdOutside = good.slice();
    new DataView(ifdOutside.buffer).setUint32(4, good.length + 100, true);
    const noImage = good.slice();
    new DataView(noImage.buffer).setUint16(firstIfd, 0, true); // a directory with no tags
    new DataView(noImage.buffer).setUint32(firstIfd + 2, 0, true);
    const stripOutside = good.slice();
    // StripOffsets (7th tag) points past the end of the file.
    new DataView(stripOutside.buffer).setUint32(firstIfd + 2 + 6 * 12 + 8, 10_000_000, true);

    for (const bytes of [truncatedHeader, ifdOutside, noImage]) expect(await errorCodeOf(readTiff(bytes, ocr))).toBe('corrupt_file');
    expect(['corrupt_file', 'resolved']).toContain(await errorCodeOf(readTiff(stripOutside, ocr)));

    let seed = 11;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
    for (let n = 0; n < 20; n++) {
      const junk = good.slice();
      for (let k = 0; k < 40; k++) junk[8 + ((rnd() * 131 + rnd()) % (junk.length - 8))] = rnd();
      const code = await errorCodeOf(readTiff(junk, ocr));
      expect(['corrupt_file', 'file_too_large', 'resolved']).toContain(code);
    }
  }, 30_000);

  it('cuts a directory chain that loops back on itself', async () => {
    const { ocr, images } = fakeOcr();
    const tiff = makeTiff([page(200, 100, 0, 0), page(200, 100, 0, 0)]);
    const dv = new DataView(tiff.buffer, tiff.byteOffset);
    const first = dv.getUint32(4, true);
    dv.setUint32(tiff.length - 4, first, true); // the last page's "next" points at the first directory again
    const doc = await readTiff(tiff, ocr);
    expect(doc.pages).toHaveLength(2);
    expect(images).toHaveLength(2);
  });

  it('refuses pages too large to decode with file_too_large', async () => {
    const { ocr } = fakeOcr();
    const tiff = makeTiff([page(200, 100, 0, 0)]);
    const dv = new DataView(tiff.buffer, tiff.byteOffset);
    const first = dv.getUint32(4, true);
    dv.setUint32(first + 2 + 1 * 12 + 8, 100_000, true); // width
    dv.setUint32(first + 2 + 2 * 12 + 8, 100_000, true); // height
    expect(await errorCodeOf(readTiff(tiff, ocr))).toBe('file_too_large');
  });
});

describe('encodePng', () => {
  it('writes a PNG that decodes to the same pixels (gray and colour, alpha on white)', async () => {
    const rgba = new Uint8Array(3 * 2 * 4);
    rgba.set([0, 0, 0, 255, 255, 0, 0, 255, 10, 20, 30, 0], 0);
    const png = await encodePng(rgba, 3, 2);
    expect(imageSize(png)).toEqual({ width: 3, height: 2 });
    const img = await loadImage(Buffer.from(png));
    const c = createCanvas(3, 2);
    const ctx = c.getContext('2d');
    ctx.drawImage(img, 0, 0);
    const px = ctx.getImageData(0, 0, 3, 1).data;
    expect([...px]).toEqual([0, 0, 0, 255, 255, 0, 0, 255, 255, 255, 255, 255]);
    expect(await pixel(await encodePng(grayToRgba(page(20, 20, 5, 5)), 20, 20), 6, 6)).toBe(0);
  });
});

function grayToRgba(p: TiffPage): Uint8Array {
  const out = new Uint8Array(p.width * p.height * 4);
  for (let i = 0; i < p.gray.length; i++) out.set([p.gray[i]!, p.gray[i]!, p.gray[i]!, 255], i * 4);
  return out;
}
