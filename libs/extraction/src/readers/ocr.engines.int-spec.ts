import { afterAll, describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { readImage } from './image.reader.js';
import { createOcrService, type OcrEngineMode } from './ocr.service.js';
import type { Word } from '../layout/layout.types.js';

// Each OCR engine on a generated page with known words: the words come back, their boxes lie where they were drawn
// (within a tolerance), and a page turned 90° or 180° is read upright. Invented text only.
const LINES = ['Parcel Office 2217', 'Amount Due 48.60', 'Reference QX-5531'];
const FONT_PX = 44;
const LEFT = 90;
const FIRST_BASELINE = 130;
const LINE_GAP = 110;
/** Box edges may differ from the drawn text's measured extents by this many pixels. */
const BOX_TOLERANCE = 14;

interface Drawn {
  text: string;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

function page(): { png: Buffer; drawn: Drawn[]; width: number; height: number } {
  const [width, height] = [900, 460];
  const c = createCanvas(width, height);
  const ctx = c.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000';
  ctx.font = `${FONT_PX}px sans-serif`;
  const drawn: Drawn[] = [];
  LINES.forEach((line, i) => {
    const y = FIRST_BASELINE + i * LINE_GAP;
    let x = LEFT;
    for (const word of line.split(' ')) {
      const m = ctx.measureText(word);
      ctx.fillText(word, x, y);
      drawn.push({ text: word, x0: x, x1: x + m.width, y0: y - m.actualBoundingBoxAscent, y1: y + m.actualBoundingBoxDescent });
      x += m.width + ctx.measureText(' ').width;
    }
  });
  return { png: c.toBuffer('image/png'), drawn, width, height };
}

async function turn(png: Buffer, quarter: 1 | 2): Promise<Buffer> {
  const img = await loadImage(png);
  const c = quarter === 2 ? createCanvas(img.width, img.height) : createCanvas(img.height, img.width);
  const ctx = c.getContext('2d');
  if (quarter === 1) ctx.translate(img.height, 0);
  else ctx.translate(img.width, img.height);
  ctx.rotate((quarter * Math.PI) / 2);
  ctx.drawImage(img, 0, 0);
  return c.toBuffer('image/png');
}

const wordsOf = (layout: Awaited<ReturnType<typeof readImage>>): Word[] => layout.pages.flatMap((p) => p.lines.flatMap((l) => l.words));

const ENGINES: OcrEngineMode[] = ['paddle', 'tesseract.js'];
const services = ENGINES.map((engine) => [engine, createOcrService({ engine })] as const);
afterAll(() => Promise.all(services.map(([, s]) => s.close())));

describe.each(services)('OCR engine %s', (engine, ocr) => {
  it('reads the known words with boxes where they were drawn', async () => {
    const { png, drawn } = page();
    const words = wordsOf(await readImage(new Uint8Array(png), ocr));
    for (const d of drawn) {
      const w = words.find((x) => x.text.replace(/[^\w.-]/g, '') === d.text);
      expect({ engine, word: d.text, found: !!w }).toEqual({ engine, word: d.text, found: true });
      // Horizontal edges from the characters' positions; vertical ones from the line (a segment box includes the
      // line's ascenders and descenders, so only the centre is compared).
      expect(Math.abs(w!.x0 - d.x0)).toBeLessThanOrEqual(BOX_TOLERANCE);
      expect(Math.abs(w!.x1 - d.x1)).toBeLessThanOrEqual(BOX_TOLERANCE);
      expect(Math.abs((w!.y0 + w!.y1) / 2 - (d.y0 + d.y1) / 2)).toBeLessThanOrEqual(BOX_TOLERANCE);
    }
  }, 60_000);

  it.each([1, 2] as const)(
    'reads a page turned by %i quarter(s) upright',
    async (quarter) => {
      const { png } = page();
      const layout = await readImage(new Uint8Array(await turn(png, quarter)), ocr);
      const text = layout.pages[0]!.lines.map((l) => l.text).join('\n');
      for (const line of LINES) expect(text).toContain(line);
      // The page is the upright image: width and height swap back after a quarter turn.
      expect(layout.pages[0]!.width).toBeGreaterThan(layout.pages[0]!.height);
    },
    120_000,
  );
});

describe('no network at run time', () => {
  // A child process (and every OCR reader process it forks: they inherit --import) in which any socket connection, DNS
  // lookup or fetch throws, runs both engines on the built library (npm test builds before it tests).
  const BLOCKER = [
    "import net from 'node:net'; import dns from 'node:dns';",
    "const no = () => { throw new Error('network access attempted'); };",
    'net.Socket.prototype.connect = no; dns.lookup = no; dns.promises.lookup = no; globalThis.fetch = no;',
  ].join('\n');
  const SCRIPT = `
    const { createOcrService } = await import(${JSON.stringify(new URL('../../dist/readers/ocr.service.js', import.meta.url).href)});
    const { readImage } = await import(${JSON.stringify(new URL('../../dist/readers/image.reader.js', import.meta.url).href)});
    const png = new Uint8Array(Buffer.from(process.env.PAGE_PNG, 'base64'));
    const out = {};
    for (const engine of ['paddle', 'tesseract.js']) {
      const ocr = createOcrService({ engine });
      const layout = await readImage(png, ocr);
      out[engine] = layout.pages[0].lines.map((l) => l.text);
      await ocr.close();
    }
    process.stdout.write(JSON.stringify(out));`;

  it('runs both engines in a process where every network call fails', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docket-nonet-'));
    try {
      writeFileSync(join(dir, 'block.mjs'), BLOCKER);
      writeFileSync(join(dir, 'read.mjs'), SCRIPT);
      const r = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'block.mjs')).href, join(dir, 'read.mjs')], {
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          PAGE_PNG: page().png.toString('base64'),
          HTTP_PROXY: 'http://127.0.0.1:9',
          HTTPS_PROXY: 'http://127.0.0.1:9',
        },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(r.stderr).not.toContain('network access attempted');
      expect({ status: r.status, stderr: r.status === 0 ? '' : r.stderr.slice(-2000) }).toEqual({ status: 0, stderr: '' });
      const out = JSON.parse(r.stdout) as Record<string, string[]>;
      for (const engine of ['paddle', 'tesseract.js']) expect(out[engine]!.join('\n')).toContain('Amount Due 48.60');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 150_000);
});
