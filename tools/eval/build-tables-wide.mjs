#!/usr/bin/env node
// Builds the `fix-` part of tables-wide: every table with complete expected cell text in the test fixtures of
// open-source table extractors (camelot, tabula-java, tabula-py, PyMuPDF, gmft, traprange, PDFExtractionToolkit), read at pinned
// commits with `git cat-file`. Plain Node 20 ESM; needs python3 (reads Python test data with Python's own parser,
// literals only) and poppler's pdftotext (the labels are checked against the page text). No network.
//
// Usage (from the repository root):
//   node tools/eval/build-tables-wide.mjs --out ../corpus-wide --camelot GITDIR --tabula-java GITDIR --tabula-py GITDIR \
//     --pymupdf GITDIR --gmft GITDIR --traprange GITDIR --pdf-extraction-toolkit GITDIR
//   node tools/eval/build-tables-wide.mjs --out ../corpus-wide --verify     doc sha256 and expected keys vs schemas
// Options: --icdar DIR   the corpus's icdar2013-tables folder (default ../shared/corpus/icdar2013-tables): a fixture
//                        PDF byte-identical to one of its documents is refused, as is any ICDAR 2013 name.
// GITDIR: a git directory (mirror or clone) of github:camelot-dev/camelot, github:tabulapdf/tabula-java,
// github:chezou/tabula-py, github:pymupdf/PyMuPDF, github:conjuncts/gmft, github:thoqbk/traprange and
// github:AmbitiousTools/PDFExtractionToolkit.
// Output: <out>/tables-wide/{docs,schemas,expected}/fix-*, merged into manifest.json and a `fix-` section of
// PROVENANCE.md; files of other id prefixes (tpl-) are left alone.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FIXTURES, SOURCES } from './tables-wide.fixtures.mjs';
import { deriveTable, normForMatch } from './tables-wide.derive.mjs';
import { expectedGrid, expandFixture } from './tables-wide.grids.mjs';
import { provenanceSection, mergeProvenance } from './tables-wide.provenance.mjs';

const PREFIX = 'fix-';
const SET = 'tables-wide';
/** A page with fewer printed characters than this has no usable text layer (scanned): the document is refused. */
const MIN_TEXT_CHARS = 50;
/** Reserved for independent checking: the ICDAR 2013 competition files, under any folder or copy name. */
const RESERVED = [/icdar/i, /(^|[/_\-. ])(eu|us)[-_]?\d{3}[a-z]?([/_\-. ]|$)/i];
const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const readJson = (f) => JSON.parse(fs.readFileSync(f, 'utf8'));
const writeJson = (f, o) => {
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, JSON.stringify(o, null, 2) + '\n');
};
export const isReserved = (p) => RESERVED.some((re) => re.test(p));

class Git {
  constructor(dir, { repo, commit }) {
    this.repo = repo;
    this.dir = dir;
    this.commit = commit;
    if (!dir || !fs.existsSync(dir))
      throw new Error(`${repo}: git directory ${dir ?? '(none)'} not found. Mirror github:${repo} and pass its git directory.`);
    try {
      this.run(['cat-file', '-e', `${commit}^{commit}`]);
    } catch {
      throw new Error(`${repo}: commit ${commit} is not in ${dir}`);
    }
  }
  run(args, enc = 'utf8') {
    return execFileSync('git', ['--git-dir', this.dir, ...args], { encoding: enc, maxBuffer: 1 << 30 });
  }
  blob(p) {
    if (isReserved(p)) throw new Error(`${this.repo}: refusing to read ${p}: ICDAR 2013 files are reserved for independent checking`);
    return this.run(['cat-file', 'blob', `${this.commit}:${p}`], 'buffer');
  }
  text(p) {
    return this.blob(p).toString('utf8');
  }
}

