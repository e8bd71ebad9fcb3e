#!/usr/bin/env node
// What OCR leaves to find: per dataset and field, the share of expected values that occur in the text the engine reads
// (letters and digits only, case-folded), next to the share the engine got right. A miss whose value is not in the
// text at all is OCR's; a miss whose value is there is the locator's.
//   node tools/eval/ceiling.mjs --corpus ../corpus-wide/sroie-wide --predicted <dir of <id>.json> [--split tune|check] [--ocr <engine>]
// --ocr: the OCR engine whose reading is measured (auto, paddle, native, tesseract.js; default auto).
// Uses the OCR cache of tools/eval/ocr-cache.mjs (one plain reading per image: the engine's schema-driven re-readings
// of hard pages are not repeated here, so the ceiling is a slight underestimate on forms).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from './build.helper.mjs';
import { cachedOcr } from './ocr-cache.mjs';
import { splitOf } from './split.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const opt = (n) => (args.includes(n) ? args[args.indexOf(n) + 1] : undefined);
const corpus = resolve(opt('--corpus') ?? '');
const predicted = opt('--predicted') ? resolve(opt('--predicted')) : undefined;
const split = opt('--split');
if (!existsSync(join(corpus, 'manifest.json'))) {
  console.error('usage: node tools/eval/ceiling.mjs --corpus <dataset dir> [--predicted <dir>] [--split tune|check]');
  process.exit(2);
}
ensureBuilt(repo);
const dist = (p) => import(pathToFileURL(join(repo, 'libs/extraction/dist', p)).href);
const { readImage } = await dist('readers/image.reader.js');
const { fullText } = await dist('document.context.js');
const ocr = await cachedOcr(repo, { engine: opt('--ocr') ?? 'auto' });

const norm = (s) =>
  String(s)
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
const schemaOf = (id) =>
  JSON.parse(
    readFileSync(
      existsSync(join(corpus, 'schemas', `${id}.json`)) ? join(corpus, 'schemas', `${id}.json`) : join(corpus, 'schema.json'),
      'utf8',
    ),
  );
const rows = new Map();
for (const e of JSON.parse(readFileSync(join(corpus, 'manifest.json'), 'utf8'))) {
  if ((split && splitOf(e.id) !== split) || !/^image\//.test(e.media_type)) continue;
  const expected = JSON.parse(readFileSync(join(corpus, 'expected', `${e.id}.json`), 'utf8'));
  const got =
    predicted && existsSync(join(predicted, `${e.id}.json`)) ? JSON.parse(readFileSync(join(predicted, `${e.id}.json`), 'utf8')) : {};
  const layout = await readImage(new Uint8Array(readFileSync(join(corpus, e.doc))), ocr);
  const text = norm(fullText(layout));
  // Strict: the value's words appear as whole OCR words, in order (word gaps recovered, nothing glued on).
  const ocrWords = ` ${layout.pages
    .flatMap((p) => p.lines.flatMap((l) => l.words.map((w) => norm(w.text))))
    .filter(Boolean)
    .join(' ')} `;
  for (const f of schemaOf(e.id).fields) {
    if (f.data_type !== 'string' || typeof expected[f.key] !== 'string') continue;
    const group = rows.get(f.key) ?? { n: 0, inText: 0, strict: 0, right: 0 };
    const want = norm(expected[f.key]);
    const wantWords = expected[f.key].split(/\s+/).map(norm).filter(Boolean).join(' ');
    group.n++;
    if (want && text.includes(want)) group.inText++;
    if (wantWords && ocrWords.includes(` ${wantWords} `)) group.strict++;
    if (norm(got[f.key] ?? '') === want) group.right++;
    rows.set(f.key, group);
  }
}
await ocr.close();
/** A field key shared by at least this many documents gets its own row. */
const MIN_FIELD_ROWS = 5;
// (Per-document schemas have many keys: those of more than a few documents are reported one by one, the rest together.)
const merged = new Map();
for (const [k, v] of rows) {
  const key = v.n >= MIN_FIELD_ROWS ? k : '(string fields of a few documents)';
  const m = merged.get(key) ?? { n: 0, inText: 0, strict: 0, right: 0 };
  merged.set(key, { n: m.n + v.n, inText: m.inText + v.inText, strict: m.strict + v.strict, right: m.right + v.right });
}
console.log(
  `${'field'.padEnd(28)} ${'values'.padStart(6)} ${'in OCR text'.padStart(12)} ${'whole words'.padStart(12)} ${'right'.padStart(7)}`,
);
const total = [...merged.values()].reduce(
  (a, v) => ({ n: a.n + v.n, inText: a.inText + v.inText, strict: a.strict + v.strict, right: a.right + v.right }),
  { n: 0, inText: 0, strict: 0, right: 0 },
);
merged.set('(all string fields)', total);
for (const [k, v] of merged)
  console.log(
    `${k.padEnd(28)} ${String(v.n).padStart(6)} ${(v.inText / v.n).toFixed(3).padStart(12)} ${(v.strict / v.n).toFixed(3).padStart(12)} ${(v.right / v.n).toFixed(3).padStart(7)}`,
  );
