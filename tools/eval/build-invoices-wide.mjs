#!/usr/bin/env node
// Builds the e-invoice half of the wide invoice development set (issue 19): real hybrid e-invoice PDFs
// (Factur-X / ZUGFeRD / XRechnung with embedded CII or UBL XML) from the test fixtures and sample folders of
// open-source e-invoice libraries, read at pinned commits with `git cat-file`. The embedded XML is the truth
// (einvoice-labels.mjs); qpdf removes the embedded files so the engine sees only the pages.
//
// Usage:
//   node tools/eval/build-invoices-wide.mjs --out DIR --<source> GITDIR ...   build (every source below), then verify
//   node tools/eval/build-invoices-wide.mjs --out DIR --verify                 only verify sha256s and expected keys
// DIR is the set folder, e.g. ../corpus-wide/invoices-wide; it must lie outside the product repository.
// Needs qpdf, pdftotext, pdfinfo and pdfdetach (Debian: qpdf, poppler-utils). Ids are `einv-*`; another builder
// (build-invoices-templates.mjs, ids `tpl-*`) shares the folder: each one replaces only its own ids and files
// and merges manifest.json, unlabelled.json and its own block of PROVENANCE.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { parseEinvoiceXml, deriveExpected, pageLanguage, squash } from './einvoice-labels.mjs';
import { INVOICE_SCHEMA, SOURCES, isReserved, isReservedProducer, isUnwanted } from './invoices-wide.sources.mjs';
import { writeProvenance } from './invoices-wide.provenance.mjs';

const ID_PREFIX = 'einv-';
/** At most this many documents per page-layout family (issue 19). */
const MAX_PER_LAYOUT = 5;
/** Two first pages of one program belong to one layout family when their label-word sets overlap this much (Jaccard). */
const LAYOUT_SIMILARITY = 0.5;
/** …and of any two programs (the same page design stamped by another embedding tool or version) when this much. */
const CROSS_PROGRAM_SIMILARITY = 0.6;
/** Metadata spellings of one generating program (sample apps of one library, an embedder's renamed releases). */
const PROGRAM_ALIASES = [
  [/mustang|gnuaccounting|^my application$|toecount/, 'mustang / gnuaccounting sample'],
  [/zugferd-kit|factur-x\.js/, 'factur-x-kit (zugferd-kit, pdf-lib)'],
  [/factur-x python lib/, 'factur-x python lib (page generator not named)'],
];
/** Richer XML profiles first when a layout family or a page text has more candidates than it keeps. */
const PROFILE_RANK = [/extended/i, /en16931|comfort|xrechnung/i, /basic(?!.?wl)/i, /basic.?wl/i, /minimum/i];

