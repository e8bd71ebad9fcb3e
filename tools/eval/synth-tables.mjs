#!/usr/bin/env node
// A generalisation check for born-digital statistical tables: writes a dataset of INVENTED tables laid out like a
// corpus dataset (docs/, expected/, schemas/, manifest.json), for `npm run eval -- --corpus`. Every label and figure is
// drawn by a seeded generator from the small invented lists below. Layouts vary the way report tables do: a caption,
// a row-label column without a heading, one- or two-level headings (a group heading over its sub-columns), figures
// with thousands separators, decimals, percentages or a dash for "none", row labels wrapped over two lines, a total
// row, notes and a source line under the table, and one or two tables per page.
//   node tools/eval/synth-tables.mjs --out /tmp/synth-tables [--count 60] [--seed 5]
//   npm run eval -- --corpus /tmp/synth-tables
// Expected cells are the strings as printed (the schema of ../shared/corpus/icdar2013-tables: one table field per
// table, one string column per heading, "Row label" for the unheaded first column).
import { cliOptions, datasetWriter, pdfOfRuns, randomSource } from './synth.common.mjs';

const { out, count, seed } = cliOptions({ out: '/tmp/synth-tables', count: 60, seed: 5 });
const SYLLABLES = [
  'ka',
  'lor',
  'ven',
  'mi',
  'sel',
  'tra',
  'bo',
  'nix',
  'ra',
  'fen',
  'gul',
  'wes',
  'tan',
  'ber',
  'lin',
  'mar',
  'ost',
  'quen',
  'zel',
  'ha',
];
const { pick, chance, int, word } = randomSource(seed, SYLLABLES);

const TOPICS = [
  'Enquiries received',
  'Releases',
  'Households',
  'Registered vehicles',
  'Employment',
  'Imports',
  'Grants awarded',
  'Waste collected',
];
const UNITS = ['tonnes', 'kg/year', 'EUR million', '%', 'thousands', 'number'];
const SUBS = [
  ['to air', 'to water', 'to land'],
  ['men', 'women'],
  ['public', 'private'],
  ['2021', '2022', '2023'],
  ['first half', 'second half'],
  ['rural', 'urban'],
];
const SINGLE = [
  ['2019', '2020', '2021', '2022'],
  ['Number', 'Share %'],
  ['Applications', 'Approved', 'Rejected'],
  ['Budget', 'Spent', 'Balance'],
  ['Applications received', 'Cases closed', 'Average duration'],
];
const slug = (s) =>
  s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '')
    .slice(0, 60);

