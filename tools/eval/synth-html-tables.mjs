#!/usr/bin/env node
// A generalisation probe for tables as web pages and HTML reports print them: writes a dataset of INVENTED tables as
// HTML, prints each page to PDF with headless Chromium (Skia's text layer: its own glyph runs, word spacing and font
// fallbacks, unlike pdfkit, TeX or LibreOffice), and lays them out like a corpus dataset (docs/, expected/, schemas/,
// manifest.json) for `npm run eval -- --corpus`. Five kinds of table, as reports and data pages set them:
// statistical tables (group headings over sub-columns, row groups under a spanning label, totals), bank statements
// (date, description, debit, credit, balance; often over two pages, the header repeated or not), timetables (stops
// down, services across, dashes for "does not stop"), financial statements (section rows, indented labels, subtotals,
// negatives in parentheses) and data listings (zebra stripes, centred cells, wrapped text, percent and currency).
// Styles vary per table: grid, horizontal rules, booktabs-like thick rules or none; header backgrounds; serif, sans
// and monospaced faces at 8–12 pt; right- or centre-aligned figures; thousands separators 1,234 / 1 234 / 1.234;
// landscape pages; several tables a page; captions above and notes under.
//   apt-get install chromium poppler-utils
//   node tools/eval/synth-html-tables.mjs --out /tmp/synth-html [--count 40] [--seed 5]
//   npm run eval -- --corpus /tmp/synth-html
// Every word and figure is drawn by a seeded generator from the invented lists below. Expected cells are the strings
// as printed (every column typed `string`, as in synth-office-tables.mjs): a cell left empty is "", a row label
// spanning a row group is printed once and so belongs to the group's first row, a section row (a label over its items,
// no figures) is a row, a totals row is a row, notes under a table are not. Column names join a group heading and its
// sub-column with " / " and the lines of a heading with a space.
import { cliOptions, datasetWriter, randomSource, slug, tableField } from './synth.common.mjs';
import { pageTexts, printPdf, squash } from './templates/render.mjs';

const { out, count, seed } = cliOptions({ out: '/tmp/synth-html', count: 40, seed: 5 });
const SYLLABLES = ['da', 'rim', 'vo', 'sel', 'qua', 'tor', 'bel', 'nu', 'fra', 'lin', 'gos', 'mer', 'pa', 'zun', 'ke', 'wal'];
const { pick, chance, int, word, rand } = randomSource(seed, SYLLABLES);

