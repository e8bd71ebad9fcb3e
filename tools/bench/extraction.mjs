#!/usr/bin/env node
// Throughput of the extraction engine next to the classic tools on the same files, in one run:
//   text-layer PDFs: engine vs `pdftotext`; images: engine (tesseract.js, and native when present) vs `tesseract`.
// Prints pages/s, ratios, and the process RSS (one engine = one worker) after each phase.
//   npm run bench:extraction [-- --ocr-docs 6 --pdf-docs 40]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from '../eval/build.helper.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = resolve(repo, '../shared/corpus');
const args = process.argv.slice(2);
const num = (n, d) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
ensureBuilt(repo);
const { createExtractionEngine } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/index.js')).href);

const schema = JSON.parse(readFileSync(join(corpus, 'invoice2data/schema.json'), 'utf8'));
const files = (ds, re) => (existsSync(join(corpus, ds, 'docs')) ? readdirSync(join(corpus, ds, 'docs')).filter((f) => re.test(f)).map((f) => join(corpus, ds, 'docs', f)) : []);
const pdfs = [...files('invoice2data', /\.pdf$/), ...files('zugferd-facturx', /\.pdf$/), ...files('icdar2013-tables', /\.pdf$/)].slice(0, num('--pdf-docs', 1000));
const images = [...files('sroie', /\.jpe?g$/), ...files('funsd', /\.png$/)].slice(0, num('--ocr-docs', 6));
const has = (bin) => spawnSync(bin, ['-v'], { stdio: 'ignore' }).error === undefined;
const mb = (b) => `${(b / 1048576).toFixed(0)} MB`;
let peakRss = 0;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

async function runEngine(engine, list, mime) {
  const t0 = performance.now();
  let pages = 0;
  for (const f of list) {
    try {
      const out = await engine.extract({ bytes: new Uint8Array(readFileSync(f)), mimeType: mime(f), filename: basename(f) }, schema);
      pages += out.pages;
    } catch (e) {
      pages += 1;
      if (e.code !== 'required_field_missing') console.error(`  ${basename(f)}: ${e.code}: ${e.message}`);
    }
  }
  return { pages, secs: (performance.now() - t0) / 1000 };
}

function runCli(bin, argv, list, pagesOf, env) {
  const t0 = performance.now();
  let pages = 0;
  for (const f of list) {
    spawnSync(bin, argv(f), { stdio: 'ignore', env: { ...process.env, ...env } });
    pages += pagesOf(f);
  }
  return { pages, secs: (performance.now() - t0) / 1000 };
}

function pdfPages(f) {
  const r = spawnSync('pdfinfo', [f], { encoding: 'utf8' });
  return Number(/Pages:\s+(\d+)/.exec(r.stdout ?? '')?.[1] ?? 1);
}

const row = (name, r, base) => {
  const pps = r.pages / r.secs;
  const ratio = base ? `  ${(pps / (base.pages / base.secs)).toFixed(2)}× baseline` : '';
  console.log(`  ${name.padEnd(34)} ${String(r.pages).padStart(4)} pages ${r.secs.toFixed(2).padStart(7)} s ${pps.toFixed(2).padStart(8)} pages/s${ratio}`);
};

console.log(`bench: ${pdfs.length} text-layer PDFs, ${images.length} images; node ${process.version}; rss at start ${mb(process.memoryUsage().rss)}`);

console.log('\n[text-layer PDF]');
const pdfEngine = createExtractionEngine({ ocr: 'tesseract.js' });
await runEngine(pdfEngine, pdfs.slice(0, 2), () => 'application/pdf'); // warm-up: module load, JIT
peakRss = 0;
const e1 = await runEngine(pdfEngine, pdfs, () => 'application/pdf');
let base1;
if (has('pdftotext')) base1 = runCli('pdftotext', (f) => ['-layout', f, '-'], pdfs, pdfPages);
else console.log('  pdftotext not on PATH: baseline skipped (apt-get install poppler-utils)');
row('engine (pdfjs-dist + field location)', e1, base1);
if (base1) row('pdftotext -layout (text only)', base1);
console.log(`  engine RSS peak during phase: ${mb(peakRss)}`);
await pdfEngine.close();

const imgMime = (f) => (/\.png$/i.test(f) ? 'image/png' : 'image/jpeg');
console.log('\n[OCR images]');
let base2;
if (!images.length) {
  console.log('  no images selected (--ocr-docs 0): phase skipped');
  clearInterval(sampler);
  console.log(`\nrss at end ${mb(process.memoryUsage().rss)}`);
  process.exit(0);
}
if (has('tesseract')) base2 = runCli('tesseract', (f) => [f, 'stdout', 'tsv'], images, () => 1, { OMP_THREAD_LIMIT: '1' });
else console.log('  tesseract not on PATH: baseline and native engine mode skipped (apt-get install tesseract-ocr)');
const wasm = createExtractionEngine({ ocr: 'tesseract.js' });
await runEngine(wasm, images.slice(0, 1), imgMime); // worker start-up excluded: the worker is reused across jobs
peakRss = 0;
const e2 = await runEngine(wasm, images, imgMime);
row('engine, tesseract.js (wasm)', e2, base2);
console.log(`  engine RSS peak during phase (process incl. OCR worker thread): ${mb(peakRss)}`);
await wasm.close();
if (base2) {
  const native = createExtractionEngine({ ocr: 'native' });
  peakRss = 0;
  const e3 = await runEngine(native, images, imgMime);
  row('engine, native tesseract accelerator', e3, base2);
  row('tesseract CLI (OMP_THREAD_LIMIT=1)', base2);
  console.log(`  engine RSS peak during phase (excl. child tesseract): ${mb(peakRss)}`);
  await native.close();
}
clearInterval(sampler);
console.log(`\nrss at end ${mb(process.memoryUsage().rss)}`);
