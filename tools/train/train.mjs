#!/usr/bin/env node
// `npm run train`: fits the engine's learned scorers on the TUNE split of the development sets and writes their weights
// into libs/extraction/src/scores/weights/ (committed). Check documents are never read here; measure them with `npm run eval`.
//   npm run train                     every scorer, on ../shared/corpus plus the wide sets that are built (--wide <dir>)
//   npm run train -- --verify         fit again and compare with the committed weights (exit 1 beyond the tolerance)
// Scorers: document-kind (the `auto` template's kind, from the first reading's Markdown) and field-confidence (the
// calibrator mapping the locator's raw confidence to the probability that a value is right).
// Document texts come from the built engine with the evaluation's OCR cache (tools/eval/ocr-cache.mjs), so a re-run
// after `npm run eval` reads no page again. The weights record each dataset's document count and a hash of its tune ids
// and files, so a weight file says what it was fitted on; the fit is deterministic (same data, same weights).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from '../eval/build.helper.mjs';
import { cachedOcr } from '../eval/ocr-cache.mjs';
import { CONTAINED_IN, datasetDirs, listDocs, schemaFor, wideRootOf, wideSets } from '../eval/datasets.mjs';
import { splitOf } from '../eval/split.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (n) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
const verify = args.includes('--verify');
const log = (...a) => console.error('[train]', ...a);

/** The kind of document each development set holds (the label of the document-kind scorer). */
const KIND_OF_DATASET = {
  invoice2data: 'invoice',
  'zugferd-facturx': 'invoice',
  'invoices-wide': 'invoice',
  sroie: 'receipt',
  'sroie-wide': 'receipt',
  funsd: 'form',
  'funsd-wide': 'form',
  'icdar2013-tables': 'table_document',
  'tables-wide': 'table_document',
};
/**
 * Documents of a set that are no example of its kind: the `tpl-` documents of tables-wide are invoices whose item
 * tables that set scores, so they teach the kind scorer nothing about table documents (they still teach the others).
 */
const NOT_KIND_EXAMPLES = { 'tables-wide': /^tpl-/ };
/** Largest difference between a re-fitted weight and the committed one that --verify accepts. */
const VERIFY_TOLERANCE = 1e-6;
const WEIGHTS_DIR = join(repo, 'libs/extraction/src/scores/weights');

function trainingSets() {
  const corpus = resolve(repo, '../shared/corpus');
  const { found, missing } = wideSets(wideRootOf(repo, opt('--wide')));
  if (missing.length) log(`wide sets not built (trained without them): ${missing.join(', ')}`);
  const names = new Set(found.map((d) => basename(d)));
  return [...datasetDirs(corpus), ...found].filter((d) => KIND_OF_DATASET[basename(d)] && !names.has(CONTAINED_IN[basename(d)]));
}

/**
 * Every tune document of a set, read twice as production reads it: with the `auto` template's invoice fields (its
 * Markdown feeds the kind scorer) and with the set's own schema, raw confidences kept (they feed the calibrator).
 */
async function tuneReadings(engine, invoiceSchema, dir) {
  const docs = listDocs(dir).filter((d) => splitOf(d.id) === 'tune');
  const out = [];
  for (const d of docs) {
    const bytes = readFileSync(d.file);
    const input = { bytes: new Uint8Array(bytes), mimeType: d.mime, filename: basename(d.file) };
    try {
      const first = await engine.extract(input, invoiceSchema);
      const own = await engine.extract(input, schemaFor(dir, d.id), { rawConfidence: true });
      out.push({ id: d.id, mime: d.mime, markdown: first.markdown, own, sha256: createHash('sha256').update(bytes).digest('hex') });
    } catch (e) {
      log(`${basename(dir)}/${d.id}: skipped (${e.code ?? 'error'}: ${e.message})`);
    }
  }
  return out;
}

/** A document's expected values and the keys its set leaves unlabelled (not scored, not learned from). */
function truthOf(dir, id) {
  const expectedFile = join(dir, 'expected', `${id}.json`);
  const unlabelledFile = join(dir, 'unlabelled.json');
  return {
    expected: existsSync(expectedFile) ? JSON.parse(readFileSync(expectedFile, 'utf8')) : {},
    skip: existsSync(unlabelledFile) ? (JSON.parse(readFileSync(unlabelledFile, 'utf8'))[id] ?? []) : [],
  };
}

