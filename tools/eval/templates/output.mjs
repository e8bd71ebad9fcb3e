// Corpus-layout output of build-invoices-templates.mjs. Two builders share invoices-wide/ and tables-wide/
// (`einv-`/`fix-` ids belong to the others), so this module touches only `tpl-` files, merges manifest.json
// by id and owns one marked section of PROVENANCE.md.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { INVOICE_SCHEMA } from '../invoices-wide.sources.mjs';

export const PREFIX = 'tpl-';
export const sha256 = (buf) => crypto.createHash('sha256').update(buf).digest('hex');
export const writeJson = (file, obj) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(obj, null, 2) + '\n');
};
const readJson = (file, fallback) => (fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : fallback);

/** The shared invoice schema of the corpus (zugferd-facturx/, invoice2data/): one copy, the e-invoice builder's. */
export { INVOICE_SCHEMA };

/** ASCII slug of a header label (the rule of ../shared/corpus/build-wide.mjs): a column key. */
export function slug(label, max = 40) {
  let s = String(label)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  s = s
    .replace(/%/g, ' pct ')
    .replace(/&/g, ' and ')
    .replace(/#/g, ' no ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (/^[0-9]/.test(s)) s = 'f_' + s;
  return s.slice(0, max).replace(/_+$/g, '') || 'column';
}

/** Per-document table schema: one `table_<n>` field per table, columns = header cells as printed. */
export function tableSchema(tables) {
  return {
    fields: tables.map((t, i) => {
      const used = new Set();
      const fields = t.columns.map((c) => {
        let key = slug(c.label),
          n = 2;
        while (used.has(key)) key = `${slug(c.label)}_${n++}`;
        used.add(key);
        return { key, label: c.label, data_type: c.type };
      });
      return {
        key: `table_${i + 1}`,
        label: `Table ${i + 1}`,
        data_type: 'table',
        description: `The ${t.title} table. Columns: ${t.columns.map((c) => c.label).join(' | ')}. One row per data row, header and total rows excluded.`,
        fields,
      };
    }),
  };
}

/** Removes this builder's files from a set folder (never the other builders' ids). */
export function clearOwn(dir) {
  for (const sub of ['docs', 'expected', 'schemas']) {
    const d = path.join(dir, sub);
    if (!fs.existsSync(d)) continue;
    for (const f of fs.readdirSync(d)) if (f.startsWith(PREFIX)) fs.rmSync(path.join(d, f));
  }
}

/** Writes manifest.json: the other builders' entries kept as they are, ours replaced, sorted by id. */
export function mergeManifest(dir, entries) {
  const file = path.join(dir, 'manifest.json');
  const others = readJson(file, []).filter((m) => !m.id.startsWith(PREFIX));
  writeJson(
    file,
    [...others, ...entries].sort((a, b) => a.id.localeCompare(b.id)),
  );
}

const BEGIN = '<!-- build-invoices-templates: begin -->',
  END = '<!-- build-invoices-templates: end -->';
/** Replaces this builder's marked section of PROVENANCE.md (or appends it), leaving the rest of the file alone. */
export function writeProvenanceSection(dir, markdown) {
  const file = path.join(dir, 'PROVENANCE.md');
  const old = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const section = `${BEGIN}\n${markdown.trim()}\n${END}\n`;
  const i = old.indexOf(BEGIN),
    j = old.indexOf(END);
  const next = i >= 0 && j > i ? old.slice(0, i) + section + old.slice(j + END.length + 1) : (old ? old.trimEnd() + '\n\n' : '') + section;
  fs.writeFileSync(file, next);
}

/** Problems with this builder's documents: sha256 against manifest.json, expected keys against the schemas. */
export function verifySet(dir, { sharedSchema }) {
  const problems = [];
  const manifest = readJson(path.join(dir, 'manifest.json'), []).filter((m) => m.id.startsWith(PREFIX));
  for (const m of manifest) {
    const doc = path.join(dir, m.doc);
    if (!fs.existsSync(doc)) {
      problems.push(`${m.id}: ${m.doc} missing`);
      continue;
    }
    if (sha256(fs.readFileSync(doc)) !== m.sha256) problems.push(`${m.id}: sha256 differs from manifest.json`);
    const schema = sharedSchema ? INVOICE_SCHEMA : readJson(path.join(dir, 'schemas', `${m.id}.json`), null);
    if (!schema) {
      problems.push(`${m.id}: schema missing`);
      continue;
    }
    const expected = readJson(path.join(dir, 'expected', `${m.id}.json`), null);
    if (!expected) {
      problems.push(`${m.id}: expected missing`);
      continue;
    }
    const byKey = new Map(schema.fields.map((f) => [f.key, f]));
    for (const [k, v] of Object.entries(expected)) {
      const f = byKey.get(k);
      if (!f) {
        problems.push(`${m.id}: ${k} not in the schema`);
        continue;
      }
      if (f.data_type !== 'table') continue;
      const cols = new Set(f.fields.map((c) => c.key));
      for (const row of v) for (const c of Object.keys(row)) if (!cols.has(c)) problems.push(`${m.id}: ${k}.${c} not in the schema`);
    }
  }
  return { docs: manifest.length, problems };
}
