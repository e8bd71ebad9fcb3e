// Label derivation for tables-wide: an extractor's expected grid (rows of cell strings) -> one `table` field of a
// per-document schema plus its expected rows, keeping only cell text that is printed on the page. The rules are
// written out in PROVENANCE.md by build-tables-wide.mjs; the header and typing rules follow icdar2013-tables/.

/** A table keeps at most this many header rows (row 0 plus continuation rows). */
export const MAX_HEADER_ROWS = 5;
/** A leading row with one non-empty cell is a caption only when the table has at least this many columns. */
export const CAPTION_MIN_COLUMNS = 3;
/** A table whose share of cells not found in the page text exceeds this is dropped whole (its text layer differs). */
export const MAX_INVISIBLE_SHARE = 0.2;
/** Column keys are slugs of at most this many characters. */
export const KEY_MAX = 40;

const collapse = (s) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .trim();

/** score.mjs's string normalisation (NFKC, case-folded, surrounding punctuation trimmed) with all whitespace removed. */
export function normForMatch(s) {
  const t = String(s ?? '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/\s+/g, ' ')
    .trim();
  return t.replace(/^[\p{P}\p{S}\s]+|[\p{P}\p{S}\s]+$/gu, '').replace(/\s+/g, '');
}

/** ASCII slug as in the corpus builders: % -> pct, & -> and, # -> no; a leading digit gets f_. */
export function slug(label, max = KEY_MAX) {
  let s = String(label)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '');
  s = s.replace(/%/g, ' pct ').replace(/&/g, ' and ').replace(/#/g, ' no ').toLowerCase();
  s = s.replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
  if (/^[0-9]/.test(s)) s = 'f_' + s;
  return s.slice(0, max).replace(/_+$/g, '') || 'column';
}
function uniqueKey(used, key) {
  let k = key;
  for (let n = 2; used.has(k); n++) k = `${key}_${n}`;
  used.add(k);
  return k;
}

/** A plain number as icdar2013-tables types it: `2004`, `34.7`, `100 000`, `-0.01`; `1,234`/`1.234` are ambiguous. */
export function plainNumber(text) {
  const t = collapse(text);
  if (/^[-+]?\d{1,3}[.,]\d{3}$/.test(t)) return null;
  if (/^[-+]?(\d{1,3}( \d{3})+|\d+)(\.\d+)?$/.test(t)) return Number(t.replace(/ /g, ''));
  return null;
}
const isYear = (t) => /^(19|20)\d\d$/.test(collapse(t));

/** Rectangular grid of collapsed strings; all-empty rows and columns removed. */
export function tidyGrid(rows, { stripFlagTags = false, undoCopyText = false, literalNewlines = false } = {}) {
  const width = Math.max(0, ...rows.map((r) => r.length));
  let g = rows.map((r) =>
    Array.from({ length: width }, (_, i) => {
      let v = r[i] == null ? '' : String(r[i]);
      if (stripFlagTags) v = v.replace(/<\/?s>/g, '');
      if (literalNewlines) v = v.replace(/\\n/g, '\n').replace(/\uFFFE/g, '');
      return v;
    }),
  );
  if (undoCopyText) g = g.map((r, y) => r.map((v, x) => (y > 0 && v !== '' && v === g[y - 1][x] ? '' : v)));
  g = g.filter((r) => r.some((v) => collapse(v) !== ''));
  const keep = [...Array(width).keys()].filter((x) => g.some((r) => collapse(r[x]) !== ''));
  return g.map((r) => keep.map((x) => r[x]));
}

const filled = (row) => row.filter((v) => collapse(v) !== '');

/** Leading caption rows (one non-empty cell in a table of >= CAPTION_MIN_COLUMNS columns), header rows, data rows. */
export function splitHeader(grid, headerRows) {
  const width = grid[0]?.length ?? 0;
  let c = 0;
  while (width >= CAPTION_MIN_COLUMNS && c < grid.length - 1 && filled(grid[c]).length === 1) c++;
  const rest = grid.slice(c);
  let h = headerRows;
  if (h === undefined) {
    const numeric = (row) => filled(row).some((v) => plainNumber(v) !== null && !isYear(v));
    h = rest.length > 1 && !numeric(rest[0]) ? 1 : 0;
    while (h > 0 && h < MAX_HEADER_ROWS && h < rest.length - 1 && collapse(rest[h][0]) === '' && !numeric(rest[h])) h++;
  }
  return { captions: grid.slice(0, c).map((r) => filled(r).map(collapse).join(' ')), header: rest.slice(0, h), data: rest.slice(h) };
}

/** Column definitions from the header rows: stacked header texts joined with " / ", numbered when there is no header. */
export function columnsOf(header, data, width) {
  const used = new Set();
  return Array.from({ length: width }, (_, x) => {
    const parts = header.map((r) => collapse(r[x])).filter(Boolean);
    const headerless = header.length === 0;
    const label = parts.join(' / ') || (headerless ? `Column ${x + 1}` : x === 0 ? 'Row label' : `Column ${x + 1}`);
    const values = data.map((r) => collapse(r[x])).filter(Boolean);
    const type = values.length && values.every((v) => plainNumber(v) !== null) ? 'number' : 'string';
    const col = { key: uniqueKey(used, slug(label)), label, data_type: type };
    if (!parts.length && !headerless) col.description = 'This column has no header on the page.';
    return col;
  });
}

/** Whether a cell's text is printed on the page: every line of it, normalised, occurs in one of the page texts. */
export function printed(cell, pageTexts) {
  const lines = String(cell).split(/\n/).map(normForMatch).filter(Boolean);
  return lines.every((l) => pageTexts.some((t) => t.includes(l)));
}

/**
 * One expected table -> { field, rows, dropped, cells } or { rejected }. `pageTexts` are the page's text layers,
 * already normalised with normForMatch; `where` names the table in the descriptions ("page 1").
 */
export function deriveTable(rawRows, { key, label, where, headerRows, ...opts }, pageTexts) {
  const grid = tidyGrid(rawRows, opts);
  if (!grid.length) return { rejected: 'no non-empty cell' };
  const { captions, header, data } = splitHeader(grid, headerRows);
  if (!data.length) return { rejected: 'no data row below the header' };
  const columns = columnsOf(header, data, grid[0].length);
  const dropped = [];
  let cells = 0;
  const rows = data
    .map((r, y) => {
      const row = {};
      r.forEach((v, x) => {
        if (collapse(v) === '') return;
        cells++;
        if (!printed(v, pageTexts)) {
          dropped.push({ row: y, column: columns[x].key, text: collapse(v) });
          return;
        }
        row[columns[x].key] = columns[x].data_type === 'number' ? plainNumber(v) : collapse(v);
      });
      return row;
    })
    .filter((row) => Object.keys(row).length);
  if (dropped.length > MAX_INVISIBLE_SHARE * cells) return { rejected: `${dropped.length} of ${cells} cells not found in the page text` };
  const described = header.length
    ? `Columns: ${columns.map((c) => c.label).join(' | ')}.`
    : 'The table has no header row; its columns are numbered left to right.';
  const caption = captions.length ? ` Caption: ${captions.join(' / ')}.` : '';
  const field = {
    key,
    label,
    data_type: 'table',
    description: `Table on ${where}.${caption} ${described} One row per data row of the table, header rows excluded.`,
    fields: columns,
  };
  return { field, rows, dropped, cells: cells - dropped.length, headerRows: header.length };
}
