#!/usr/bin/env node
// Builds the `tpl-` part of two wide development sets from the invoice templates of open-source invoicing
// programs, read at pinned commits with `git cat-file`:
//
//   invoices-wide/  invoices rendered from each design (shared invoice schema)           ids tpl-<program>-<design>-<lang>-<n>
//   tables-wide/    the same PDFs' line-item / report tables (per-document table schemas)   same ids
//
// Each template is filled with INVENTED data (templates/invented.mjs: seeded, names from syllables) through its
// own template language (Twig: npm `twig`, or Debian's php-twig where the npm port cannot parse the design;
// Mustache: npm `mustache`; ERB: Debian's ruby; plain PHP views: Debian's php-cli; Blade: templates/blade.mjs
// compiled to PHP), printed to PDF with Debian's headless chromium, and read back with poppler's pdftotext: a label
// is kept only when its printed form is on the page, every dropped label is listed in PROVENANCE.md. Templates are
// never edited; helpers only supply data. Invoice Ninja's designs are reserved for independent checking: never read
// (refused by name, like the FeRD/AWV example family).
//
// Usage (from the repository root; needs chromium, poppler-utils, ruby, php-cli and php-twig from Debian):
//   node tools/eval/build-invoices-templates.mjs --out ../corpus-wide --kimai GITDIR [--crater GITDIR ...] [--per-design N]
//   node tools/eval/build-invoices-templates.mjs --out ../corpus-wide --verify
// A probe of the same designs printed by the programs' own PDF engines (outside the development sets; tune ids only,
// so it says nothing about check documents): --printer wkhtmltopdf|dompdf --split tune --out /tmp/probe-wk
// GITDIR is a git directory (mirror or clone) of the program's repository (flags: templates/programs.mjs); programs
// not given are skipped, and their `tpl-` documents are removed: give every program for a full build.
// Other builders write `einv-`/`fix-` ids into the same folders: only `tpl-` files are touched.
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { invent } from './templates/invented.mjs';
import { PRINTER_NAMES, printPdf, pageTexts, printed } from './templates/render.mjs';
import { splitOf } from './split.mjs';
import {
  INVOICE_SCHEMA,
  PREFIX,
  clearOwn,
  mergeManifest,
  sha256,
  tableSchema,
  verifySet,
  writeJson,
  writeProvenanceSection,
} from './templates/output.mjs';
import { provenance } from './templates/provenance.mjs';
import { PROGRAMS } from './templates/programs.mjs';

/** Paths and repositories reserved for independent checking: never read. */
const RESERVED = [
  /invoice-?ninja/i,
  /ZUGFeRD_1p0_/i,
  /zugferd_2p/i,
  /EN16931_/i,
  /XRECHNUNG_/i,
  /Musterrechnung_/i,
  /pdf_zf_/i,
  /intarsys|4s4u|symtrax/i,
  /attributeBasedXMP_zugferd_/i,
  /validV1WithAdditionalData/i,
  /(^|\/)(Extended|ZF)_/,
];
/** Invoices per design (the languages cycle through the design's list); 9 builds the documented set (117 tpl- invoices, 126 tables). */
const DEFAULT_PER_DESIGN = 9;

const args = process.argv.slice(2);
const opt = (n) => {
  const i = args.indexOf(n);
  return i >= 0 ? args[i + 1] : undefined;
};

class Git {
  constructor(dir, { repo, commit }) {
    if (RESERVED.some((re) => re.test(repo))) throw new Error(`${repo} is reserved for independent checking`);
    this.dir = dir;
    this.commit = commit;
    this.repo = repo;
    try {
      this.run(['cat-file', '-e', `${commit}^{commit}`]);
    } catch {
      throw new Error(`${repo}: commit ${commit} is not in ${dir}`);
    }
  }
  run(a, enc = 'utf8') {
    return execFileSync('git', ['--git-dir', this.dir, ...a], { encoding: enc, maxBuffer: 1 << 30 });
  }
  text(p) {
    if (RESERVED.some((re) => re.test(p))) throw new Error(`${p} is reserved for independent checking`);
    return this.run(['cat-file', 'blob', `${this.commit}:${p}`]);
  }
}

function refuseInsideRepo(out) {
  let dir = path.resolve(out);
  for (;;) {
    if (fs.existsSync(path.join(dir, '.git')) && fs.existsSync(path.join(dir, 'apps')) && fs.existsSync(path.join(dir, 'libs'))) {
      throw new Error(`--out ${out} lies inside the product repository: the data must stay outside it`);
    }
    const up = path.dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}

/** Stable small integer from a string (the seed of one invoice). */
const seedOf = (s) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7);

/** Keeps the labels whose printed form is on the page; returns kept values and the dropped keys. */
function checkLabels(texts, doc) {
  const fields = {},
    dropped = [];
  for (const [k, l] of Object.entries(doc.fields)) printed(texts, l.surface) ? (fields[k] = l.value) : dropped.push(k);
  const tables = doc.tables.map((t, ti) =>
    t.rows.map((row, ri) =>
      row.map((cell, ci) => {
        if (cell.value === '') return undefined; // an empty cell: nothing to find
        if (printed(texts, cell.surface)) return cell.value;
        dropped.push(`table_${ti + 1}[${ri}].${t.columns[ci].label}`);
        return undefined;
      }),
    ),
  );
  // Line items a design lists itself (when one cell carries two of them); otherwise they come from the table's roles.
  const items = doc.items?.map((it, ri) =>
    Object.fromEntries(
      Object.entries(it).flatMap(([k, l]) => {
        if (printed(texts, l.surface)) return [[k, l.value]];
        dropped.push(`line_items[${ri}].${k}`);
        return [];
      }),
    ),
  );
  return { fields, tables, items, dropped };
}

