#!/usr/bin/env node
// Predictions of the engine's field location on one text-layer reader's page layouts, written as `npm run eval -- --out`
// writes them, so that readers can be compared on answers, not only speed (both without the picture OCR step):
//   node tools/bench/reader-predictions.mjs <reader> <out dir> <dataset>…      (reader: see text.readers.mjs)
//   npm run eval -- --predicted <out dir> --dataset <datasets> --split tune     scores; `diff -r` two out dirs
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { listDocs, schemaFor, wideRootOf } from '../eval/datasets.mjs';
import { textReaders } from './text.readers.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const [readerName, out, ...names] = process.argv.slice(2);
const { extractFromLayout } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/index.js')).href);
const read = (await textReaders(repo))[readerName];
if (!read || !out) throw new Error('usage: reader-predictions.mjs <reader> <out dir> <dataset>…');
const roots = [resolve(repo, '../shared/corpus'), wideRootOf(repo)];

for (const name of names) {
  const dir = roots.map((r) => join(r, name)).find((d) => existsSync(join(d, 'manifest.json')));
  if (!dir) throw new Error(`no dataset ${name}`);
  mkdirSync(join(out, name), { recursive: true });
  let n = 0;
  for (const d of listDocs(dir).filter((x) => /\.pdf$/i.test(x.file))) {
    try {
      const res = extractFromLayout(await read(new Uint8Array(readFileSync(d.file)), d.file), schemaFor(dir, d.id), {});
      writeFileSync(join(out, name, `${d.id}.json`), JSON.stringify(res.result, null, 1));
      n++;
    } catch (e) {
      console.error(`  ${name}/${d.id}: ${e.code ?? 'error'}: ${e.message}`);
    }
  }
  console.log(`${name}: ${n} PDFs`);
}
