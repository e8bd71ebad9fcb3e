#!/usr/bin/env node
// Runs the BUILT extraction engine over corpus datasets and scores it with the corpus's own scorer.
//   npm run eval                               every dataset under ../shared/corpus, plus the wide sets when built
//   npm run eval -- --split tune|check         only that half of every dataset (split.mjs: a hash of the id)
//   npm run eval -- --dataset sroie-wide       only the named datasets (comma-separated folder names)
//   npm run eval -- --wide <dir>               where the wide sets are (default: env DOCKET_CORPUS_WIDE, else ../corpus-wide)
//   npm run eval -- --corpus <dir>             one folder laid out like a corpus dataset (docs/, expected/, schema)
//   npm run eval -- --json                     scores as one JSON object on stdout
//   npm run eval -- --only <regex> --keep      subset of ids; keep the predictions directory
//   npm run eval -- --out <dir>                write predictions to <dir>/<dataset>/<id>.json and keep them
//   npm run eval -- --predicted <dir>          re-score kept predictions (<dir>/<dataset>/<id>.json) without extracting
//   npm run eval -- --memory                   layout memory: F1 of the documents after the first of their layout, without
//                                              and with an exemplar learned from the first (protocol in memory.mjs)
//   npm run eval -- --ocr <engine>             OCR engine: auto (default: the measured best), paddle, native, tesseract.js
//   npm run eval -- --no-ocr-cache             OCR every page afresh (default: OCR results are cached by image hash in
//                                              $DOCKET_OCR_CACHE or $TMPDIR/docket-ocr-cache, so re-runs score rule
//                                              changes in seconds; the cache key covers image bytes, backend, languages, psm)
// Without --split every document is extracted once and the summary scores all / tune / check side by side.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from './build.helper.mjs';
import { SPLITS, splitOf, idsRegex } from './split.mjs';
import { cachedOcr } from './ocr-cache.mjs';
import { datasetDirs, listDocs, schemaFor, wideRootOf, wideSets } from './datasets.mjs';
import { memoryRun } from './memory.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const flag = (n) => args.includes(n);
const opt = (n) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const json = flag('--json');
const log = (...a) => (json ? process.stderr.write(a.join(' ') + '\n') : console.log(...a));

const split = opt('--split');
if (split && !SPLITS.includes(split)) {
  console.error(`--split must be one of ${SPLITS.join(', ')}`);
  process.exit(2);
}
const corpusRoot = resolve(repo, '../shared/corpus');
const wideRoot = wideRootOf(repo, opt('--wide'));
const scorer = existsSync(join(corpusRoot, 'score.mjs')) ? join(corpusRoot, 'score.mjs') : undefined;

function chooseDatasets() {
  if (opt('--corpus')) return [resolve(opt('--corpus'))];
  const { found: wide, missing } = wideSets(wideRoot);
  if (missing.length) {
    log(`note: the wide sets ${missing.join(', ')} are not built in ${wideRoot}; build them with:`);
    log('  fetch github:zzzDavid/ICDAR-2019-SROIE and github:acen20/layout (git mirrors), then');
    log(`  node ../shared/corpus/build-wide.mjs --out ../corpus-wide --sroie <git dir of ICDAR-2019-SROIE> --funsd <git dir of layout>`);
    log('  and for invoices-wide / tables-wide: tools/eval/build-invoices-wide.mjs, build-invoices-templates.mjs, build-tables-wide.mjs');
    log('  (see docs/quality.md, "Wide sets"; --wide <dir> or DOCKET_CORPUS_WIDE if elsewhere)');
  }
  const all = [...datasetDirs(corpusRoot), ...wide];
  const named = opt('--dataset')?.split(',');
  return named ? all.filter((d) => named.includes(basename(d))) : all;
}

const only = opt('--only') ? new RegExp(opt('--only')) : undefined;
const datasets = chooseDatasets();
const predictedIn = opt('--predicted') ? resolve(opt('--predicted')) : undefined;
let engine;
if (!predictedIn) {
  ensureBuilt(repo, log);
  const { createExtractionEngine } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/index.js')).href);
  const ocrEngine = opt('--ocr') ?? 'auto';
  const ocrService = flag('--no-ocr-cache') ? undefined : await cachedOcr(repo, { engine: ocrEngine });
  // Embedded e-invoice XML is never read here (and the wide sets' PDFs are built without it): the scores measure the pages.
  engine = createExtractionEngine({ ocrService, ocr: ocrEngine, embeddedInvoices: false });
}

async function extractAll(dir, docs, out) {
  const name = basename(dir);
  let failed = 0;
  let pages = 0;
  for (const d of docs) {
    try {
      const res = await engine.extract(
        { bytes: new Uint8Array(readFileSync(d.file)), mimeType: d.mime, filename: basename(d.file) },
        schemaFor(dir, d.id),
      );
      pages += res.pages;
      writeFileSync(join(out, `${d.id}.json`), JSON.stringify(res.result, null, 1));
      // Per-field confidence, page and box beside the predictions (tools/eval/reliability.mjs reads them).
      writeFileSync(join(`${out}.meta`, `${d.id}.json`), JSON.stringify(res.fields, null, 1));
    } catch (e) {
      failed++;
      log(`  ${name}/${d.id}: ${e.code ?? 'error'}: ${e.message}`);
    }
  }
  return { failed, pages };
}

