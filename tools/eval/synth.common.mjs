// Shared by the generators of invented evaluation documents (synth-invoices, synth-tables, synth-forms): the command
// line, a seeded random source, invented words, PDF text runs and the corpus-style dataset folder.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import PDFDocument from 'pdfkit';

/** `--out`, `--count` and `--seed` from the command line, with the generator's defaults. */
export function cliOptions(defaults) {
  const args = process.argv.slice(2);
  const opt = (n, d) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
  return {
    out: resolve(opt('--out', defaults.out)),
    count: Number(opt('--count', defaults.count)),
    seed: Number(opt('--seed', defaults.seed)) >>> 0,
  };
}

/** A seeded random source (mulberry32: the same seed gives the same documents) and the draws the generators use. */
export function randomSource(seed, syllables, avoid = /(?!)/) {
  let state = seed >>> 0;
  const rand = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const chance = (p) => rand() < p;
  const int = (a, b) => a + Math.floor(rand() * (b - a + 1));
  const cap = (s) => s[0].toUpperCase() + s.slice(1);
  /** An invented word of syllables; one that happens to mean something (`avoid`) is drawn again. */
  const word = (n = int(2, 3)) => {
    for (;;) {
      const w = cap(Array.from({ length: n }, () => pick(syllables)).join(''));
      if (!avoid.test(w)) return w;
    }
  };
  return {
    rand,
    pick,
    chance,
    int,
    cap,
    word,
    digits: (n) => Array.from({ length: n }, () => int(0, 9)).join(''),
    letters: (n) => Array.from({ length: n }, () => String.fromCharCode(65 + int(0, 25))).join(''),
  };
}

/** A PDF of text runs ({ x, y, text, size, right, bold }), one array of runs per A4 page. */
export async function pdfOfRuns(pages) {
  const doc = new PDFDocument({ size: 'A4', margin: 0 });
  const chunks = [];
  doc.on('data', (c) => chunks.push(c));
  const done = new Promise((r) => doc.on('end', r));
  pages.forEach((runs, i) => {
    if (i > 0) doc.addPage({ size: 'A4', margin: 0 });
    for (const r of runs) {
      doc.font(r.bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(r.size);
      doc.text(r.text, r.right ? r.x - doc.widthOfString(r.text) : r.x, r.y, { lineBreak: false });
    }
  });
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

/** A dataset folder laid out like a corpus dataset: docs/, expected/, schemas/ (per document, when given), manifest.json. */
export function datasetWriter(out) {
  for (const d of ['docs', 'expected']) mkdirSync(join(out, d), { recursive: true });
  const manifest = [];
  return {
    add(id, { bytes, ext, mediaType, want, schema }) {
      writeFileSync(join(out, 'docs', `${id}.${ext}`), bytes);
      writeFileSync(join(out, 'expected', `${id}.json`), JSON.stringify(want, null, 1));
      if (schema)
        (mkdirSync(join(out, 'schemas'), { recursive: true }),
          writeFileSync(join(out, 'schemas', `${id}.json`), JSON.stringify(schema, null, 1)));
      manifest.push({ id, doc: `docs/${id}.${ext}`, media_type: mediaType, sha256: createHash('sha256').update(bytes).digest('hex') });
    },
    finish: () => writeFileSync(join(out, 'manifest.json'), JSON.stringify(manifest, null, 1)),
  };
}

/** A column key from its label, as the corpus's table schemas write them ("Runtime (s)" → "runtime_s"). */
export const slug = (s) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '') || 'column';

/**
 * The schema field of table `no` printed on `page`: its first column (row labels; "Row label" when unheaded), then
 * the named columns, each typed `number` where `numbers[k]` says so, else `string`.
 */
export function tableField(no, page, first, names, numbers = []) {
  return {
    key: `table_${no}`,
    label: `Table ${no} (page ${page})`,
    data_type: 'table',
    description: `Table on page ${page}. Columns: ${[first, ...names].join(' | ')}. One row per data row of the table, header rows excluded.`,
    fields: [
      { key: slug(first), label: first, data_type: 'string' },
      ...names.map((l, k) => ({ key: slug(l), label: l, data_type: numbers[k] ? 'number' : 'string' })),
    ],
  };
}

/**
 * HTML documents printed to PDF by one headless LibreOffice Writer run (Debian's libreoffice-writer-nogui); each PDF's
 * bytes and its text as poppler's pdftotext reads it, in layout mode and in reading order (pages split by form feeds).
 */
export function printWithOffice(htmls) {
  const dir = mkdtempSync(join(tmpdir(), 'docket-office-'));
  try {
    htmls.forEach((h, k) => writeFileSync(join(dir, `d${k}.html`), h));
    const files = readdirSync(dir).filter((f) => f.endsWith('.html'));
    const args = ['--headless', '--infilter=HTML (StarWriter)', '--convert-to', 'pdf:writer_pdf_Export', '--outdir', dir];
    execFileSync('soffice', [...args, ...files.map((f) => join(dir, f))], { stdio: 'ignore', env: { ...process.env, HOME: dir } });
    return htmls.map((_, k) => {
      const pdf = join(dir, `d${k}.pdf`);
      const text = (mode) => execFileSync('pdftotext', [...mode, pdf, '-'], { encoding: 'utf8' });
      return { bytes: readFileSync(pdf), layout: text(['-layout']), raw: text([]) };
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
