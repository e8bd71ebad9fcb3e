#!/usr/bin/env node
// Writes every label candidate of every scalar field of a set's documents as a row (features, right or wrong) for the
// candidate scorer, and prints how the label order and the final result compare with the best any candidate could do.
//   node tools/train/candidate-rows.mjs --dataset invoices-wide,invoice2data --split tune --out /tmp/cand
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from '../eval/build.helper.mjs';
import { cachedOcr } from '../eval/ocr-cache.mjs';
import { datasetDirs, listDocs, schemaFor, wideRootOf, wideSets } from '../eval/datasets.mjs';
import { splitOf } from '../eval/split.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (n) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
const wanted = new Set((opt('--dataset') ?? '').split(',').filter(Boolean));
const split = opt('--split') ?? 'tune';
const out = opt('--out') ?? '/tmp/cand';
mkdirSync(out, { recursive: true });

ensureBuilt(repo, console.error);
const { createExtractionEngine } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/index.js')).href);
const { compareValue } = await import(pathToFileURL(resolve(repo, '../shared/corpus/score.mjs')).href);
const engine = createExtractionEngine({ ocrService: await cachedOcr(repo, { engine: 'auto' }), ocr: 'auto', embeddedInvoices: false });
const dirs = [...datasetDirs(resolve(repo, '../shared/corpus')), ...wideSets(wideRootOf(repo, opt('--wide'))).found].filter((d) =>
  wanted.has(basename(d)),
);
for (const dir of dirs) {
  const name = basename(dir);
  const rows = [];
  const tally = { fields: 0, final: 0, first: 0, any: 0, none: 0 };
  for (const d of listDocs(dir).filter((x) => split === 'all' || splitOf(x.id) === split)) {
    const traces = [];
    const input = { bytes: new Uint8Array(readFileSync(d.file)), mimeType: d.mime, filename: basename(d.file) };
    let out1;
    try {
      out1 = await engine.extract(input, schemaFor(dir, d.id), { candidateTrace: (t) => traces.push(t) });
    } catch (e) {
      console.error(`${name}/${d.id}: ${e.message}`);
      continue;
    }
    const expectedFile = join(dir, 'expected', `${d.id}.json`);
    const expected = existsSync(expectedFile) ? JSON.parse(readFileSync(expectedFile, 'utf8')) : {};
    const unl = existsSync(join(dir, 'unlabelled.json'))
      ? (JSON.parse(readFileSync(join(dir, 'unlabelled.json'), 'utf8'))[d.id] ?? [])
      : [];
    // The reading the engine kept: the trace whose result is the output's (a second reading may have won).
    const trace = traces.find((t) => JSON.stringify(t.result) === JSON.stringify(out1.result)) ?? traces.at(-1);
    if (!trace) continue;
    const types = new Map(schemaFor(dir, d.id).fields.map((f) => [f.key, f.data_type]));
    for (const f of trace.fields) {
      if (unl.includes(f.key) || expected[f.key] === undefined || expected[f.key] === null) continue;
      const type = types.get(f.key);
      const ys = f.candidates.map((c) => compareValue(type, expected[f.key], c.value));
      tally.fields++;
      if (out1.result[f.key] !== undefined && compareValue(type, expected[f.key], out1.result[f.key])) tally.final++;
      if (ys[0]) tally.first++;
      if (ys.some(Boolean)) tally.any++;
      f.candidates.forEach((c, i) =>
        rows.push({
          doc: d.id,
          key: f.key,
          y: ys[i] ? 1 : 0,
          x: c.features,
          final: JSON.stringify(c.value) === JSON.stringify(out1.result[f.key]) ? 1 : 0,
        }),
      );
    }
  }
  writeFileSync(join(out, `${name}.${split}.jsonl`), rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  console.log(
    `${name} ${split}: fields with candidates ${tally.fields}, final right ${tally.final}, first candidate right ${tally.first}, some candidate right ${tally.any}`,
  );
}
await engine.close();
