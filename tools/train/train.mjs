#!/usr/bin/env node
// `npm run train`: fits the engine's learned scorers on the TUNE split of the development sets and writes their weights
// into libs/extraction/src/scores/weights/ (committed). Check documents are never read here; measure them with `npm run eval`.
//   npm run train                     every scorer, on ../shared/corpus plus the wide sets that are built (--wide <dir>)
//   npm run train -- --verify         fit again and compare with the committed weights (exit 1 beyond the tolerance)
// Document texts come from the built engine with the evaluation's OCR cache (tools/eval/ocr-cache.mjs), so a re-run
// after `npm run eval` reads no page again. The weights record each dataset's document count and a hash of its tune ids
// and files, so a weight file says what it was fitted on; the fit is deterministic (same data, same weights).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from '../eval/build.helper.mjs';
import { cachedOcr } from '../eval/ocr-cache.mjs';
import { CONTAINED_IN, datasetDirs, listDocs, wideRootOf, wideSets } from '../eval/datasets.mjs';
import { splitOf } from '../eval/split.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (n) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
const verify = args.includes('--verify');
const log = (...a) => console.error('[train]', ...a);

/** The kind of document each development set holds (the label of the document-kind scorer). */
const KIND_OF_DATASET = {
  'invoice2data': 'invoice', 'zugferd-facturx': 'invoice', 'invoices-wide': 'invoice',
  'sroie': 'receipt', 'sroie-wide': 'receipt',
  'funsd': 'form', 'funsd-wide': 'form',
  'icdar2013-tables': 'table_document', 'tables-wide': 'table_document',
};
/** Largest difference between a re-fitted weight and the committed one that --verify accepts. */
const VERIFY_TOLERANCE = 1e-6;
const WEIGHTS = join(repo, 'libs/extraction/src/scores/weights/document-kind.json');

function trainingSets() {
  const corpus = resolve(repo, '../shared/corpus');
  const { found, missing } = wideSets(wideRootOf(repo, opt('--wide')));
  if (missing.length) log(`wide sets not built (trained without them): ${missing.join(', ')}`);
  const names = new Set(found.map((d) => basename(d)));
  return [...datasetDirs(corpus), ...found].filter((d) => KIND_OF_DATASET[basename(d)] && !names.has(CONTAINED_IN[basename(d)]));
}

/** The engine's Markdown of every tune document of a set, read as the `auto` template's first pass reads it. */
async function tuneTexts(engine, invoiceSchema, dir) {
  const docs = listDocs(dir).filter((d) => splitOf(d.id) === 'tune');
  const out = [];
  for (const d of docs) {
    const bytes = readFileSync(d.file);
    try {
      const res = await engine.extract({ bytes: new Uint8Array(bytes), mimeType: d.mime, filename: basename(d.file) }, invoiceSchema);
      out.push({ id: d.id, mime: d.mime, markdown: res.markdown, sha256: createHash('sha256').update(bytes).digest('hex') });
    } catch (e) {
      log(`${basename(dir)}/${d.id}: skipped (${e.code ?? 'error'}: ${e.message})`);
    }
  }
  return out;
}

const hashOf = (docs) => createHash('sha256').update(docs.map((d) => `${d.id}:${d.sha256}`).sort().join('\n')).digest('hex');

async function main() {
  ensureBuilt(repo, log);
  const lib = (p) => import(pathToFileURL(join(repo, 'libs/extraction/dist', p)).href);
  const { createExtractionEngine } = await lib('index.js');
  const { KIND_FEATURES, kindFeatures } = await lib('features/document.kind.features.js');
  const { fitSoftmax, predictSoftmax } = await lib('scores/softmax.model.js');
  const { AUTO_STANDARD_FIELDS } = await import(pathToFileURL(join(repo, 'libs/contracts/dist/index.js')).href);
  const engine = createExtractionEngine({ ocrService: await cachedOcr(repo, { engine: 'auto' }), ocr: 'auto' });
  const xs = [];
  const ys = [];
  const datasets = {};
  try {
    for (const dir of trainingSets()) {
      const name = basename(dir);
      const docs = await tuneTexts(engine, { fields: AUTO_STANDARD_FIELDS.invoice }, dir);
      for (const d of docs) {
        xs.push(kindFeatures(d.markdown, d.mime));
        ys.push(KIND_OF_DATASET[name]);
      }
      datasets[name] = { kind: KIND_OF_DATASET[name], tune_docs: docs.length, sha256: hashOf(docs) };
      log(`${name}: ${docs.length} tune documents`);
    }
  } finally {
    await engine.close();
  }
  const classes = ['invoice', 'receipt', 'form', 'table_document'];
  const model = fitSoftmax(KIND_FEATURES, classes, xs, ys);
  const right = xs.filter((x, i) => { const p = predictSoftmax(model, x); return classes[p.indexOf(Math.max(...p))] === ys[i]; }).length;
  const out = { training: { command: 'npm run train', split: 'tune', datasets, documents: xs.length, tune_accuracy: +(right / Math.max(1, xs.length)).toFixed(4) }, ...model };
  log(`document kind: ${xs.length} tune documents, tune accuracy ${out.training.tune_accuracy}`);
  if (verify) return compare(out);
  writeFileSync(WEIGHTS, JSON.stringify(out, null, 1) + '\n');
  log(`wrote ${WEIGHTS}`);
}

function compare(fitted) {
  const committed = JSON.parse(readFileSync(WEIGHTS, 'utf8'));
  const a = fitted.weights.flat();
  const b = committed.weights.flat();
  const diff = a.length === b.length ? Math.max(0, ...a.map((v, i) => Math.abs(v - b[i]))) : Infinity;
  log(`largest weight difference from the committed file: ${diff}`);
  process.exit(diff <= VERIFY_TOLERANCE ? 0 : 1);
}

await main();
