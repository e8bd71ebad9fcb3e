// A 300-dpi A4 page (2480 × 3508 px) of dense print, written as a PNG to a fresh temporary folder: the largest page an
// OCR reading usually meets, the memory bound of one engine process tree (issue 24). Invented text only.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A4 at 300 dpi, in pixels. */
export const A4_300DPI = { width: 2480, height: 3508 };

/** Renders the page and returns the path of its PNG. */
export async function writeA4Page() {
  const { createCanvas } = await import('@napi-rs/canvas');
  const a4 = createCanvas(A4_300DPI.width, A4_300DPI.height);
  const ctx = a4.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, a4.width, a4.height);
  ctx.fillStyle = '#000';
  ctx.font = '42px sans-serif';
  for (let y = 200, i = 0; y < 3350; y += 64, i++)
    ctx.fillText(`Line ${i} item ${1000 + i * 7} quantity ${i % 9} price ${(i * 3.17).toFixed(2)} total ${(i * 11.3).toFixed(2)}`, 160, y);
  const file = join(mkdtempSync(join(tmpdir(), 'docket-bench-')), 'a4-300dpi.png');
  writeFileSync(file, a4.toBuffer('image/png'));
  return file;
}
