#!/usr/bin/env node
// A generalisation probe for report tables printed by an office suite: writes a dataset of INVENTED statistical
// tables as HTML, prints them to PDF with LibreOffice Writer (headless), and lays them out like a corpus dataset
// (docs/, expected/, schemas/, manifest.json) for `npm run eval -- --corpus`. LibreOffice's text layer differs from
// pdfkit's and Chromium's (its own word spacing, Liberation fonts, cell padding, ruled or plain tables), which is
// what reports written in a word processor give the reader.
//   apt-get install --no-install-recommends libreoffice-writer-nogui poppler-utils
//   node tools/eval/synth-office-tables.mjs --out /tmp/synth-office [--count 40] [--seed 7]
//   npm run eval -- --corpus /tmp/synth-office
// Every word and figure is drawn by a seeded generator from the invented lists below. Expected cells are the strings
// as printed (every column typed `string`, as in synth-tables.mjs); a totals row is a row; notes under a table are not.
import { cliOptions, datasetWriter, printWithOffice, randomSource, slug, tableField } from './synth.common.mjs';

const { out, count, seed } = cliOptions({ out: '/tmp/synth-office', count: 40, seed: 7 });
const SYLLABLES = ['ka', 'lor', 'ven', 'mi', 'sel', 'tra', 'bo', 'nix', 'ra', 'fen', 'gul', 'wes', 'tan', 'ber', 'quen', 'zel'];
const { pick, chance, int, word, rand } = randomSource(seed, SYLLABLES);

const TOPICS = ['Visitors', 'Permits issued', 'Households', 'Tonnes collected', 'Enrolments', 'Staff employed', 'Claims settled'];
const SUBS = [
  ['2019', '2020', '2021', '2022'],
  ['Men', 'Women', 'Total'],
  ['Public', 'Private'],
  ['Q1', 'Q2', 'Q3', 'Q4'],
  ['Number', 'Share (%)'],
  ['Rural', 'Urban', 'All areas'],
];
const FONTS = ['Liberation Serif', 'Liberation Sans', 'DejaVu Sans'];
const FILLER = ['the', 'of', 'and', 'in', 'per', 'area', 'total', 'figures', 'are', 'rounded'];

const sentence = () => {
  const words = Array.from({ length: int(8, 15) }, () => (chance(0.35) ? pick(FILLER) : word().toLowerCase()));
  return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
};

/** A figure as a report prints it: thousands separators, one decimal, or a share. */
function figure(style) {
  if (style === 'count') return int(0, 250000).toLocaleString('en-US');
  if (style === 'decimal') return (rand() * 1000).toFixed(1);
  return `${(rand() * 100).toFixed(1)}`;
}

/** A row label: a region or category of invented words, now and then long enough to wrap in its cell. */
const rowLabel = () =>
  chance(0.2)
    ? `${word()} ${word().toLowerCase()} and ${word().toLowerCase()} ${word().toLowerCase()} district`
    : `${word()} ${pick(['', 'North', 'South', 'East', 'West'])}`.trim();

function table(no) {
  const grouped = chance(0.4);
  const subs = pick(SUBS);
  const group = grouped ? pick(TOPICS) : undefined;
  const first = pick(['', 'Region', 'Category', 'Area']);
  const style = pick(['count', 'decimal', 'share']);
  const rows = Array.from({ length: int(3, 12) }, () => ({ label: rowLabel(), cells: subs.map(() => figure(style)) }));
  if (chance(0.4)) rows.push({ label: 'Total', cells: subs.map(() => figure(style)), total: true });
  return {
    no,
    grouped,
    group,
    subs,
    first,
    rows,
    ruled: chance(0.6),
    caption: `${pick(TOPICS)} by ${pick(['region', 'year', 'category', 'sector'])}`,
    note: chance(0.4),
  };
}

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

function tableHtml(t) {
  const border = t.ruled ? ' border="1" cellspacing="0"' : ' cellspacing="0"';
  const heads = t.grouped
    ? `<tr><th rowspan="2" align="left">${esc(t.first)}</th><th colspan="${t.subs.length}">${esc(t.group)}</th></tr><tr>${t.subs.map((s) => `<th align="right">${esc(s)}</th>`).join('')}</tr>`
    : `<tr><th align="left">${esc(t.first)}</th>${t.subs.map((s) => `<th align="right">${esc(s)}</th>`).join('')}</tr>`;
  const body = t.rows
    .map((r) => {
      const b = (x) => (r.total ? `<b>${x}</b>` : x);
      return `<tr><td width="35%">${b(esc(r.label))}</td>${r.cells.map((c) => `<td align="right">${b(c)}</td>`).join('')}</tr>`;
    })
    .join('\n');
  const note = t.note ? `<p><small>Source: ${esc(sentence())}</small></p>` : '';
  return `<p><b>Table ${t.no}: ${esc(t.caption)}</b></p>\n<table width="100%" cellpadding="3"${border}>\n${heads}\n${body}\n</table>\n${note}`;
}

function documentHtml(tables, font) {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body { font-family: '${font}'; font-size: ${pick([9, 10, 11])}pt; }</style></head><body>
<h2>${word()} ${pick(['Annual Report', 'Statistical Bulletin', 'Monitoring Report'])} ${int(2015, 2025)}</h2>
<p>${sentence()} ${sentence()} ${sentence()}</p>
${tables.map((t) => `${tableHtml(t)}\n<p>${sentence()} ${sentence()}</p>`).join('\n')}
</body></html>`;
}

/** Column names as the corpus writes them: a group heading over its sub-column joined with " / ". */
const columnName = (t, s) => (t.grouped ? `${t.group} / ${s}` : s);
const schemaOf = (t, page) =>
  tableField(
    t.no,
    page,
    t.first || 'Row label',
    t.subs.map((s) => columnName(t, s)),
  );

const expectedOf = (t) =>
  t.rows.map((r) =>
    Object.fromEntries([[slug(t.first || 'Row label'), r.label], ...t.subs.map((s, k) => [slug(columnName(t, s)), r.cells[k]])]),
  );

const docs = Array.from({ length: count }, () => {
  const tables = [table(1), ...(chance(0.35) ? [table(2)] : [])];
  return { tables, html: documentHtml(tables, pick(FONTS)) };
});
const printed = printWithOffice(docs.map((d) => d.html)).map((p) => ({ bytes: p.bytes, pages: p.raw.split('\f') }));
const dataset = datasetWriter(out);
docs.forEach(({ tables }, i) => {
  const { bytes, pages } = printed[i];
  const pageOf = (no) => pages.findIndex((p) => p.includes(`Table ${no}:`)) + 1;
  const schema = { fields: tables.map((t) => schemaOf(t, pageOf(t.no))) };
  const want = Object.fromEntries(tables.map((t) => [`table_${t.no}`, expectedOf(t)]));
  dataset.add(`office-table-${String(i).padStart(3, '0')}`, { bytes, ext: 'pdf', mediaType: 'application/pdf', want, schema });
});
dataset.finish();
console.log(`${count} invented office-suite table documents in ${out}`);
