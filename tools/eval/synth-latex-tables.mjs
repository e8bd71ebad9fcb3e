#!/usr/bin/env node
// A generalisation probe for tables typeset the way scientific papers are: writes a dataset of INVENTED tables,
// typeset by pdflatex (Computer Modern, Times and Palatino, ligatures, kerning, math-mode minus and ±, booktabs rules, \multicolumn group
// headings, bold and underlined figures, citations in row labels, one- and two-column pages), laid out like a corpus
// dataset (docs/, expected/, schemas/, manifest.json) for `npm run eval -- --corpus`. The pdfkit generators
// (synth-tables.mjs) print every run where they place it with a standard font; TeX's text layer is different
// (glyph-by-glyph positioning, U+2212 minus, ligature glyphs), which is what real papers give the reader.
//   apt-get install texlive-latex-base texlive-latex-recommended texlive-fonts-recommended texlive-latex-extra
//   node tools/eval/synth-latex-tables.mjs --out /tmp/synth-latex [--count 40] [--seed 11]
//   npm run eval -- --corpus /tmp/synth-latex
// Every word and figure is drawn by a seeded generator from the invented lists below. Expected cells are the
// strings as printed; columns of plain or signed figures are typed `number`. Words are never hyphenated (TeX's
// hyphenation is not predictable here, and the public fixtures keep a broken word as printed, "car- nes").
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliOptions, datasetWriter, randomSource, slug, tableField } from './synth.common.mjs';

const { out, count, seed } = cliOptions({ out: '/tmp/synth-latex', count: 40, seed: 11 });
const SYLLABLES = ['ka', 'lor', 'ven', 'mi', 'sel', 'tra', 'bo', 'nix', 'ra', 'fen', 'gul', 'wes', 'tan', 'ber', 'quen', 'zel'];
const { pick, chance, int, word, rand } = randomSource(seed, SYLLABLES);

const FIRST_HEADS = ['Method', 'Model', 'Approach', 'Dataset', 'Setting', 'System', ''];
const METRICS = ['Accuracy', 'Precision', 'Recall', 'F1', 'BLEU', 'Error', 'Runtime (s)', 'Params', 'AUC', 'Loss', 'Top-1', 'Top-5'];
const GROUPS = [
  ['Train', 'Test'],
  ['Clean', 'Noisy'],
  ['Small', 'Large'],
  ['Val.', 'Test'],
  ['In-domain', 'Out-of-domain'],
];
const SUFFIXES = ['', '-base', '-large', ' (ours)', '++', ' w/o pretraining'];
const FILLER = ['we', 'report', 'the', 'results', 'of', 'each', 'variant', 'on', 'three', 'splits', 'and', 'compare', 'with'];

/** A sentence of invented words and a few function words (body text around the tables). */
const sentence = () => {
  const words = Array.from({ length: int(8, 16) }, () => (chance(0.4) ? pick(FILLER) : word().toLowerCase()));
  return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
};
const paragraph = () => Array.from({ length: int(3, 6) }, sentence).join(' ');

/** A figure as TeX source and as read: decimals, percentages, a signed delta (math minus), a figure ± spread. */
function figure(kind) {
  const v = (rand() * (kind.scale ?? 100)).toFixed(kind.decimals);
  if (kind.kind === 'signed') {
    const neg = chance(0.5);
    return { tex: `$${neg ? '-' : '+'}${v}$`, read: `${neg ? '-' : '+'}${v}`, num: Number(`${neg ? '-' : ''}${v}`) };
  }
  if (kind.kind === 'pm') {
    const s = (rand() * 2).toFixed(kind.decimals);
    return { tex: `${v} $\\pm$ ${s}`, read: `${v} ± ${s}`, num: undefined };
  }
  if (kind.kind === 'percent') return { tex: `${v}\\%`, read: `${v}%`, num: undefined };
  if (kind.kind === 'count') {
    const n = int(1000, 999999);
    return { tex: n.toLocaleString('en-US'), read: n.toLocaleString('en-US'), num: n };
  }
  return { tex: v, read: v, num: Number(v) };
}