function lineItems(t, rows) {
  const roles = t.columns.map((c) => c.role);
  return rows.map((row) => Object.fromEntries(row.map((v, i) => [roles[i], v]).filter(([r, v]) => r && v !== undefined)));
}

function tableRows(schemaField, rows) {
  return rows.map((row) => Object.fromEntries(row.map((v, i) => [schemaField.fields[i].key, v]).filter(([, v]) => v !== undefined)));
}

function buildDesign(git, program, design, perDesign, sets, report) {
  const printer = { name: opt('--printer') ?? 'chromium', split: opt('--split') };
  for (let n = 1; n <= perDesign; n++) {
    const lang = design.langs[(n - 1) % design.langs.length];
    const id = `${PREFIX}${design.source}-${design.design}-${lang}-${n}`.toLowerCase().replace(/[^a-z0-9-]+/g, '-');
    if (printer.split && splitOf(id) !== printer.split) continue;
    const inv = invent(seedOf(id), lang, { ...design.opts, ...(n % 3 === 0 ? { items: [30, 45] } : {}) });
    const doc = design.render(git, inv);
    const pdf = printPdf(doc.html, printer.name);
    const texts = pageTexts(pdf);
    const { fields, tables, items: listed, dropped } = checkLabels(texts, doc);
    const entry = {
      id,
      doc: `docs/${id}.pdf`,
      media_type: 'application/pdf',
      sha256: sha256(pdf),
      source_repo: git.repo,
      source_commit: git.commit,
      source_path: design.path,
      program: program.name,
      design: design.design,
      language: lang,
      pages: texts.pages,
      seed: seedOf(id),
    };
    if (design.invoice) {
      const items = listed ?? lineItems(doc.tables[0], tables[0]);
      const expected = { ...fields, ...(items.length ? { line_items: items } : {}) };
      writeDoc(sets.invoices, id, pdf, expected, null);
      sets.invoices.manifest.push(entry);
    }
    const schema = tableSchema(doc.tables);
    const expectedTables = Object.fromEntries(schema.fields.map((f, i) => [f.key, tableRows(f, tables[i])]));
    writeDoc(sets.tables, id, pdf, expectedTables, schema);
    sets.tables.manifest.push({ ...entry, tables: doc.tables.length });
    report.push({
      id,
      program: program.name,
      design: design.design,
      lang,
      pages: texts.pages,
      invoice: design.invoice,
      fields: Object.keys(fields).length,
      cells: tables.flat(2).filter((v) => v !== undefined).length,
      rows: tables.flat().length,
      dropped,
    });
    process.stderr.write(`${id}: ${texts.pages} page(s), ${dropped.length} label(s) dropped\n`);
  }
}

function writeDoc(set, id, pdf, expected, schema) {
  fs.mkdirSync(path.join(set.dir, 'docs'), { recursive: true });
  fs.writeFileSync(path.join(set.dir, 'docs', `${id}.pdf`), pdf);
  writeJson(path.join(set.dir, 'expected', `${id}.json`), expected);
  if (schema) writeJson(path.join(set.dir, 'schemas', `${id}.json`), schema);
}

function verify(out) {
  const a = verifySet(path.join(out, 'invoices-wide'), { sharedSchema: true });
  const b = verifySet(path.join(out, 'tables-wide'), { sharedSchema: false });
  const problems = [...a.problems, ...b.problems];
  console.log(`verify: invoices-wide ${a.docs} tpl- documents, tables-wide ${b.docs} tpl- documents, ${problems.length} problem(s)`);
  for (const p of problems) console.log(`  ${p}`);
  return problems.length === 0;
}

function main() {
  const out = opt('--out');
  if (!out) {
    console.error('build-invoices-templates: --out DIR is required');
    process.exit(2);
  }
  refuseInsideRepo(out);
  if (args.includes('--verify')) process.exit(verify(out) ? 0 : 1);
  const perDesign = Number(opt('--per-design') ?? DEFAULT_PER_DESIGN);
  if (opt('--printer') && !PRINTER_NAMES.includes(opt('--printer'))) throw new Error(`--printer: one of ${PRINTER_NAMES.join(', ')}`);
  const sets = {
    invoices: { dir: path.join(out, 'invoices-wide'), manifest: [] },
    tables: { dir: path.join(out, 'tables-wide'), manifest: [] },
  };
  for (const s of Object.values(sets)) {
    fs.mkdirSync(s.dir, { recursive: true });
    clearOwn(s.dir);
  }
  const report = [],
    used = [];
  for (const program of PROGRAMS) {
    const gitDir = opt(`--${program.flag}`);
    if (!gitDir) {
      process.stderr.write(`skipping ${program.name}: no --${program.flag} GITDIR\n`);
      continue;
    }
    const git = new Git(gitDir, program.source);
    used.push(program);
    for (const design of program.designs) buildDesign(git, program, design, perDesign, sets, report);
  }
  if (!fs.existsSync(path.join(sets.invoices.dir, 'schema.json'))) writeJson(path.join(sets.invoices.dir, 'schema.json'), INVOICE_SCHEMA);
  mergeManifest(sets.invoices.dir, sets.invoices.manifest);
  mergeManifest(sets.tables.dir, sets.tables.manifest);
  writeProvenanceSection(
    sets.invoices.dir,
    provenance(
      'invoices',
      used,
      report.filter((r) => r.invoice),
    ),
  );
  writeProvenanceSection(sets.tables.dir, provenance('tables', used, report));
  process.exit(verify(out) ? 0 : 1);
}

main();
