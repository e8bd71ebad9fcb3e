#!/usr/bin/env node
// Runs the BUILT extraction engine over corpus datasets and scores it with the corpus's own scorer.
//   npm run eval                               every dataset under ../shared/corpus
//   npm run eval -- --corpus <dir>             one folder laid out like a corpus dataset (docs/, expected/, schema)
//   npm run eval -- --json                     scores as one JSON object on stdout
//   npm run eval -- --only <regex> --keep      subset of ids; keep the predictions directory
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureBuilt } from './build.helper.mjs';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const flag = (n) => args.includes(n);
const opt = (n) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};
const json = flag('--json');
const log = (...a) => (json ? process.stderr.write(a.join(' ') + '\n') : console.log(...a));

const corpusRoot = resolve(repo, '../shared/corpus');
const scorer = existsSync(join(corpusRoot, 'score.mjs')) ? join(corpusRoot, 'score.mjs') : undefined;
const datasets = opt('--corpus')
  ? [resolve(opt('--corpus'))]
  : readdirSync(corpusRoot)
      .map((d) => join(corpusRoot, d))
      .filter((d) => statSync(d).isDirectory() && existsSync(join(d, 'manifest.json')));

ensureBuilt(repo, log);
const { createExtractionEngine } = await import(pathToFileURL(join(repo, 'libs/extraction/dist/index.js')).href);

const MIME = { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', tif: 'image/tiff', tiff: 'image/tiff', webp: 'image/webp', txt: 'text/plain', csv: 'text/csv', html: 'text/html', htm: 'text/html' };

function listDocs(dir) {
  const manifest = join(dir, 'manifest.json');
  if (existsSync(manifest)) {
    return JSON.parse(readFileSync(manifest, 'utf8')).map((e) => ({ id: e.id, file: join(dir, e.doc ?? e.file), mime: e.media_type }));
  }
  return readdirSync(join(dir, 'docs')).map((f) => ({ id: f.replace(/\.[^.]+$/, ''), file: join(dir, 'docs', f), mime: MIME[f.split('.').pop().toLowerCase()] ?? 'application/octet-stream' }));
}

function schemaFor(dir, id) {
  const per = join(dir, 'schemas', `${id}.json`);
  return JSON.parse(readFileSync(existsSync(per) ? per : join(dir, 'schema.json'), 'utf8'));
}

const engine = createExtractionEngine();
const only = opt('--only') ? new RegExp(opt('--only')) : undefined;
const outRoot = mkdtempSync(join(tmpdir(), 'docket-eval-'));
const summary = {};
try {
  for (const dir of datasets) {
    const name = basename(dir);
    const out = join(outRoot, name);
    mkdirSync(out, { recursive: true });
    const docs = listDocs(dir).filter((d) => !only || only.test(d.id));
    const t0 = performance.now();
    let failed = 0;
    let pages = 0;
    for (const d of docs) {
      try {
        const res = await engine.extract({ bytes: new Uint8Array(readFileSync(d.file)), mimeType: d.mime, filename: basename(d.file) }, schemaFor(dir, d.id));
        pages += res.pages;
        writeFileSync(join(out, `${d.id}.json`), JSON.stringify(res.result, null, 1));
      } catch (e) {
        failed++;
        log(`  ${name}/${d.id}: ${e.code ?? 'error'}: ${e.message}`);
      }
    }
    const secs = (performance.now() - t0) / 1000;
    const scorerPath = scorer ?? join(dirname(dir), 'score.mjs');
    const onlyArgs = only ? ['--only', opt('--only')] : [];
    const score = JSON.parse(execFileSync(process.execPath, [scorerPath, '--corpus', dir, '--predicted', out, '--json', ...onlyArgs], { encoding: 'utf8', maxBuffer: 64 << 20 }));
    summary[name] = { docs: docs.length, failed, pages, seconds: +secs.toFixed(1), score };
    if (!json) {
      console.log(`\n=== ${name}: ${docs.length} docs, ${pages} pages, ${secs.toFixed(1)} s, ${failed} failed ===`);
      const r = spawnSync(process.execPath, [scorerPath, '--corpus', dir, '--predicted', out, ...onlyArgs], { encoding: 'utf8' });
      console.log(r.stdout.trim());
    }
  }
} finally {
  await engine.close();
  if (flag('--keep')) log(`predictions kept in ${outRoot}`);
  else rmSync(outRoot, { recursive: true, force: true });
}

const micro = (s) => s.score?.micro?.f1 ?? s.score?.overall?.micro_f1 ?? s.score?.micro_f1 ?? s.score?.f1;
if (json) console.log(JSON.stringify(summary, null, 1));
else {
  console.log('\n=== summary (micro-F1) ===');
  for (const [k, v] of Object.entries(summary)) console.log(`${k.padEnd(20)} ${String(micro(v)?.toFixed?.(3) ?? '?').padStart(6)}   ${v.docs} docs, ${v.seconds} s`);
}
