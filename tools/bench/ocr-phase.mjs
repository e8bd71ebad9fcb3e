#!/usr/bin/env node
// One OCR phase of `npm run bench:extraction`, in a process of its own so that its RSS peak is its engine's alone:
//   node tools/bench/ocr-phase.mjs <engine> <threads> <file>…   → one JSON line { pages, secs, cpuSecs, peakRss }
// The engine reads one file first (model load and worker start-up are excluded: a worker reuses them across jobs).
// peakRss is that of the whole process tree: the built engine reads in OCR child processes (OcrProcessPool), whose
// memory belongs to the worker as much as its own.
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { treeCpu, treeRss } from './proc-tree.helper.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const [engineMode, threads, ...files] = process.argv.slice(2);
const { createExtractionEngine } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/index.js')).href);
const schema = {
  fields: [
    { key: 'total', label: 'Total', data_type: 'currency' },
    { key: 'date', label: 'Date', data_type: 'date' },
  ],
};
const mime = (f) => (/\.png$/i.test(f) ? 'image/png' : /\.pdf$/i.test(f) ? 'application/pdf' : 'image/jpeg');
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss())), 25);
const engine = createExtractionEngine({ ocr: engineMode, ocrThreads: Number(threads) });
const extract = (f) => engine.extract({ bytes: new Uint8Array(readFileSync(f)), mimeType: mime(f), filename: basename(f) }, schema);
await extract(files[0]).catch(() => undefined);
const cpu0 = treeCpu();
const t0 = performance.now();
let pages = 0;
for (const f of files) {
  try {
    pages += (await extract(f)).pages;
  } catch (e) {
    pages += 1;
    if (e.code !== 'required_field_missing') process.stderr.write(`  ${basename(f)}: ${e.code}: ${e.message}\n`);
  }
}
const secs = (performance.now() - t0) / 1000;
const cpu1 = treeCpu();
const cpuSecs = cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0;
clearInterval(sampler);
peakRss = Math.max(peakRss, treeRss());
await engine.close();
process.stdout.write(JSON.stringify({ pages, secs, cpuSecs, peakRss }) + '\n');