/** One table: columns (with an optional group heading over two of them), rows of a label and figures. */
function table(no, narrow) {
  const nCols = narrow ? int(2, 3) : int(3, 6);
  const grouped = !narrow && chance(0.4) && nCols >= 4;
  const groupPair = pick(GROUPS);
  const metric = pick(METRICS);
  const heads = [];
  for (let k = 0; k < nCols; k++) {
    if (grouped && k >= nCols - 2) heads.push({ group: metric, name: groupPair[k - (nCols - 2)] });
    else heads.push({ name: pick(METRICS.filter((m) => !heads.some((h) => h.name === m) && m !== metric)) });
  }
  // A heading with a unit is often set on two lines ("Runtime" over "(s)").
  for (const h of heads) h.stacked = !h.group && /\(/.test(h.name) && chance(0.5);
  // (Papers mark which way a metric is better: "Accuracy ↑", "Error ↓".)
  for (const h of heads) h.arrow = !h.group && !h.stacked && chance(0.25) ? pick(['uparrow', 'downarrow']) : undefined;
  const kinds = heads.map(() => pick(KINDS));
  const text = !narrow && chance(0.3) ? pick(TEXT_HEADS) : undefined;
  const rows = Array.from({ length: int(3, 9) }, () => {
    const label = `${word()}${pick(SUFFIXES)}`;
    const cite = chance(0.3) ? int(1, 40) : undefined;
    const note = text ? Array.from({ length: int(4, 11) }, () => (chance(0.3) ? pick(FILLER) : word().toLowerCase())).join(' ') : undefined;
    return { label, cite, note, cells: kinds.map((k) => figure(k)) };
  });
  markBest(heads, kinds, rows);
  const style = pick(['booktabs', 'booktabs', 'hline', 'plain']);
  const size = pick(['\\small', '\\small', '\\footnotesize', '\\scriptsize', 'resize']);
  return { no, first: pick(FIRST_HEADS), heads, kinds, rows, style, grouped, text, size, notes: chance(0.3) };
}

const KINDS = [
  { kind: 'count' },
  { kind: 'plain', decimals: 1 },
  { kind: 'plain', decimals: 2, scale: 1 },
  { kind: 'plain', decimals: 3, scale: 1 },
  { kind: 'signed', decimals: 2, scale: 5 },
  { kind: 'pm', decimals: 1 },
  { kind: 'percent', decimals: 1 },
];
const TEXT_HEADS = ['Description', 'Notes', 'Training data', 'Remarks'];

/** The best figure of a column in bold, sometimes the second best underlined (as papers mark them). */
function markBest(heads, kinds, rows) {
  heads.forEach((_, k) => {
    if (kinds[k].kind !== 'plain' || !chance(0.6)) return;
    const order = rows.map((r, i) => [r.cells[k].num, i]).sort((a, b) => b[0] - a[0]);
    rows[order[0][1]].cells[k].style = 'textbf';
    if (order[1] && chance(0.4)) rows[order[1][1]].cells[k].style = 'underline';
  });
}

/** A column of plain or signed figures is typed `number` (a signed one printed with TeX's minus, U+2212). */
const numeric = (kind) => kind.kind === 'plain' || kind.kind === 'signed' || kind.kind === 'count';
const esc = (s) => s.replace(/([&%$#_{}])/g, '\\$1');
const cellTex = (c) => (c.style ? `\\${c.style}{${c.tex}}` : c.tex);
const labelTex = (r) => `${esc(r.label)}${r.cite ? `~[${r.cite}]` : ''}`;
const ARROWS = { uparrow: '↑', downarrow: '↓' };
const headTex = (h) =>
  h.stacked ? `\\makecell{${esc(h.name).replace(' (', '\\\\(')}}` : `${esc(h.name)}${h.arrow ? ` $\\${h.arrow}$` : ''}`;

/** The tabular environment of a table (a text column, when there is one, is a wrapped p{} column after the labels). */
function tabular(t) {
  const n = t.heads.length + 1 + (t.text ? 1 : 0);
  const rule = (k) => (t.style === 'booktabs' ? `\\${k}rule` : t.style === 'hline' ? '\\hline' : '');
  const cols = ['l', ...(t.text ? ['p{3.2cm}'] : []), ...t.heads.map(() => (t.style === 'hline' ? 'c' : 'r'))];
  const spec = t.style === 'hline' ? `|${cols.join('|')}|` : cols.join('');
  const lines = [`\\begin{tabular}{${spec}}`, rule('top')];
  if (t.grouped) {
    const g = t.heads.findIndex((h) => h.group) + 1 + (t.text ? 1 : 0);
    lines.push(`${Array.from({ length: g }, () => '').join(' & ')} & \\multicolumn{2}{c}{${esc(t.heads.find((h) => h.group).group)}} \\\\`);
    if (t.style === 'booktabs') lines.push(`\\cmidrule(lr){${g + 1}-${g + 2}}`);
  }
  const heads = [esc(t.first), ...(t.text ? [esc(t.text)] : []), ...t.heads.map(headTex)];
  lines.push(`${heads.join(' & ')} \\\\`, rule('mid'));
  for (const r of t.rows) lines.push(`${[labelTex(r), ...(t.text ? [r.note] : []), ...r.cells.map(cellTex)].join(' & ')} \\\\`);
  lines.push(rule('bottom'), '\\end{tabular}');
  if (n && t.size === 'resize') return `\\resizebox{\\linewidth}{!}{%\n${lines.filter(Boolean).join('\n')}}`;
  return `${t.size}\n${lines.filter(Boolean).join('\n')}`;
}

/** The fonts papers are set in: Computer Modern, Times, Palatino (Debian's texlive-fonts-recommended). */
const FONTS = ['', '\\usepackage{mathptmx}', '\\usepackage{mathpazo}'];

/** A table float: caption above, the tabular, a note line under it; `wide`: across both columns of the page. */
function float(t, wide) {
  const env = wide ? 'table*' : 'table';
  const note = t.notes ? `\n\n\\vspace{2pt}{\\footnotesize $^*$ ${sentence()}}` : '';
  return `\\begin{${env}}[${wide ? 't' : 'h!'}]\n\\centering\n\\caption{${sentence().slice(0, -1)}.}\n${tabular(t)}${note}\n\\end{${env}}\n\n${paragraph()}\n`;
}

function latex(tables, twocolumn, fonts, wide) {
  return `\\documentclass[10pt${twocolumn ? ',twocolumn' : ''}]{article}
${fonts}
\\usepackage[margin=2cm]{geometry}
\\usepackage{booktabs,makecell,graphicx}
\\hyphenpenalty=10000
\\exhyphenpenalty=10000
\\begin{document}
\\section{${word()} ${word().toLowerCase()}}
${paragraph()}

${tables.map((t) => float(t, wide)).join('\n')}
${wide ? Array.from({ length: 6 }, paragraph).join('\n\n') : ''}
\\end{document}
`;
}

/** Column names as the corpus writes them: a group heading over its sub-column joined with " / ". */
const columnName = (h) => (h.group ? `${h.group} / ${h.name}` : `${h.name}${h.arrow ? ` ${ARROWS[h.arrow]}` : ''}`);
function schemaOf(t, page) {
  const names = [...(t.text ? [t.text] : []), ...t.heads.map(columnName)];
  const numbers = [...(t.text ? [false] : []), ...t.kinds.map(numeric)];
  return tableField(t.no, page, t.first || 'Row label', names, numbers);
}

function expectedOf(t) {
  const first = slug(t.first || 'Row label');
  return t.rows.map((r) =>
    Object.fromEntries([
      [first, r.cite ? `${r.label} [${r.cite}]` : r.label],
      ...(t.text ? [[slug(t.text), r.note]] : []),
      ...t.heads.map((h, k) => [slug(columnName(h)), numeric(t.kinds[k]) ? r.cells[k].num : r.cells[k].read]),
    ]),
  );
}

/** pdflatex in a scratch folder: the PDF's bytes and the text of each page (poppler's pdftotext). */
function typeset(source) {
  const dir = mkdtempSync(join(tmpdir(), 'docket-latex-'));
  try {
    writeFileSync(join(dir, 'doc.tex'), source);
    try {
      execFileSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', 'doc.tex'], { cwd: dir, stdio: 'ignore' });
    } catch {
      const errors = readFileSync(join(dir, 'doc.log'), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('!'));
      throw new Error(`pdflatex failed:\n${source}\n${errors.join('\n')}`);
    }
    const pages = execFileSync('pdftotext', [join(dir, 'doc.pdf'), '-'], { encoding: 'utf8' }).split('\f');
    return { bytes: readFileSync(join(dir, 'doc.pdf')), pages };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The page (1-based) whose text holds the caption of table `no`. */
const pageOf = (pages, no) => pages.findIndex((p) => p.includes(`Table ${no}:`)) + 1;

const dataset = datasetWriter(out);
for (let i = 0; i < count; i++) {
  const twocolumn = chance(0.5);
  const wide = twocolumn && chance(0.3);
  const tables = [table(1, twocolumn && !wide), ...(chance(0.3) ? [table(2, twocolumn && !wide)] : [])];
  const { bytes, pages } = typeset(latex(tables, twocolumn, pick(FONTS), wide));
  const id = `latex-table-${String(i).padStart(3, '0')}`;
  const schema = { fields: tables.map((t) => schemaOf(t, pageOf(pages, t.no))) };
  const want = Object.fromEntries(tables.map((t) => [`table_${t.no}`, expectedOf(t)]));
  dataset.add(id, { bytes, ext: 'pdf', mediaType: 'application/pdf', want, schema });
}
dataset.finish();
console.log(`${count} invented LaTeX table documents in ${out}`);
