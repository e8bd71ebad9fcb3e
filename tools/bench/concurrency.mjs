#!/usr/bin/env node
// Throughput of one worker's engine at WORKER_CONCURRENCY 1, 2 and 4: the engine built as the worker builds it
// (`ocrPoolSize` = concurrency, `ocrThreads` = cores ÷ concurrency), that many extractions in flight at once over the
// same files, each level in a process of its own after a warm-up of one file per slot, read at once (every OCR reader
// process started). Engine only: no NATS, S3 or database. RSS peak and CPU seconds are those of the level's whole
// process tree (the engine and its OCR reader processes), RSS sampled from the process's start (warm-up included).
//   npm run bench:concurrency [-- --levels 1,2,4 --pdf-docs 47 --ocr-docs 0 --ocr auto --a4-pages 0 --rounds 1]
// --a4-pages N: a phase of 300-dpi A4 pages, N per slot after the warm-up's one (every slot holding an A4 page at
// once: the memory bound of a level). --rounds N: every phase N times, the levels alternating; medians when N > 1.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from '../eval/build.helper.mjs';
import { writeA4Page } from './a4-page.helper.mjs';
import { treeCpu, treeRss } from './proc-tree.helper.mjs';

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
  let peakRss = 0;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, treeRss())), RSS_SAMPLE_MS);
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
  await Promise.all(list.slice(0, concurrency).map(extract)); // warm-up: module load, JIT, one OCR process per slot
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const tree0 = treeCpu();
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
  const tree1 = treeCpu();
  clearInterval(sampler);
  peakRss = Math.max(peakRss, treeRss());
  await engine.close();
  return {
    concurrency,
    threads,
    pages,
    secs,
    cpuSecs: (cpu.user + cpu.system) / 1e6,
    treeCpuSecs: tree0 === undefined || tree1 === undefined ? undefined : tree1 - tree0,
    peakRss,
  };
}

if (args[0] === '--child') {
  const [, c, ocr, ...list] = args;
  process.stdout.write(JSON.stringify(await level(Number(c), ocr, list)) + '\n');
  process.exit(0);
}
ensureBuilt(repo);
const levels = opt('--levels', '1,2,4').split(',').map(Number);
const ocr = opt('--ocr', 'auto'); // the worker's default OCR_ENGINE
const rounds = Number(opt('--rounds', 1));
const a4Pages = Number(opt('--a4-pages', 0));
const pdfs = [...files('invoice2data', /\.pdf$/), ...files('zugferd-facturx', /\.pdf$/), ...files('icdar2013-tables', /\.pdf$/)].slice(
  0,
  Number(opt('--pdf-docs', 1000)),
);
const images = [...files('sroie', /\.jpe?g$/), ...files('funsd', /\.png$/)].slice(0, Number(opt('--ocr-docs', 0)));
const a4File = a4Pages > 0 ? await writeA4Page() : undefined;
console.log(
  `bench: ${pdfs.length} text-layer PDFs, ${images.length} images, ${a4Pages} 300-dpi A4 page(s) per slot (OCR: ${ocr}); ` +
    `${availableParallelism()} cores; node ${process.version}; ${rounds} round(s)`,
);
const load = () => loadavg()[0].toFixed(2);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return (s[(s.length - 1) >> 1] + s[s.length >> 1]) / 2;
};
const mb = (b) => `${(b / 1048576).toFixed(0)} MB`;
for (const [name, listFor] of [
  ['text-layer PDF', () => pdfs],
  ['OCR images', () => images],
  // The warm-up reads one page per slot at once, then every slot reads a4Pages more.
  ['300-dpi A4 page per slot', (c) => (a4File ? Array(c * (a4Pages + 1)).fill(a4File) : [])],
]) {
  if (!listFor(1).length) continue;
  console.log(`\n[${name}]`);
  const runs = new Map(levels.map((c) => [c, []]));
  for (let round = 1; round <= rounds; round++) {
    let base;
    for (const c of levels) {
      const loadBefore = load();
      const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', String(c), ocr, ...listFor(c)], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
        maxBuffer: 1 << 24,
      });
      const r = JSON.parse(out.stdout.trim().split('\n').pop());
      r.pps = r.pages / r.secs;
      runs.get(c).push(r);
      base ??= r.pps;
      const tree =
        r.treeCpuSecs === undefined ? '' : ` (tree ${r.treeCpuSecs.toFixed(2)} s, ${(r.treeCpuSecs / r.pages).toFixed(2)} s/page)`;
      console.log(
        `  ${rounds > 1 ? `round ${round}: ` : ''}WORKER_CONCURRENCY=${c} (ocrThreads ${r.threads}) ${String(r.pages).padStart(4)} pages ` +
          `${r.secs.toFixed(2).padStart(7)} s ${r.pps.toFixed(2).padStart(7)} pages/s  ${(r.pps / base).toFixed(2)}× concurrency 1  ` +
          `CPU ${r.cpuSecs.toFixed(2)} s${tree}  RSS peak ${mb(r.peakRss)}  load ${loadBefore} → ${load()}`,
      );
    }
  }
  if (rounds < 2) continue;
  console.log(`  medians over ${rounds} rounds (RSS: the highest):`);
  const basePps = median(runs.get(levels[0]).map((r) => r.pps));
  for (const c of levels) {
    const rs = runs.get(c);
    const pps = median(rs.map((r) => r.pps));
    const tree = rs.every((r) => r.treeCpuSecs !== undefined)
      ? `  tree CPU ${median(rs.map((r) => r.treeCpuSecs / r.pages)).toFixed(2)} s/page`
      : '';
    console.log(
      `  WORKER_CONCURRENCY=${c} ${pps.toFixed(2).padStart(7)} pages/s  ${(pps / basePps).toFixed(2)}× concurrency 1${tree}  ` +
        `RSS peak ${mb(Math.max(...rs.map((r) => r.peakRss)))}`,
    );
  }
}
