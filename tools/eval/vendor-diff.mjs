#!/usr/bin/env node
// Counts, per field, how many DISTINCT vendors a change moved right→wrong and wrong→right, so a rule that only
// fixes one vendor's repeated documents is visible as such (wide receipt sets repeat vendors).
//
//   node tools/eval/vendor-diff.mjs <dataset dir> <run A dir> <run B dir> [--key company] [--list]
//
// The run dirs are eval outputs for one dataset (`--out X` → X/<dataset>), both on the tune split. A vendor is the
// expected value of --key (default `company`), compared as the scorer does (case-folded, whitespace removed).
// Only for the tune split: reading the check split's expected values is against the evaluation rules, so run
// directories whose documents are check documents are refused.
import fs from 'node:fs';
import path from 'node:path';
import { splitOf } from './split.mjs';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : undefined;
};
const key = flag('--key') ?? 'company';
const list = args.includes('--list');
const [ds, runA, runB] = args.filter((a) => a !== '--list');
if (!ds || !runA || !runB) {
  console.error('usage: vendor-diff.mjs <dataset dir> <run A dir> <run B dir> [--key company] [--list]');
  process.exit(2);
}

const norm = (s) =>
  s == null
    ? null
    : String(s)
        .toLowerCase()
        .replace(/\s+/g, '')
        .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '');
const same = (e, g) => (typeof e === 'number' ? g != null && Math.abs(Number(g) - e) < 0.005 : norm(e) === norm(g));
const read = (f) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : {});

const out = {};
for (const f of fs.readdirSync(runB).filter((n) => n.endsWith('.json'))) {
  const id = f.slice(0, -5);
  if (splitOf(id) === 'check') {
    console.error(`refused: ${id} is a check document`);
    process.exit(2);
  }
  const exp = read(path.join(ds, 'expected', f));
  const a = read(path.join(runA, f));
  const b = read(path.join(runB, f));
  for (const field of Object.keys(exp)) {
    const ra = same(exp[field], a[field]);
    const rb = same(exp[field], b[field]);
    if (ra === rb) continue;
    const o = (out[field] ??= { rw: new Set(), wr: new Set(), docs: [] });
    o[ra ? 'rw' : 'wr'].add(norm(exp[key]));
    o.docs.push(`${id} ${ra ? 'right→wrong' : 'wrong→right'}`);
  }
}
for (const [field, o] of Object.entries(out)) {
  console.log(`${field}: vendors right→wrong ${o.rw.size}, wrong→right ${o.wr.size} (documents ${o.docs.length})`);
  if (list) for (const d of o.docs) console.log(`  ${d}`);
}
if (!Object.keys(out).length) console.log('no field changed');
