#!/usr/bin/env node
// Throughput of one worker's engine at WORKER_CONCURRENCY 1, 2 and 4: the engine built as the worker builds it
// (`ocrPoolSize` = concurrency, `ocrThreads` = cores ÷ concurrency), that many extractions in flight at once over the
// same files, each level in a process of its own (its RSS peak is its own). Engine only: no NATS, S3 or database.
//   npm run bench:concurrency [-- --levels 1,2,4 --pdf-docs 47 --ocr-docs 0 --ocr auto]
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from '../eval/build.helper.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = resolve(repo, '../shared/corpus');
const args = process.argv.slice(2);
const opt = (n, d) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
/** RSS is sampled this often (ms) while a level runs. */
const RSS_SAMPLE_MS = 25;
const files = (ds, re) =>
  existsSync(join(corpus, ds, 'docs'))
    ? readdirSync(join(corpus, ds, 'docs'))
        .filter((f) => re.test(f))
        .map((f) => join(corpus, ds, 'docs', f))
    : [];
const mime = (f) => (/\.png$/i.test(f) ? 'image/png' : /\.pdf$/i.test(f) ? 'application/pdf' : 'image/jpeg');

async function level(concurrency, ocr, list) {
  const { createExtractionEngine } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/index.js')).href);
  const schema = JSON.parse(readFileSync(join(corpus, 'invoice2data/schema.json'), 'utf8'));
  const threads = Math.max(1, Math.floor(availableParallelism() / concurrency));
  const engine = createExtractionEngine({ ocr, ocrThreads: threads, ocrPoolSize: concurrency, embeddedInvoices: false });
  const extract = async (f) => {
    try {
      return (await engine.extract({ bytes: new Uint8Array(readFileSync(f)), mimeType: mime(f), filename: basename(f) }, schema)).pages;
    } catch {
      return 1;
    }
  };
  for (const f of list.slice(0, concurrency)) await extract(f); // warm-up: module load, JIT, OCR workers
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), RSS_SAMPLE_MS);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  let next = 0;
  let pages = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < list.length) {
        const n = await extract(list[next++]); // (not `pages += await …`: that reads `pages` before the await)
        pages += n;
      }
    }),
  );
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(c0);
  clearInterval(sampler);
  await engine.close();
  return { concurrency, threads, pages, secs, cpuSecs: (cpu.user + cpu.system) / 1e6, peakRss };
}

if (args[0] === '--child') {
  const [, c, ocr, ...list] = args;
  process.stdout.write(JSON.stringify(await level(Number(c), ocr, list)) + '\n');
  process.exit(0);
}
ensureBuilt(repo);
const levels = opt('--levels', '1,2,4').split(',').map(Number);
const ocr = opt('--ocr', 'auto'); // the worker's default OCR_ENGINE
const pdfs = [...files('invoice2data', /\.pdf$/), ...files('zugferd-facturx', /\.pdf$/), ...files('icdar2013-tables', /\.pdf$/)].slice(
  0,
  Number(opt('--pdf-docs', 1000)),
);
const images = [...files('sroie', /\.jpe?g$/), ...files('funsd', /\.png$/)].slice(0, Number(opt('--ocr-docs', 0)));
console.log(
  `bench: ${pdfs.length} text-layer PDFs, ${images.length} images (OCR: ${ocr}); ${availableParallelism()} cores; node ${process.version}`,
);
for (const [name, list] of [
  ['text-layer PDF', pdfs],
  ['OCR images', images],
]) {
  if (!list.length) continue;
  console.log(`\n[${name}]`);
  let base;
  for (const c of levels) {
    const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(c), ocr, ...list], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 24,
    });
    const r = JSON.parse(out.stdout.trim().split('\n').pop());
    const pps = r.pages / r.secs;
    base ??= pps;
    console.log(
      `  WORKER_CONCURRENCY=${c} (ocrThreads ${r.threads}) ${String(r.pages).padStart(4)} pages ${r.secs.toFixed(2).padStart(7)} s ` +
        `${pps.toFixed(2).padStart(7)} pages/s  ${(pps / base).toFixed(2)}× concurrency 1  CPU ${r.cpuSecs.toFixed(2)} s  RSS peak ${(r.peakRss / 1048576).toFixed(0)} MB`,
    );
  }
}
