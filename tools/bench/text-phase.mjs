#!/usr/bin/env node
// One text-layer phase of `npm run bench:extraction`, in a process of its own so that its RSS peak is its reader's alone:
//   node tools/bench/text-phase.mjs <mode> <n> <warm-up file>×n <file>…   → one JSON line { pages, secs, cpuSecs, peakRss }
// <mode>: `engine` (the whole extraction: pdfjs reading + field location, the invoice schema on every file),
// `engine-own` (the same, each file with its own dataset's schema, as `npm run eval` extracts it) or a reader of
// text.readers.mjs (the page layout only). The warm-up files are read before the timed pass: module load, JIT and
// WebAssembly compilation are excluded, as a long-running worker has them behind it after its first jobs. They are other
// documents than the timed ones: the engine memoises per text (dates, numbers, label words) across documents.
import { createCanvas } from '@napi-rs/canvas';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { schemaFor } from '../eval/datasets.mjs';
import { textReaders } from './text.readers.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const [mode, n, ...rest] = process.argv.slice(2);
const warm = rest.slice(0, Number(n));
const files = rest.slice(Number(n));
const corpus = resolve(repo, '../shared/corpus');

/** The whole engine; `ownSchema`: each file with its dataset's schema (as `npm run eval`), else the invoice schema. */
async function engineReader(ownSchema) {
  const { createExtractionEngine } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/index.js')).href);
  const invoice = JSON.parse(readFileSync(join(corpus, 'invoice2data/schema.json'), 'utf8'));
  const schemaOf = (file) => (ownSchema ? schemaFor(dirname(dirname(file)), basename(file).replace(/\.[^.]+$/, '')) : invoice);
  const engine = createExtractionEngine({ ocr: 'tesseract.js', embeddedInvoices: false });
  const read = async (bytes, file) => {
    try {
      return (await engine.extract({ bytes, mimeType: 'application/pdf', filename: basename(file) }, schemaOf(file))).pages;
    } catch (e) {
      if (e.code !== 'required_field_missing') process.stderr.write(`  ${basename(file)}: ${e.code}: ${e.message}\n`);
      return 1;
    }
  };
  // The OCR worker that reads pictures pasted into a text layer starts with the first picture: a running worker has
  // it, so one small image is read first (with the warm-up files) and its start-up stays out of the timed pass.
  const warmOcr = () =>
    engine.extract({ bytes: textImage(), mimeType: 'image/png', filename: 'warm-up.png' }, invoice).catch(() => undefined);
  return { read, warmOcr, close: () => engine.close() };
}

/** A small PNG of printed text (invented), to start the OCR worker. */
function textImage() {
  const canvas = createCanvas(600, 120);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 600, 120);
  ctx.fillStyle = '#000';
  ctx.font = '28px sans-serif';
  ctx.fillText('Invoice 1001 Total 12.50', 20, 70);
  return new Uint8Array(canvas.toBuffer('image/png'));
}

async function readerOf(name) {
  if (name === 'engine' || name === 'engine-own') return engineReader(name === 'engine-own');
  const read = (await textReaders(repo))[name];
  if (!read) throw new Error(`no reader ${name} here`);
  return { read: async (bytes, file) => (await read(bytes, file)).pages.length, close: async () => undefined };
}

const reader = await readerOf(mode);
const bytesOf = (f) => new Uint8Array(readFileSync(f));
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 25);
await reader.warmOcr?.();
for (const f of warm) await reader.read(bytesOf(f), f);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let pages = 0;
for (const f of files) pages += await reader.read(bytesOf(f), f);
const secs = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
await reader.close();
process.stdout.write(JSON.stringify({ pages, secs, cpuSecs: (cpu.user + cpu.system) / 1e6, peakRss }) + '\n');