const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
const readJson = (f, dflt) => (fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : dflt);
const writeJson = (f, obj) => {
  fs.mkdirSync(path.dirname(f), { recursive: true });
  fs.writeFileSync(f, JSON.stringify(obj, null, 2) + '\n');
};
const run = (cmd, args, enc = 'utf8') => execFileSync(cmd, args, { encoding: enc, maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
const profileRank = (p) => {
  const i = PROFILE_RANK.findIndex((re) => re.test(p));
  return i < 0 ? PROFILE_RANK.length : i;
};

class Git {
  constructor(dir, { repo, commit }) {
    this.dir = dir;
    this.commit = commit;
    this.repo = repo;
    if (!fs.existsSync(dir)) throw new Error(`${repo}: git directory ${dir} not found. Mirror github:${repo} and pass its git directory.`);
    try {
      this.git(['cat-file', '-e', `${commit}^{commit}`]);
    } catch {
      throw new Error(`${repo}: commit ${commit} is not in ${dir}`);
    }
  }
  git(args, enc) {
    return run('git', ['--git-dir', this.dir, ...args], enc);
  }
  pdfs(prefix) {
    return this.git(['ls-tree', '-r', '--name-only', this.commit, '--', prefix])
      .split('\n')
      .filter((p) => /\.pdf$/i.test(p));
  }
  blob(p) {
    return this.git(['cat-file', 'blob', `${this.commit}:${p}`], 'buffer');
  }
}

// ------------------------------------------------------------------ one PDF: XML out, attachments removed, page text
function pdfFacts(file) {
  const info = run('pdfinfo', [file]);
  const field = (k) => (new RegExp(`^${k}:\\s*(.*)$`, 'm').exec(info)?.[1] ?? '').trim();
  const names = run('pdfdetach', ['-list', file])
    .split('\n')
    .map((l) => /^\d+:\s*(.*)$/.exec(l)?.[1])
    .filter(Boolean);
  return { creator: field('Creator'), producer: field('Producer'), pages: Number(field('Pages')) || 0, attachments: names };
}
function extractXml(file, names, tmp) {
  const i = names.findIndex((n) => /\.xml$/i.test(n));
  if (i < 0) return null;
  const out = path.join(tmp, 'embedded.xml');
  run('pdfdetach', ['-save', String(i + 1), '-o', out, file]);
  return fs.readFileSync(out, 'utf8');
}
/** Removes every embedded file; fails when the invoice XML can still be found in the rewritten PDF. */
function stripAttachments(src, names, dst) {
  const keys = run('qpdf', ['--list-attachments', src])
    .split('\n')
    .map((l) => /^(.+?) -> \d+,\d+$/.exec(l)?.[1])
    .filter(Boolean);
  if (!keys.length && names.length) throw new Error('qpdf lists no attachment keys');
  run('qpdf', ['--warning-exit-0', src, ...keys.map((k) => `--remove-attachment=${k}`), dst]);
  const left = run('pdfdetach', ['-list', dst]);
  const body = run('qpdf', ['--warning-exit-0', '--qdf', '--object-streams=disable', dst, '-'], 'latin1');
  if (!/^0 embedded files/m.test(left) || /GrandTotalAmount|LegalMonetaryTotal|TaxBasisTotalAmount/.test(body))
    throw new Error('embedded XML still present after qpdf');
}
const pageText = (file, first) => run('pdftotext', ['-layout', ...(first ? ['-f', '1', '-l', '1'] : []), file, '-']);

/** The generating program: the application before "(via …)" or else Creator + Producer, versions removed. */
export function programOf(creator, producer) {
  const strip = (s) =>
    s
      .replace(/\(.*?\)|\+\S*/g, ' ')
      .replace(/\bv?\d+([._-]\d+)*[a-z]*\d*\b/gi, ' ')
      .replace(/[®©]|snapshot|beta|alpha/gi, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .toLowerCase();
  const via = /^(.*?)\(via /i.exec(producer);
  const name = via && strip(via[1]) ? strip(via[1]) : [strip(creator), strip(producer)].filter(Boolean).join(' / ') || 'unknown';
  return PROGRAM_ALIASES.find(([re]) => re.test(name))?.[1] ?? name;
}
const labelWords = (t) =>
  new Set(
    t
      .normalize('NFKC')
      .toLowerCase()
      .split(/[^\p{L}]+/u)
      .filter((w) => w.length >= 3),
  );
function jaccard(a, b) {
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  return n / (a.size + b.size - n || 1);
}

// ------------------------------------------------------------------ candidates
function readCandidate(src, key, p, tmp, log) {
  const orig = path.join(tmp, 'orig.pdf'),
    stripped = path.join(tmp, 'stripped.pdf');
  fs.writeFileSync(orig, src.blob(p));
  let facts;
  try {
    facts = pdfFacts(orig);
  } catch {
    log.push([key, p, 'not a readable PDF']);
    return null;
  }
  if (isReservedProducer(`${facts.creator} ${facts.producer}`)) {
    log.push([key, p, 'reserved family (producer)']);
    return null;
  }
  const xml = extractXml(orig, facts.attachments, tmp);
  if (!xml) {
    log.push([key, p, 'no embedded XML']);
    return null;
  }
  let inv;
  try {
    inv = parseEinvoiceXml(xml);
  } catch (e) {
    log.push([key, p, `XML not used: ${e.message}`]);
    return null;
  }
  stripAttachments(orig, facts.attachments, stripped);
  const buf = fs.readFileSync(stripped),
    text = pageText(stripped),
    first = pageText(stripped, true);
  if (!squash(text)) {
    log.push([key, p, 'no text layer']);
    return null;
  }
  return { source: key, path: p, buf, text, first, inv, ...facts, program: programOf(facts.creator, facts.producer) };
}
function collectCandidates(gits, tmp, log) {
  const out = [],
    seenBlob = new Set();
  for (const [key, src] of Object.entries(gits)) {
    for (const prefix of SOURCES[key].include) {
      for (const p of src.pdfs(prefix)) {
        if (isReserved(p)) continue; // reserved for independent checking: never read
        if (isUnwanted(p)) {
          log.push([key, p, 'deliberately invalid / not an invoice (name)']);
          continue;
        }
        const blobId = src.git(['rev-parse', `${src.commit}:${p}`]).trim();
        if (seenBlob.has(blobId)) {
          log.push([key, p, 'byte-identical to an earlier file']);
          continue;
        }
        seenBlob.add(blobId);
        const c = readCandidate(src, key, p, tmp, log);
        if (c) out.push(c);
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------ selection
/** Same page text (several profiles of one invoice): keep the richest profile. */
function dedupePages(cands, log) {
  const byText = new Map();
  for (const c of cands) {
    const k = sha256(squash(c.text));
    const prev = byText.get(k);
    if (!prev || profileRank(c.inv.profile) < profileRank(prev.inv.profile)) {
      if (prev) log.push([prev.source, prev.path, 'same page text as a richer profile']);
      byText.set(k, c);
    } else log.push([c.source, c.path, 'same page text as a richer profile']);
  }
  return [...byText.values()];
}
/** Groups candidates into page-layout families (program + first-page label words) and keeps MAX_PER_LAYOUT of each. */
function selectLayouts(cands, log) {
  const families = [];
  for (const c of cands) {
    c.words = labelWords(c.first);
    const f = families.find(
      (fam) => jaccard(fam.words, c.words) >= (fam.program === c.program ? LAYOUT_SIMILARITY : CROSS_PROGRAM_SIMILARITY),
    );
    if (f) f.members.push(c);
    else families.push({ program: c.program, words: c.words, members: [c] });
  }
  const kept = [];
  families.forEach((fam, i) => {
    fam.members.sort(
      (a, b) => profileRank(a.inv.profile) - profileRank(b.inv.profile) || a.source.localeCompare(b.source) || a.path.localeCompare(b.path),
    );
    fam.members.forEach((c, k) => {
      c.layout = `L${String(i + 1).padStart(2, '0')}`;
      if (k < MAX_PER_LAYOUT) kept.push(c);
      else log.push([c.source, c.path, `layout family ${c.layout} already has ${MAX_PER_LAYOUT}`]);
    });
  });
  return { kept, families: families.length };
}
function idFor(c, used) {
  const base = `${ID_PREFIX}${c.source}-${path
    .basename(c.path, path.extname(c.path))
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 48)}`;
  let id = base,
    n = 2;
  while (used.has(id)) id = `${base}-${n++}`;
  used.add(id);
  return id;
}

// ------------------------------------------------------------------ output (shared folder: own ids only)
function clearOwn(out) {
  for (const sub of ['docs', 'expected']) {
    const d = path.join(out, sub);
    if (fs.existsSync(d)) for (const f of fs.readdirSync(d)) if (f.startsWith(ID_PREFIX)) fs.rmSync(path.join(d, f));
  }
}
function writeSet(out, docs, ctx) {
  clearOwn(out);
  writeJson(path.join(out, 'schema.json'), INVOICE_SCHEMA);
  const manifest = readJson(path.join(out, 'manifest.json'), []).filter((m) => !m.id.startsWith(ID_PREFIX));
  const unlabelled = Object.fromEntries(
    Object.entries(readJson(path.join(out, 'unlabelled.json'), {})).filter(([id]) => !id.startsWith(ID_PREFIX)),
  );
  for (const d of docs) {
    fs.mkdirSync(path.join(out, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(out, 'docs', `${d.id}.pdf`), d.buf);
    writeJson(path.join(out, 'expected', `${d.id}.json`), d.labels.expected);
    if (d.labels.unlabelled.length) unlabelled[d.id] = d.labels.unlabelled;
    manifest.push({
      id: d.id,
      doc: `docs/${d.id}.pdf`,
      media_type: 'application/pdf',
      sha256: sha256(d.buf),
      builder: 'build-invoices-wide.mjs',
      source_repo: SOURCES[d.source].repo,
      source_commit: SOURCES[d.source].commit,
      source_path: d.path,
      program: d.program,
      creator: d.creator,
      producer: d.producer,
      layout_family: d.layout,
      language: d.language,
      syntax: d.inv.syntax,
      profile: d.inv.profile,
      type_code: d.inv.type_code,
      pages: d.pages,
    });
  }
  manifest.sort((a, b) => a.id.localeCompare(b.id));
  writeJson(path.join(out, 'manifest.json'), manifest);
  writeJson(path.join(out, 'unlabelled.json'), Object.fromEntries(Object.entries(unlabelled).sort(([a], [b]) => a.localeCompare(b))));
  writeProvenance(out, docs, ctx);
}

export function verify(out) {
  const manifest = readJson(path.join(out, 'manifest.json'), null);
  if (!manifest) {
    console.error(`${out}: not built (no manifest.json)`);
    return false;
  }
  const keys = new Set(readJson(path.join(out, 'schema.json'), { fields: [] }).fields.map((f) => f.key));
  let bad = 0;
  for (const m of manifest) {
    const f = path.join(out, m.doc);
    if (!fs.existsSync(f)) {
      console.error(`${m.doc}: missing`);
      bad++;
      continue;
    }
    if (sha256(fs.readFileSync(f)) !== m.sha256) {
      console.error(`${m.doc}: sha256 mismatch`);
      bad++;
      continue;
    }
    const extra = Object.keys(readJson(path.join(out, 'expected', `${m.id}.json`), {})).filter((k) => !keys.has(k));
    if (extra.length) {
      console.error(`${m.id}: expected keys not in schema.json: ${extra.join(', ')}`);
      bad++;
    }
  }
  const expIds = fs
    .readdirSync(path.join(out, 'expected'))
    .map((x) => x.replace(/\.json$/, ''))
    .sort();
  if (JSON.stringify(expIds) !== JSON.stringify(manifest.map((m) => m.id).sort())) {
    console.error('expected/ ids differ from manifest.json ids');
    bad++;
  }
  console.log(
    `${path.basename(out)}: ${manifest.length - bad}/${manifest.length} documents match their sha256 and the schema (${manifest.filter((m) => m.id.startsWith(ID_PREFIX)).length} ${ID_PREFIX}*)`,
  );
  return bad === 0;
}

// ------------------------------------------------------------------ main
function productRepoAround(dir) {
  let d = path.resolve(dir);
  while (!fs.existsSync(d)) d = path.dirname(d);
  for (d = fs.realpathSync(d); ; d = path.dirname(d)) {
    if (['.git', 'apps', 'libs'].every((x) => fs.existsSync(path.join(d, x)))) return d;
    if (path.dirname(d) === d) return null;
  }
}
function parseArgs(argv) {
  const a = { gits: {} };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (k === 'verify' || k === 'help') a[k] = true;
    else if (k === 'out' && argv[i + 1]) a.out = argv[++i];
    else if (SOURCES[k] && argv[i + 1]) a.gits[k] = argv[++i];
    else
      throw new Error(
        `unknown or incomplete argument ${argv[i]} (sources: ${Object.keys(SOURCES)
          .map((s) => `--${s}`)
          .join(' ')})`,
      );
  }
  return a;
}
function build(out, gitDirs) {
  const missing = Object.keys(SOURCES).filter((k) => !gitDirs[k]);
  if (missing.length)
    throw new Error(`git directories missing for: ${missing.map((k) => `--${k} (github:${SOURCES[k].repo})`).join(', ')}`);
  const gits = Object.fromEntries(Object.entries(gitDirs).map(([k, d]) => [k, new Git(d, SOURCES[k])]));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'einv-')),
    log = [];
  try {
    const all = collectCandidates(gits, tmp, log);
    const docs = [];
    for (const c of all) {
      c.labels = deriveExpected(c.inv, c.text);
      if (!('invoice_number' in c.labels.expected) && !('total_amount' in c.labels.expected)) {
        log.push([c.source, c.path, 'neither the XML invoice number nor its total is printed: the XML describes another invoice']);
        continue;
      }
      docs.push(c);
    }
    const { kept, families } = selectLayouts(dedupePages(docs, log), log);
    const used = new Set();
    for (const d of kept) {
      d.id = idFor(d, used);
      d.language = pageLanguage(d.text);
    }
    kept.sort((a, b) => a.id.localeCompare(b.id));
    writeSet(out, kept, { log, families, candidates: all.length });
    const programs = new Set(kept.map((d) => d.program)),
      langs = new Set(kept.map((d) => d.language));
    console.log(
      `invoices-wide (${ID_PREFIX}*): ${kept.length} documents, ${families} layout families, ${programs.size} programs, languages ${[...langs].join('/')}`,
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
function main() {
  const args = parseArgs(process.argv.slice(2));
  if (args.help) {
    console.log(
      fs
        .readFileSync(new URL(import.meta.url), 'utf8')
        .split('\n')
        .slice(1, 14)
        .map((l) => l.replace(/^\/\/ ?/, ''))
        .join('\n'),
    );
    return 0;
  }
  if (!args.out) throw new Error('--out DIR is required, e.g. ../corpus-wide/invoices-wide');
  const out = path.resolve(args.out);
  if (args.verify) return verify(out) ? 0 : 1;
  const repo = productRepoAround(out);
  if (repo)
    throw new Error(
      `refusing to write into ${out}: it lies inside the product repository ${repo}. The documents are for internal evaluation only and must never be committed; pass an --out outside it.`,
    );
  build(out, args.gits);
  return verify(out) ? 0 : 1;
}
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`build-invoices-wide.mjs: ${e.message}`);
    process.exitCode = 2;
  }
}
