#!/usr/bin/env node
// Reliability of the engine's field confidence: of the values given a confidence in a band, how many are right.
//   node tools/eval/reliability.mjs --predicted <dir> [--split tune|check] [--json]
// <dir> is an `npm run eval -- --out <dir>` directory: <dir>/<dataset>/<id>.json (results) and
// <dir>/<dataset>.meta/<id>.json (per-field confidence). Scalar fields only (a table's confidence is the table's);
// a value is right when the corpus scorer's compareValue says so, wrong when it differs or is not expected at all
// (keys the dataset leaves unlabelled, unlabelled.json, are skipped as the scorer skips them).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { datasetDirs, schemaFor, wideRootOf } from './datasets.mjs';
import { splitOf } from './split.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (n) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
const predicted = resolve(opt('--predicted') ?? '');
const split = opt('--split');
/** Confidence bands, highest first: [lower bound, label]. */
const BANDS = [
  [0.9, '≥ 0.9'],
  [0.7, '0.7–0.9'],
  [0.5, '0.5–0.7'],
  [0, '< 0.5'],
];

const corpusRoot = resolve(repo, '../shared/corpus');
const { compareValue } = await import(pathToFileURL(join(corpusRoot, 'score.mjs')).href);
const dirs = new Map([...datasetDirs(corpusRoot), ...datasetDirs(wideRootOf(repo, opt('--wide')))].map((d) => [d.split('/').pop(), d]));

function reliability(name, dir) {
  const counts = BANDS.map(() => ({ n: 0, right: 0 }));
  const metaDir = join(predicted, `${name}.meta`);
  const unlabelledFile = join(dir, 'unlabelled.json');
  const unlabelled = existsSync(unlabelledFile) ? JSON.parse(readFileSync(unlabelledFile, 'utf8')) : {};
  for (const f of readdirSync(metaDir)) {
    const id = f.replace(/\.json$/, '');
    if (split && splitOf(id) !== split) continue;
    const meta = JSON.parse(readFileSync(join(metaDir, f), 'utf8'));
    const result = JSON.parse(readFileSync(join(predicted, name, f), 'utf8'));
    const expectedFile = join(dir, 'expected', f);
    const expected = existsSync(expectedFile) ? JSON.parse(readFileSync(expectedFile, 'utf8')) : {};
    for (const field of schemaFor(dir, id).fields) {
      if (field.data_type === 'table' || result[field.key] === undefined || result[field.key] === null) continue;
      if ((unlabelled[id] ?? []).includes(field.key)) continue; // not scored by the corpus either
      const band = BANDS.findIndex(([lo]) => (meta[field.key]?.confidence ?? 0) >= lo);
      counts[band].n++;
      if (expected[field.key] !== undefined && compareValue(field.data_type, expected[field.key], result[field.key])) counts[band].right++;
    }
  }
  return counts;
}

const out = {};
for (const name of readdirSync(predicted).filter((d) => existsSync(join(predicted, `${d}.meta`)) && dirs.has(d)))
  out[name] = reliability(name, dirs.get(name));
if (args.includes('--json')) console.log(JSON.stringify(out, null, 1));
else {
  console.log(`| dataset${split ? ` (${split})` : ''} | ${BANDS.map(([, l]) => `conf ${l}: right / given`).join(' | ')} |`);
  console.log(`|---|${BANDS.map(() => '---').join('|')}|`);
  for (const [name, c] of Object.entries(out))
    console.log(`| ${name} | ${c.map((b) => (b.n ? `${(b.right / b.n).toFixed(2)} (${b.right}/${b.n})` : '–')).join(' | ')} |`);
}