// ------------------------------------------------------------------ page text, documents
function pageTexts(file, page) {
  const run = (extra) =>
    execFileSync('pdftotext', [...extra, '-f', String(page), '-l', String(page), file, '-'], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const texts = [run(['-layout']), run([]), run(['-raw'])];
  return { chars: texts[1].replace(/\s+/g, '').length, norm: texts.map(normForMatch) };
}
const docId = (pdfPath) =>
  PREFIX +
  path
    .basename(pdfPath, '.pdf')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

function icdarHashes(dir) {
  const m = path.join(dir, 'manifest.json');
  if (!fs.existsSync(m))
    throw new Error(`--icdar ${dir}: no manifest.json (the corpus's icdar2013-tables folder is needed to refuse its copies)`);
  return new Set(readJson(m).map((e) => e.sha256));
}

/** Reads one fixture's PDF into the document map (deduplicated by sha256); returns the document or a refusal. */
function addDocument(ctx, git, fx) {
  if (isReserved(fx.pdf)) return { refused: 'ICDAR 2013 name' };
  const buf = git.blob(fx.pdf),
    hash = sha256(buf);
  if (ctx.icdar.has(hash)) return { refused: 'byte-identical to an icdar2013-tables document' };
  let doc = ctx.docs.get(hash);
  if (!doc) {
    let id = docId(fx.idName ?? fx.pdf);
    while ([...ctx.docs.values()].some((d) => d.id === id)) id += '-b';
    const file = path.join(ctx.out, 'docs', `${id}.pdf`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, buf);
    doc = { id, file, sha256: hash, bytes: buf.length, sources: [], fields: [], expected: {}, pages: new Map(), tables: new Set() };
    ctx.docs.set(hash, doc);
  }
  doc.sources.push({ repo: git.repo, commit: git.commit, path: fx.pdf });
  if (!doc.pages.has(fx.page)) doc.pages.set(fx.page, pageTexts(doc.file, fx.page));
  if (doc.pages.get(fx.page).chars < MIN_TEXT_CHARS) return { refused: `page ${fx.page} has no text layer` };
  return { doc };
}

function addTables(ctx, git, fx, doc, report) {
  fx.tables.forEach((spec, i) => {
    const n = spec.n ?? i + 1,
      slot = `${fx.page}:${n}`;
    const { grid, from } = expectedGrid(git, spec, ctx.cache);
    const where = { repo: git.repo, path: from, doc: doc.id, page: fx.page, n };
    if (doc.tables.has(slot)) {
      report.duplicates.push(where);
      return;
    }
    const key = `table_${doc.fields.length + 1}`;
    const r = deriveTable(
      grid,
      { ...spec, key, label: `Table ${n} (page ${fx.page})`, where: `page ${fx.page} (table ${n} of the page in reading order)` },
      doc.pages.get(fx.page).norm,
    );
    if (r.rejected) {
      report.rejected.push({ ...where, reason: r.rejected });
      return;
    }
    doc.tables.add(slot);
    doc.fields.push(r.field);
    doc.expected[key] = r.rows;
    report.tables.push({
      ...where,
      key,
      rows: r.rows.length,
      cells: r.cells,
      columns: r.field.fields.length,
      numberColumns: r.field.fields.filter((c) => c.data_type === 'number').length,
      headerRows: r.headerRows,
    });
    for (const d of r.dropped) report.dropped.push({ ...where, key, ...d });
  });
}

// ------------------------------------------------------------------ output: own files only, merged manifest
function clearOwn(out) {
  for (const sub of ['docs', 'schemas', 'expected']) {
    const dir = path.join(out, sub);
    if (!fs.existsSync(dir)) continue;
    for (const f of fs.readdirSync(dir)) if (f.startsWith(PREFIX)) fs.rmSync(path.join(dir, f));
  }
}
function writeOutputs(ctx, report) {
  const docs = [...ctx.docs.values()].filter((d) => d.fields.length);
  for (const d of ctx.docs.values()) if (!d.fields.length) fs.rmSync(d.file, { force: true });
  const manifestFile = path.join(ctx.out, 'manifest.json');
  const others = fs.existsSync(manifestFile) ? readJson(manifestFile).filter((e) => !String(e.id).startsWith(PREFIX)) : [];
  const mine = docs.map((d) => {
    writeJson(path.join(ctx.out, 'schemas', `${d.id}.json`), { fields: d.fields });
    writeJson(path.join(ctx.out, 'expected', `${d.id}.json`), d.expected);
    const [first, ...also] = d.sources;
    return {
      id: d.id,
      doc: `docs/${d.id}.pdf`,
      media_type: 'application/pdf',
      sha256: d.sha256,
      source_repo: first.repo,
      source_commit: first.commit,
      source: first.path,
      ...(also.length ? { also_in: also } : {}),
      tables: d.fields.length,
    };
  });
  writeJson(
    manifestFile,
    [...others, ...mine].sort((a, b) => a.id.localeCompare(b.id)),
  );
  const provFile = path.join(ctx.out, 'PROVENANCE.md');
  const old = fs.existsSync(provFile) ? fs.readFileSync(provFile, 'utf8') : '';
  fs.writeFileSync(provFile, mergeProvenance(old, provenanceSection({ docs, report, sources: SOURCES })));
  return docs;
}

export function verify(out) {
  const manifest = readJson(path.join(out, 'manifest.json'));
  let ok = 0,
    bad = 0;
  for (const m of manifest) {
    const f = path.join(out, m.doc);
    const problem = !fs.existsSync(f) ? 'missing' : sha256(fs.readFileSync(f)) !== m.sha256 ? 'sha256 mismatch' : keyProblem(out, m.id);
    if (problem) {
      console.error(`${SET}/${m.id}: ${problem}`);
      bad++;
    } else ok++;
  }
  const ids = new Set(manifest.map((m) => m.id));
  for (const f of fs.readdirSync(path.join(out, 'expected')))
    if (!ids.has(f.replace(/\.json$/, ''))) {
      console.error(`${SET}/expected/${f}: not in manifest.json`);
      bad++;
    }
  console.log(`${SET}: ${ok}/${manifest.length} documents match their sha256 and schema`);
  return bad === 0;
}
function keyProblem(out, id) {
  const schema = readJson(path.join(out, 'schemas', `${id}.json`));
  const expected = readJson(path.join(out, 'expected', `${id}.json`));
  const fields = new Map(schema.fields.map((f) => [f.key, f]));
  for (const [k, rows] of Object.entries(expected)) {
    const f = fields.get(k);
    if (!f) return `expected key ${k} is not in the schema`;
    if (f.data_type === 'table') {
      const cols = new Set(f.fields.map((c) => c.key));
      const stray = rows.flatMap((r) => Object.keys(r)).find((c) => !cols.has(c));
      if (stray) return `${k}: column ${stray} is not in the schema`;
    }
  }
  return null;
}

// ------------------------------------------------------------------ main
function parseArgs(argv) {
  const a = {};
  const valued = [
    '--out',
    '--camelot',
    '--tabula-java',
    '--tabula-py',
    '--pymupdf',
    '--gmft',
    '--traprange',
    '--pdf-extraction-toolkit',
    '--icdar',
  ];
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    if (k === '--verify' || k === '--help') a[k.slice(2)] = true;
    else if (valued.includes(k) && i + 1 < argv.length) a[k.slice(2)] = argv[++i];
    else throw new Error(`unknown or incomplete argument ${k} (see --help)`);
  }
  return a;
}
function insideRepo(dir) {
  const rel = path.relative(REPO_ROOT, path.resolve(dir));
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}
function build(args) {
  const out = path.join(path.resolve(args.out), SET);
  const gits = {
    camelot: new Git(args.camelot, SOURCES.camelot),
    tabulaJava: new Git(args['tabula-java'], SOURCES.tabulaJava),
    tabulaPy: new Git(args['tabula-py'], SOURCES.tabulaPy),
    pymupdf: new Git(args.pymupdf, SOURCES.pymupdf),
    gmft: new Git(args.gmft, SOURCES.gmft),
    traprange: new Git(args.traprange, SOURCES.traprange),
    pdfExtractionToolkit: new Git(args['pdf-extraction-toolkit'], SOURCES.pdfExtractionToolkit),
  };
  const ctx = {
    out,
    docs: new Map(),
    cache: new Map(),
    icdar: icdarHashes(path.resolve(args.icdar ?? path.join(REPO_ROOT, '../shared/corpus/icdar2013-tables'))),
  };
  const report = { tables: [], dropped: [], rejected: [], duplicates: [], refused: [] };
  fs.mkdirSync(out, { recursive: true });
  clearOwn(out);
  for (const fx of FIXTURES.flatMap((f) => expandFixture(gits[f.source], f, ctx.cache))) {
    const git = gits[fx.source];
    const { doc, refused } = addDocument(ctx, git, fx);
    if (refused) {
      report.refused.push({ repo: git.repo, path: fx.pdf, reason: refused });
      continue;
    }
    addTables(ctx, git, fx, doc, report);
  }
  const docs = writeOutputs(ctx, report);
  const cells = report.tables.reduce((s, t) => s + t.cells, 0);
  console.log(
    `${SET}: ${docs.length} fix- documents, ${report.tables.length} tables, ${cells} cells; ${report.dropped.length} cells dropped as not printed, ${report.rejected.length} tables rejected, ${report.duplicates.length} duplicates, ${report.refused.length} PDFs refused`,
  );
  return verify(out);
}
function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    const lines = fs.readFileSync(fileURLToPath(import.meta.url), 'utf8').split('\n');
    console.log(
      lines
        .slice(
          1,
          lines.findIndex((l) => l.startsWith('import ')),
        )
        .map((l) => l.replace(/^\/\/ ?/, ''))
        .join('\n'),
    );
    return 0;
  }
  if (!args.out) throw new Error('--out DIR is required: a directory outside the product repository, e.g. ../corpus-wide');
  if (insideRepo(args.out))
    throw new Error(
      `refusing to write into ${path.resolve(args.out)}: it lies inside the product repository; fixture documents are third-party data for internal evaluation only`,
    );
  if (args.verify) return verify(path.join(path.resolve(args.out), SET)) ? 0 : 1;
  return build(args) ? 0 : 1;
}
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`build-tables-wide: ${e.message}`);
    process.exitCode = 2;
  }
}