const FONTS = {
  serif: ['Liberation Serif', 'DejaVu Serif', 'TeX Gyre Termes', 'P052', 'Bitstream Charter'],
  sans: ['Liberation Sans', 'DejaVu Sans', 'Lato', 'TeX Gyre Heros', 'Nimbus Sans'],
  mono: ['DejaVu Sans Mono', 'Liberation Mono', 'Noto Sans Mono'],
};
const FILLER = ['the', 'of', 'and', 'in', 'for', 'per', 'all', 'figures', 'are', 'shown', 'as', 'at', 'year', 'end'];
const TOPICS = ['Arrivals', 'Licences', 'Dwellings', 'Cargo handled', 'Enrolled pupils', 'Employees', 'Claims'];
const SUBS = [
  ['2021', '2022', '2023'],
  ['Men', 'Women'],
  ['Number', '%'],
  ['Q1', 'Q2', 'Q3', 'Q4'],
  ['Inland', 'Coastal', 'All'],
];
const UNITS = ['', ' (000s)', ' (%)', ' (t)'];
const DASHES = ['–', '—', '-', '..', 'n/a'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const sentence = (n = int(8, 16)) => {
  const words = Array.from({ length: n }, () => (chance(0.35) ? pick(FILLER) : word().toLowerCase()));
  return `${words.join(' ').replace(/^./, (c) => c.toUpperCase())}.`;
};
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** A number format of one document: thousands separator, decimal mark, how a negative prints, currency placement. */
function numberFormat() {
  const sep = pick([',', ',', '\u00a0', '.', '']);
  const dec = sep === '.' || (sep === '\u00a0' && chance(0.6)) ? ',' : '.';
  return { sep, dec, neg: pick(['minus', 'paren', 'minus', 'unicode']), currency: pick(['', '', '$', '€', '£']) };
}

/** A figure as printed: `v` with `d` decimals in the document's format; `cur` puts the currency sign on it. */
function fmt(f, v, d, cur = false) {
  const [int_, frac] = Math.abs(v).toFixed(d).split('.');
  const grouped = int_.replace(/\B(?=(\d{3})+(?!\d))/g, f.sep);
  let s = frac ? `${grouped}${f.dec}${frac}` : grouped;
  if (cur && f.currency) s = f.currency === '€' && f.dec === ',' ? `${s} €` : `${f.currency}${s}`;
  if (v >= 0) return s;
  return f.neg === 'paren' ? `(${s})` : f.neg === 'unicode' ? `\u2212${s}` : `-${s}`;
}

/** A row label of invented words, now and then long enough to wrap in its cell. */
const label = (long = 0.15) =>
  chance(long)
    ? `${word()} ${word().toLowerCase()} and ${word().toLowerCase()} ${pick(['services', 'works', 'supplies'])}`
    : `${word()}${chance(0.3) ? ` ${word().toLowerCase()}` : ''}`;

/** A table: `cols` ({ name, head, num }), header rows as HTML, body rows ({ cells, kind: item|section|total, indent }). */
function statsTable(f) {
  const grouped = chance(0.5);
  const group = `${pick(TOPICS)}${pick(UNITS)}`;
  const subs = pick(SUBS);
  const rowGroups = chance(0.35);
  const first = [...(rowGroups ? [pick(['Sector', 'Zone', 'Type'])] : []), pick(['Region', 'Category', 'Item', ''])];
  const d = pick([0, 0, 1, 2]);
  const cols = [
    ...first.map((n) => ({ name: n || 'Row label', head: n })),
    ...subs.map((s) => ({ name: grouped ? `${group} / ${s}` : s, head: s, num: true })),
  ];
  const scale = subs.map(() => int(1, 5)); // a column's figures share an order of magnitude
  const rows = [];
  for (let g = 0; g < (rowGroups ? int(2, 4) : 1); g++) {
    const n = int(2, rowGroups ? 4 : 12);
    const gl = rowGroups ? word() : undefined;
    for (let r = 0; r < n; r++) {
      const cells = subs.map((_, k) =>
        chance(0.07) ? pick(['', pick(DASHES)]) : fmt(f, (chance(0.1) ? -1 : 1) * (0.1 + rand()) * 10 ** scale[k], d),
      );
      rows.push({
        cells: [...(rowGroups ? [r === 0 ? gl : ''] : []), label(), ...cells],
        span: rowGroups && r === 0 ? n : rowGroups ? -1 : 0,
      });
    }
  }
  if (chance(0.4))
    rows.push({
      cells: [...(rowGroups ? [''] : []), 'Total', ...subs.map((_, k) => fmt(f, (2 + rand()) * 10 ** scale[k], d))],
      kind: 'total',
      span: rowGroups ? 1 : 0,
    });
  const lead = first.map((n) => `<th rowspan="${grouped ? 2 : 1}" class="l">${esc(n)}</th>`).join('');
  const head = grouped
    ? [`<tr>${lead}<th colspan="${subs.length}">${esc(group)}</th></tr>`, `<tr>${subs.map((s) => `<th>${esc(s)}</th>`).join('')}</tr>`]
    : [`<tr>${lead}${subs.map((s) => `<th>${esc(s)}</th>`).join('')}</tr>`];
  return { cols, head, rows, caption: `${pick(TOPICS)} by ${pick(['region', 'sector', 'year', 'zone'])}` };
}

function bankTable(f) {
  const year = int(2019, 2025);
  const dd = (n) => String(n).padStart(2, '0');
  const dateStyle = int(0, 2);
  const dateOf = (day, m) => [`${dd(day)}/${dd(m)}/${year}`, `${day} ${MONTHS[m - 1]}`, `${year}-${dd(m)}-${dd(day)}`][dateStyle];
  const cur = chance(0.3);
  const ref = chance(0.3);
  const names = [
    'Date',
    ...(ref ? ['Ref.'] : []),
    'Description',
    pick(['Debit', 'Withdrawals', 'Paid out']),
    pick(['Credit', 'Deposits', 'Paid in']),
    'Balance',
  ];
  const cols = names.map((n, k) => ({ name: n, head: n, num: k >= names.length - 3, text: n === 'Description' }));
  const headOf = (n) => (n.includes(' ') && chance(0.5) ? n.replace(' ', '<br>') : esc(n)); // a heading over two lines
  let balance = rand() * 20000;
  const m = int(1, 12);
  const rows = [
    { cells: [dateOf(1, m), ...(ref ? [''] : []), pick(['Balance brought forward', 'Opening balance']), '', '', fmt(f, balance, 2, cur)] },
  ];
  const n = int(14, 48);
  for (let day = 1; rows.length < n; day = Math.min(28, day + int(0, 2))) {
    const amt = rand() * 10 ** int(1, 3);
    const debit = chance(0.65);
    balance += debit ? -amt : amt;
    const what = debit
      ? pick(['Card payment', 'Transfer to', 'Direct debit', 'Cash withdrawal'])
      : pick(['Transfer from', 'Salary', 'Refund']);
    const desc = `${what} ${word().toUpperCase()}${chance(0.3) ? ` ${word().toUpperCase()} ${int(100, 9999)} ${pick(['MONTHLY FEE', 'INVOICE', 'REF'])}` : ''}`;
    const money = fmt(f, amt, 2, cur);
    rows.push({
      cells: [
        dateOf(day, m),
        ...(ref ? [String(int(100000, 999999))] : []),
        desc,
        debit ? money : '',
        debit ? '' : money,
        fmt(f, balance, 2, cur),
      ],
    });
  }
  return {
    cols,
    head: [`<tr>${names.map((n, k) => `<th class="${k < names.length - 3 ? 'l' : ''}">${headOf(n)}</th>`).join('')}</tr>`],
    rows,
    caption: `Account statement ${word()} ${MONTHS[m - 1]} ${year}`,
  };
}

function timetable() {
  const services = [...new Set(Array.from({ length: int(4, 8) }, () => `${pick(['', '', 'R ', 'IC '])}${int(100, 999)}`))];
  const cols = [{ name: 'Stop', head: 'Stop' }, ...services.map((s) => ({ name: s, head: s, num: true }))];
  let t = services.map(() => int(300, 900));
  const rows = Array.from({ length: int(6, 16) }, () => {
    t = t.map((x) => x + int(2, 9));
    const cells = t.map((x) =>
      chance(0.12) ? pick(['|', '–', '']) : `${String(Math.floor(x / 60) % 24).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}`,
    );
    return { cells: [`${word()}${chance(0.3) ? ` ${pick(['Station', 'Market', 'Bridge', 'Lane'])}` : ''}`, ...cells] };
  });
  const head = [`<tr><th class="l">Stop</th>${services.map((s) => `<th>${esc(s)}</th>`).join('')}</tr>`];
  return { cols, head, rows, caption: `${pick(['Mondays to Fridays', 'Saturdays', 'Weekdays'])}: ${word()} – ${word()}` };
}

function financialTable(f) {
  const y = int(2018, 2025);
  const note = chance(0.5);
  const unit = chance(0.5) ? pick([`${f.currency || '€'}'000`, `${f.currency || '$'}m`]) : '';
  const years = [String(y), String(y - 1)];
  const heads = years.map((s) => (unit ? `${s}<br>${unit}` : s));
  const cols = [
    { name: 'Row label', head: '' },
    ...(note ? [{ name: 'Note', head: 'Note' }] : []),
    ...years.map((s) => ({ name: unit ? `${s} ${unit}` : s, num: true })),
  ];
  const rows = [];
  for (let s = 0; s < int(2, 3); s++) {
    const section = `${pick(['Current', 'Non-current', 'Operating', 'Other'])} ${pick(['assets', 'liabilities', 'income', 'expenses'])}`;
    rows.push({ cells: [section, ...(note ? [''] : []), '', ''], kind: 'section' });
    for (let r = 0; r < int(2, 6); r++)
      rows.push({
        cells: [
          label(0.1),
          ...(note ? [chance(0.5) ? String(int(3, 25)) : ''] : []),
          ...years.map(() => (chance(0.05) ? '–' : fmt(f, (chance(0.25) ? -1 : 1) * rand() * 10 ** int(2, 5), 0))),
        ],
        indent: true,
      });
    rows.push({
      cells: [`Total ${section.toLowerCase()}`, ...(note ? [''] : []), ...years.map(() => fmt(f, rand() * 10 ** 6, 0))],
      kind: 'total',
    });
  }
  const head = [`<tr><th></th>${note ? '<th>Note</th>' : ''}${heads.map((h) => `<th>${h}</th>`).join('')}</tr>`];
  return { cols, head, rows, caption: `Statement of ${pick(['financial position', 'income', 'cash flows'])} of ${word()} for ${y}` };
}

function listingTable(f) {
  const names = [
    '#',
    pick(['Name', 'Product', 'Project']),
    pick(['Category', 'Owner', 'Site']),
    'Status',
    pick(['Quantity', 'Units', 'Hours']),
    pick(['Unit price', 'Cost', 'Budget']),
    pick(['Change (%)', 'Share', 'Margin']),
  ];
  const headOf = (n) => (n.includes(' ') && chance(0.6) ? n.replace(' ', '<br>') : esc(n));
  const cols = names.map((n, k) => ({ name: n === '#' ? 'No' : n, head: n, num: k >= 4 || k === 0, text: k === 1 }));
  const rows = Array.from({ length: int(5, 20) }, (_, i) => ({
    cells: [
      String(i + 1),
      label(0.25),
      word(),
      pick(['Active', 'Closed', 'On hold', 'Pending']),
      fmt(f, int(0, 5000), 0),
      fmt(f, rand() * 10 ** int(1, 4), 2, true),
      `${fmt(f, (chance(0.3) ? -1 : 1) * rand() * 60, 1)}${pick(['%', ' %'])}`,
    ],
  }));
  return {
    cols,
    head: [`<tr>${names.map((n, k) => `<th class="${k >= 1 && k <= 3 ? 'l' : ''}">${headOf(n)}</th>`).join('')}</tr>`],
    rows,
    caption: `${pick(['Open', 'All', 'Current'])} ${pick(['projects', 'orders', 'products'])} (${int(2, 9)} ${pick(['sites', 'teams'])})`,
  };
}

/** The table's look: rules, header fill, stripes, alignment of figures, cell padding. */
function style() {
  return {
    rules: pick(['grid', 'rows', 'booktabs', 'none', 'outer']),
    fill: pick(['', '', '#dde4ee', '#333;color:#fff', '#eeeeee']),
    zebra: chance(0.35),
    align: chance(0.8) ? 'right' : 'center',
    pad: pick(['2px 4px', '3px 6px', '4px 8px', '1px 3px']),
    valign: pick(['top', 'middle', 'bottom', 'baseline']),
    repeatHead: chance(0.6),
    captionTag: chance(0.5),
  };
}

function css(t, id) {
  const s = t.style;
  const b = '1px solid #555';
  const rule = {
    grid: `#${id} { border-collapse: collapse; } #${id} th, #${id} td { border: ${b}; }`,
    rows: `#${id} { border-collapse: collapse; } #${id} tr { border-bottom: 1px solid #bbb; }`,
    booktabs: `#${id} { border-collapse: collapse; border-top: 2px solid #000; border-bottom: 2px solid #000; } #${id} thead tr:last-child th, #${id} tr.h:last-of-type th { border-bottom: 1px solid #000; }`,
    none: `#${id} { border-collapse: separate; border-spacing: 0; }`,
    outer: `#${id} { border-collapse: collapse; border: ${b}; }`,
  }[s.rules];
  return `${rule}
#${id} th, #${id} td { padding: ${s.pad}; vertical-align: ${s.valign}; }
#${id} th { text-align: ${s.align}; ${s.fill ? `background: ${s.fill};` : ''} }
#${id} th.l, #${id} td.l { text-align: left; }
#${id} td.n { text-align: ${s.align}; white-space: nowrap; }
#${id} td.w { width: ${int(90, 160)}px; }
#${id} tr.total td { font-weight: bold; border-top: 1px solid #000; }
#${id} tr.section td { font-weight: bold; font-style: ${chance(0.5) ? 'italic' : 'normal'}; }
#${id} td.i { padding-left: ${pick(['1.2em', '2em'])}; }
${s.zebra ? `#${id} tbody tr:nth-child(even) { background: #f0f0f0; }` : ''}`;
}

function rowHtml(t, r) {
  const tds = [];
  r.cells.forEach((c, k) => {
    if (r.span === -1 && k === 0) return; // under a row-group label spanning rows
    const col = t.cols[k];
    const cls = [col.num ? 'n' : 'l', col.text ? 'w' : '', k === 0 && r.indent ? 'i' : ''].filter(Boolean).join(' ');
    const span = r.span > 1 && k === 0 ? ` rowspan="${r.span}" style="vertical-align: top"` : '';
    tds.push(`<td class="${cls}"${span}>${esc(c)}</td>`);
  });
  return `<tr class="${r.kind ?? 'item'}">${tds.join('')}</tr>`;
}

function tableHtml(t) {
  const id = `t${t.no}`;
  const cap = t.captionText;
  const head = t.style.repeatHead
    ? `<thead>${t.head.join('')}</thead><tbody>`
    : `<tbody>${t.head.map((h) => h.replace('<tr>', '<tr class="h">')).join('')}`;
  const caption = t.style.captionTag
    ? `<caption style="caption-side: top; text-align: left; font-weight: bold; padding-bottom: 4px">${esc(cap)}</caption>`
    : '';
  const before = t.style.captionTag ? '' : `<h3 style="font-size: 1.1em; margin: 14px 0 6px">${esc(cap)}</h3>`;
  const note = t.note ? `<p style="font-size: 0.8em; margin-top: 4px">${esc(t.note)}</p>` : '';
  const width = t.full ? ' style="width: 100%"' : '';
  return `<style>${css(t, id)}</style>${before}<table id="${id}"${width}>${caption}${head}${t.rows.map((r) => rowHtml(t, r)).join('')}</tbody></table>${note}`;
}

const KINDS = { stats: statsTable, bank: bankTable, timetable, financial: financialTable, listing: listingTable };

function documentOf(i) {
  const f = numberFormat();
  const kind = pick(['stats', 'stats', 'bank', 'timetable', 'financial', 'listing', 'listing']);
  const n = kind === 'bank' ? 1 : kind === 'financial' ? int(1, 2) : int(1, 3);
  const tables = Array.from({ length: n }, (_, k) => {
    const t = { ...KINDS[kind](f), no: k + 1, style: style(), full: chance(0.5) };
    t.captionText = `${chance(0.6) ? `Table ${k + 1}${pick(['.', ':', ' –'])} ` : ''}${t.caption}`;
    t.note = chance(0.45) ? `${pick(['Source: ', 'Note: ', '* ', '1) '])}${sentence()}` : '';
    return t;
  });
  const family = pick(Object.keys(FONTS));
  const body = `<h1 style="font-size: 1.5em">${word()} ${pick(['Quarterly Review', 'Data Portal', 'Annual Report', 'Account Services', 'Network Guide'])}</h1>
<p>${sentence()} ${sentence()}</p>
${tables.map((t) => `${tableHtml(t)}${chance(0.6) ? `<p>${sentence()} ${sentence()}</p>` : ''}`).join('\n')}`;
  const page = `@page { size: A4${chance(0.2) ? ' landscape' : ''}; margin: ${pick(['12mm', '18mm', '25mm'])}; }`;
  const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>${page}
body { font-family: '${pick(FONTS[family])}', ${family === 'mono' ? 'monospace' : family}; font-size: ${int(8, 12)}pt; }</style></head><body>${body}</body></html>`;
  return { id: `html-table-${String(i).padStart(3, '0')}`, tables, html };
}

const expectedOf = (t) => t.rows.map((r) => Object.fromEntries(t.cols.map((c, k) => [slug(c.name), r.cells[k].replace(/\u00a0/g, ' ')])));

/**
 * The table's schema field: "Table 1 (page 2)", or "Table 1 (pages 1–2)" for a table running over onto the next page
 * (its caption on the first, its last row on the other).
 */
function fieldOf(t, pages) {
  const first = Math.max(
    0,
    pages.findIndex((p) => p.includes(squash(t.captionText))),
  );
  // (The whole last row as read in order where the text layer keeps it, else its last figure.)
  const cells = t.rows.at(-1).cells.filter((c) => c.trim());
  const onPage = (needle) => pages.findIndex((p, k) => k >= first && p.includes(needle));
  const whole = onPage(squash(cells.join('')));
  const last = Math.max(first, whole >= 0 ? whole : onPage(squash(cells.at(-1))));
  const field = tableField(
    t.no,
    first + 1,
    t.cols[0].name,
    t.cols.slice(1).map((c) => c.name),
  );
  if (last === first) return field;
  const where = `pages ${first + 1}–${last + 1}`;
  return { ...field, label: `Table ${t.no} (${where})`, description: field.description.replace(`page ${first + 1}`, where) };
}

const dataset = datasetWriter(out);
for (let i = 0; i < count; i++) {
  const d = documentOf(i);
  const bytes = printPdf(d.html);
  const pages = pageTexts(bytes).layout.split('\f').map(squash); // (layout mode keeps a row on one line)
  const schema = { fields: d.tables.map((t) => fieldOf(t, pages)) };
  const want = Object.fromEntries(d.tables.map((t) => [`table_${t.no}`, expectedOf(t)]));
  dataset.add(d.id, { bytes, ext: 'pdf', mediaType: 'application/pdf', want, schema });
}
dataset.finish();
console.log(`${count} invented HTML table documents printed by Chromium in ${out}`);