/** (raw confidence, type, scanned) → right or wrong, for every scalar value a reading returned (unlabelled keys skipped). */
function calibrationRows(dir, reading, compareValue, confidenceFeatures) {
  const { expected, skip } = truthOf(dir, reading.id);
  const scanned = reading.mime?.startsWith('image/') ?? false;
  const rows = [];
  for (const f of schemaFor(dir, reading.id).fields) {
    const v = reading.own.result[f.key];
    if (f.data_type === 'table' || v === undefined || v === null || skip.includes(f.key)) continue;
    const right = expected[f.key] !== undefined && compareValue(f.data_type, expected[f.key], v);
    rows.push({ x: confidenceFeatures(reading.own.fields[f.key]?.confidence ?? 0, f.data_type, scanned), y: right ? 'right' : 'wrong' });
  }
  return rows;
}

const hashOf = (docs) =>
  createHash('sha256')
    .update(
      docs
        .map((d) => `${d.id}:${d.sha256}`)
        .sort()
        .join('\n'),
    )
    .digest('hex');

async function main() {
  ensureBuilt(repo, log);
  const lib = (p) => import(pathToFileURL(join(repo, 'libs/extraction/dist', p)).href);
  const { createExtractionEngine } = await lib('index.js');
  const { KIND_FEATURES, kindFeatures } = await lib('features/document.kind.features.js');
  const { CONFIDENCE_FEATURES, confidenceFeatures } = await lib('features/field.confidence.features.js');
  const { fitSoftmax, predictSoftmax } = await lib('scores/softmax.model.js');
  const { AUTO_STANDARD_FIELDS } = await import(pathToFileURL(join(repo, 'libs/contracts/dist/index.js')).href);
  const { compareValue } = await import(pathToFileURL(resolve(repo, '../shared/corpus/score.mjs')).href);
  const engine = createExtractionEngine({ ocrService: await cachedOcr(repo, { engine: 'auto' }), ocr: 'auto', embeddedInvoices: false });
  const kind = { xs: [], ys: [] };
  const conf = { xs: [], ys: [] };
  const datasets = {};
  try {
    for (const dir of trainingSets()) {
      const name = basename(dir);
      const readings = await tuneReadings(engine, { fields: AUTO_STANDARD_FIELDS.invoice }, dir);
      for (const r of readings) {
        if (!NOT_KIND_EXAMPLES[name]?.test(r.id)) (kind.xs.push(kindFeatures(r.markdown, r.mime)), kind.ys.push(KIND_OF_DATASET[name]));
        for (const row of calibrationRows(dir, r, compareValue, confidenceFeatures)) (conf.xs.push(row.x), conf.ys.push(row.y));
      }
      datasets[name] = { kind: KIND_OF_DATASET[name], tune_docs: readings.length, sha256: hashOf(readings) };
      log(`${name}: ${readings.length} tune documents`);
    }
  } finally {
    await engine.close();
  }
  const fitted = {
    'document-kind': fitAndMeasure(KIND_FEATURES, ['invoice', 'receipt', 'form', 'table_document'], kind, datasets, 'documents'),
    'field-confidence': fitAndMeasure(CONFIDENCE_FEATURES, ['wrong', 'right'], conf, datasets, 'values'),
  };
  let drift = false;
  for (const [name, model] of Object.entries(fitted)) {
    const file = join(WEIGHTS_DIR, `${name}.json`);
    log(`${name}: ${model.training.examples} tune ${model.training.unit}, tune accuracy ${model.training.tune_accuracy}`);
    if (verify) drift = compare(file, model) || drift;
    else writeFileSync(file, JSON.stringify(model, null, 1) + '\n');
  }
  if (verify) process.exit(drift ? 1 : 0);
  log(`wrote ${WEIGHTS_DIR}`);

  function fitAndMeasure(features, classes, data, sets, unit) {
    const model = fitSoftmax(features, classes, data.xs, data.ys);
    const right = data.xs.filter((x, i) => {
      const p = predictSoftmax(model, x);
      return classes[p.indexOf(Math.max(...p))] === data.ys[i];
    }).length;
    const accuracy = +(right / Math.max(1, data.xs.length)).toFixed(4);
    return {
      training: { command: 'npm run train', split: 'tune', datasets: sets, unit, examples: data.xs.length, tune_accuracy: accuracy },
      ...model,
    };
  }
}

/** True when the re-fitted weights differ from the committed file beyond VERIFY_TOLERANCE. */
function compare(file, fitted) {
  const committed = JSON.parse(readFileSync(file, 'utf8'));
  const a = fitted.weights.flat();
  const b = committed.weights.flat();
  const diff = a.length === b.length ? Math.max(0, ...a.map((v, i) => Math.abs(v - b[i]))) : Infinity;
  log(`${basename(file)}: largest weight difference from the committed file ${diff}`);
  return diff > VERIFY_TOLERANCE;
}

await main();