function score(dir, out, ids) {
  const scorerPath = scorer ?? join(dirname(dir), 'score.mjs');
  if (!ids.length) return undefined;
  const onlyArgs = ['--only', idsRegex(ids)];
  const s = JSON.parse(
    execFileSync(process.execPath, [scorerPath, '--corpus', dir, '--predicted', out, '--json', ...onlyArgs], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    }),
  );
  return {
    s,
    report: () =>
      spawnSync(process.execPath, [scorerPath, '--corpus', dir, '--predicted', out, ...onlyArgs], {
        encoding: 'utf8',
        maxBuffer: 64 << 20,
      }).stdout.trim(),
  };
}

const outRoot = predictedIn ?? (opt('--out') ? resolve(opt('--out')) : mkdtempSync(join(tmpdir(), 'docket-eval-')));
const summary = {};
const f1 = (s) => s?.micro?.f1;
try {
  for (const dir of datasets) {
    const name = basename(dir);
    const out = join(outRoot, name);
    mkdirSync(out, { recursive: true });
    mkdirSync(`${out}.meta`, { recursive: true });
    const docs = listDocs(dir).filter((d) => (!only || only.test(d.id)) && (!split || splitOf(d.id) === split));
    if (flag('--memory') && engine) {
      const t = performance.now();
      const m = await memoryRun(engine, dir, docs, out, log);
      const base = score(dir, `${out}.base`, m.ids)?.s;
      const withMemory = score(dir, `${out}.memory`, m.ids)?.s;
      summary[name] = {
        groups: m.groups,
        docs: m.ids.length,
        helped: m.helped,
        base,
        memory: withMemory,
        seconds: +((performance.now() - t) / 1000).toFixed(1),
      };
      continue;
    }
    const t0 = performance.now();
    const run = engine ? await extractAll(dir, docs, out) : { failed: 0, pages: 0 };
    const secs = (performance.now() - t0) / 1000;
    const ids = docs.map((d) => d.id);
    const all = score(dir, out, ids);
    const halves = split
      ? {}
      : Object.fromEntries(
          SPLITS.map((h) => [
            h,
            score(
              dir,
              out,
              ids.filter((id) => splitOf(id) === h),
            )?.s,
          ]),
        );
    summary[name] = {
      docs: docs.length,
      split: split ?? 'all',
      failed: run.failed,
      pages: run.pages,
      seconds: +secs.toFixed(1),
      score: all?.s,
      tune: halves.tune,
      check: halves.check,
    };
    if (!json) {
      console.log(
        `\n=== ${name}${split ? ` (${split} split)` : ''}: ${docs.length} docs, ${run.pages} pages, ${secs.toFixed(1)} s, ${run.failed} failed ===`,
      );
      console.log(all?.report() ?? '(no documents)');
    }
  }
} finally {
  await engine?.close();
  if (flag('--keep') || predictedIn || opt('--out')) log(`predictions in ${outRoot}`);
  else rmSync(outRoot, { recursive: true, force: true });
}

const fmt = (x) => (typeof x === 'number' ? x.toFixed(3) : '  -  ');
if (json) console.log(JSON.stringify(summary, null, 1));
else if (flag('--memory')) {
  console.log('\n=== layout memory: micro-F1 of the documents after the first of their layout ===');
  console.log(
    `${'dataset'.padEnd(20)} ${'groups'.padStart(6)} ${'docs'.padStart(5)} ${'helped'.padStart(6)} ${'without'.padStart(8)} ${'with'.padStart(6)}  delta`,
  );
  for (const [k, v] of Object.entries(summary)) {
    const d = typeof f1(v.base) === 'number' && typeof f1(v.memory) === 'number' ? f1(v.memory) - f1(v.base) : undefined;
    console.log(
      `${k.padEnd(20)} ${String(v.groups).padStart(6)} ${String(v.docs).padStart(5)} ${String(v.helped).padStart(6)} ${fmt(f1(v.base)).padStart(8)} ${fmt(f1(v.memory)).padStart(6)}  ${d === undefined ? '-' : (d >= 0 ? '+' : '') + d.toFixed(3)}`,
    );
  }
} else {
  console.log(`\n=== summary (micro-F1${split ? `, ${split} split only` : ''}) ===`);
  console.log(`${'dataset'.padEnd(20)} ${'all'.padStart(6)} ${'tune'.padStart(6)} ${'check'.padStart(6)}    gap   docs`);
  for (const [k, v] of Object.entries(summary)) {
    const gap = typeof f1(v.tune) === 'number' && typeof f1(v.check) === 'number' ? f1(v.tune) - f1(v.check) : undefined;
    console.log(
      `${k.padEnd(20)} ${fmt(f1(v.score)).padStart(6)} ${fmt(f1(v.tune)).padStart(6)} ${fmt(f1(v.check)).padStart(6)} ${gap === undefined ? '     -' : (gap >= 0 ? '+' : '') + gap.toFixed(3)}   ${v.docs} docs, ${v.seconds} s`,
    );
  }
}