function figure(style) {
  if (chance(0.06)) return '-';
  const n = int(0, 250000);
  if (style === 'pct') return `${(n / 2500).toFixed(1)}`;
  if (style === 'pctsign') return `${(n / 2500).toFixed(1)} %`;
  if (style === 'dec') return (n / 100).toFixed(2);
  if (style === 'space') return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** One table: its columns (labels), rows of cells, and how it is drawn from y. */
function table(no) {
  const grouped = chance(0.5);
  const group = `${pick(TOPICS).toUpperCase()}`;
  const subs = grouped ? pick(SUBS) : pick(SINGLE);
  const unit = grouped && chance(0.6) ? ` ${pick(UNITS)}` : '';
  const labels = subs.map((s) => (grouped ? `${group}${unit} / ${s}` : s));
  const style = pick(['comma', 'space', 'dec', 'pct', 'pctsign']);
  const figuresLast = chance(0.5); // a wrapped row label has its figures on its last line
  const twoLineHeads = !grouped && subs.some((x) => x.includes(' ')) && chance(0.7); // "Applications" over "received"
  const n = int(4, 14);
  const rows = Array.from({ length: n }, () => {
    const long = chance(0.15);
    const mark = chance(0.1) ? ` (${int(1, 4)})` : '';
    return {
      label: long ? `${word()} ${word()} ${word()} and ${word()} ${word()}${mark}` : `${word()}${chance(0.3) ? ` ${word()}` : ''}${mark}`,
      cells: subs.map(() => figure(style)),
    };
  });
  if (chance(0.4)) rows.push({ label: 'Total', cells: subs.map(() => figure(style)) });
  return {
    no,
    caption: `Table ${no}: ${pick(TOPICS)} by ${pick(['region', 'sector', 'year', 'size class'])}`,
    grouped,
    group,
    unit,
    subs,
    labels,
    rows,
    figuresLast,
    twoLineHeads,
  };
}

function draw(t, y, put) {
  put(50, y, t.caption, 10, false, true);
  y += 22;
  const x0 = 240;
  const step = Math.min(90, Math.floor(300 / t.subs.length));
  const colRight = (i) => x0 + (i + 1) * step;
  if (t.grouped) {
    put(x0 + 10, y, `${t.group}${t.unit}`, 8, false, true);
    y += 12;
  }
  if (t.twoLineHeads) {
    t.subs.forEach((s, i) => {
      const [a, ...b] = s.split(' ');
      put(colRight(i), y, b.length ? a : '', 8, true, true);
      put(colRight(i), y + 10, b.length ? b.join(' ') : a, 8, true, true);
    });
    y += 26;
  } else {
    t.subs.forEach((s, i) => put(colRight(i), y, s, 8, true, true));
    y += 16;
  }
  for (const r of t.rows) {
    // A long row label wraps after its third word; the figures stand on its first line.
    const words = r.label.split(' ');
    const first = words.length > 4 ? words.slice(0, 3).join(' ') : r.label;
    const wrapped = words.length > 4;
    put(50, y, first, 8, false, r.label === 'Total');
    const figuresY = wrapped && t.figuresLast ? y + 11 : y;
    r.cells.forEach((c, i) => put(colRight(i), figuresY, c, 8, true, r.label === 'Total'));
    y += 11;
    if (wrapped) (put(58, y, words.slice(3).join(' '), 8), (y += 11));
  }
  y += 6;
  if (chance(0.5)) (put(50, y, `Note: figures for ${word()} are provisional.`, 7), (y += 10));
  put(50, y, `Source: ${word()} statistical office.`, 7);
  return y + 30;
}

const dataset = datasetWriter(out);
for (let i = 0; i < count; i++) {
  const id = `synth-table-${String(i).padStart(3, '0')}`;
  const runs = [];
  const put = (x, y, text, size = 9, right = false, bold = false) => runs.push({ x, y, text, size, right, bold });
  put(50, 40, `${word()} ${pick(['Annual Report', 'Statistical Bulletin', 'Monitoring Report'])} ${int(2015, 2025)}`, 12, false, true);
  put(50, 60, `This bulletin presents ${pick(TOPICS).toLowerCase()} for the ${word()} area. Figures are rounded.`, 8);
  const tables = [table(1), ...(chance(0.35) ? [table(2)] : [])].filter((t, k) => k === 0 || t.rows.length <= 8);
  let y = 90;
  for (const t of tables) y = draw(t, y, put);
  const schema = {
    fields: tables.map((t) => ({
      key: `table_${t.no}`,
      label: `Table ${t.no} (page 1)`,
      data_type: 'table',
      description: `Table on page 1. Columns: Row label | ${t.labels.join(' | ')}. One row per data row of the table, header rows excluded.`,
      fields: [
        {
          key: 'row_label',
          label: 'Row label',
          data_type: 'string',
          description: 'This column has no header on the page (it holds the row labels).',
        },
        ...t.labels.map((l) => ({ key: slug(l), label: l, data_type: 'string' })),
      ],
    })),
  };
  const want = Object.fromEntries(
    tables.map((t) => [
      `table_${t.no}`,
      t.rows.map((r) => Object.fromEntries([['row_label', r.label], ...t.labels.map((l, k) => [slug(l), r.cells[k]])])),
    ]),
  );
  dataset.add(id, { bytes: await pdfOfRuns([runs]), ext: 'pdf', mediaType: 'application/pdf', want, schema });
}
dataset.finish();
console.log(`${count} invented table documents in ${out}`);
