#!/usr/bin/env node
// The OCR engines side by side on the scanned wide sets, in one run: field micro-F1 (all / tune / check, the corpus
// scorer) and value recall of the OCR text (share of expected string values present in it, normalised and as whole
// words; tools/eval/ceiling.mjs), per engine. Speed and memory are `npm run bench:extraction`'s (it reads every engine
// in its own process); this script uses the evaluation OCR cache, so a second run costs seconds.
//   npm run eval:ocr [-- --engines paddle,tesseract.js --datasets sroie-wide,funsd-wide --wide <dir>]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (n, d) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const engines = opt('--engines', 'paddle,tesseract.js').split(',');
const datasets = opt('--datasets', 'sroie-wide,funsd-wide').split(',');
const wide = resolve(repo, opt('--wide', process.env.DOCKET_CORPUS_WIDE ?? '../corpus-wide'));
const node = (script, argv) =>
  execFileSync(process.execPath, [join(repo, 'tools/eval', script), ...argv], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });

const out = mkdtempSync(join(tmpdir(), 'docket-ocr-compare-'));
const rows = [];
try {
  for (const engine of engines) {
    const summary = JSON.parse(
      node('eval.mjs', ['--ocr', engine, '--dataset', datasets.join(','), '--wide', wide, '--json', '--out', join(out, engine)]),
    );
    for (const ds of datasets) {
      const ceiling = node('ceiling.mjs', ['--corpus', join(wide, ds), '--predicted', join(out, engine, ds), '--ocr', engine]);
      // The "(all string fields)" row: values, in OCR text (normalised), whole words, right.
      const all =
        ceiling
          .split('\n')
          .find((l) => l.startsWith('(all string fields)'))
          ?.trim()
          .split(/\s+/)
          .slice(-3)
          .map(Number) ?? [];
      const s = summary[ds];
      rows.push({
        engine,
        ds,
        all: s?.score?.micro?.f1,
        tune: s?.tune?.micro?.f1,
        check: s?.check?.micro?.f1,
        recall: all[0],
        strict: all[1],
      });
    }
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}
const f = (x) => (typeof x === 'number' && !Number.isNaN(x) ? x.toFixed(3) : '–');
console.log('| dataset | engine | field F1 all / tune / check | value recall of the OCR text (normalised / whole words) |');
console.log('|---|---|---|---|');
for (const r of rows)
  console.log(`| ${r.ds} | ${r.engine} | ${f(r.all)} / ${f(r.tune)} / ${f(r.check)} | ${f(r.recall)} / ${f(r.strict)} |`);
