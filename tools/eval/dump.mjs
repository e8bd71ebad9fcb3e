#!/usr/bin/env node
// Debug aid: prints the layout (lines and their wide-gap segments) the engine sees for one document.
//   node tools/eval/dump.mjs <file> [mime]
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from './build.helper.mjs';
import { cachedOcr } from './ocr-cache.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
ensureBuilt(repo);
const dist = (p) => import(pathToFileURL(join(repo, 'libs/extraction/dist', p)).href);
const { readPdf } = await dist('readers/pdf.reader.js');
const { readImage } = await dist('readers/image.reader.js');
const { readText } = await dist('readers/text.reader.js');
const { isTiff, readTiff } = await dist('readers/tiff.reader.js');
const { createOcrService } = await dist('readers/ocr.service.js');
const { segments } = await dist('layout/layout.builder.js');
const file = process.argv[2];
const bytes = new Uint8Array(readFileSync(file));
const { resolveOcrLanguages } = await dist('extraction.engine.js');
const ocr = process.argv.includes('--no-ocr-cache') ? createOcrService({ languages: resolveOcrLanguages() }) : await cachedOcr(repo); // OCR_LANGUAGES, as the engine reads it
const doc = file.endsWith('.pdf')
  ? await readPdf(bytes, { ocr })
  : isTiff(bytes)
    ? await readTiff(bytes, ocr)
    : /\.(png|jpe?g|webp)$/i.test(file)
      ? await readImage(bytes, ocr)
      : readText(bytes);
for (const p of doc.pages) {
  console.log(`--- page ${p.number} ${p.width.toFixed(0)}x${p.height.toFixed(0)}`);
  for (const l of p.lines)
    console.log(
      `${l.y0.toFixed(0).padStart(5)} ${l.x0.toFixed(0).padStart(4)} | ${segments(l, 2.5)
        .map((s) => s.text)
        .join(' ‖ ')}`,
    );
}
await ocr.close();
