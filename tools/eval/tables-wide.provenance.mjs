// The `fix-` section of tables-wide/PROVENANCE.md, written by build-tables-wide.mjs. Other builders writing into
// the same folder (tpl- ids) keep their own sections: only the text between the two markers below is replaced.
import { SKIPPED } from './tables-wide.fixtures.mjs';
import { MAX_HEADER_ROWS, CAPTION_MIN_COLUMNS, MAX_INVISIBLE_SHARE, KEY_MAX } from './tables-wide.derive.mjs';

const BEGIN = '<!-- fix- section: written by tools/eval/build-tables-wide.mjs -->';
const END = '<!-- end of fix- section -->';
const TITLE =
  '# tables-wide: wide development set of tables (issue 19)\n\n' +
  'Licences: internal evaluation only. Never copy these files into the product repository, never ship them.\n';

/** Replaces (or appends) the fix- section in an existing PROVENANCE.md text. */
export function mergeProvenance(old, section) {
  const block = `${BEGIN}\n${section.trim()}\n${END}\n`;
  const start = old.indexOf(BEGIN),
    end = old.indexOf(END);
  if (start >= 0 && end > start) return old.slice(0, start) + block + old.slice(end + END.length).replace(/^\n/, '');
  return (old.trim() ? old.trimEnd() + '\n\n' : TITLE + '\n') + block;
}

const md = (s) => String(s).replace(/\|/g, '\\|').replace(/\n/g, ' ');

function tableList(report) {
  const lines = report.tables.map(
    (t) =>
      `| \`${t.doc}\` | ${t.key} (page ${t.page}, table ${t.n}) | ${t.repo} | \`${md(t.path)}\` | ${t.rows} | ${t.columns} (${t.numberColumns} number) | ${t.headerRows} | ${t.cells} |`,
  );
  return [
    '| id | field | repository | expected table | rows | columns | header rows | cells |',
    '|---|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}
function droppedList(report) {
  if (!report.dropped.length) return 'None: every cell of the kept tables is printed on its page.';
  return report.dropped
    .map((d) => `- \`${d.doc}\` ${d.key} row ${d.row + 1}, column \`${d.column}\`: ${JSON.stringify(d.text)}`)
    .join('\n');
}
function otherLists(report) {
  const items = [
    ...report.rejected.map((r) => `- rejected: \`${r.doc}\` page ${r.page} table ${r.n} from ${r.repo} \`${md(r.path)}\`: ${r.reason}`),
    ...report.duplicates.map(
      (r) => `- duplicate (same PDF sha256, page and table position as an earlier fixture): ${r.repo} \`${md(r.path)}\` → \`${r.doc}\``,
    ),
    ...report.refused.map((r) => `- refused PDF: ${r.repo} \`${r.path}\`: ${r.reason}`),
  ];
  return items.length ? items.join('\n') : 'None.';
}

export function provenanceSection({ docs, report, sources }) {
  const cells = report.tables.reduce((s, t) => s + t.cells, 0);
  const rows = report.tables.reduce((s, t) => s + t.rows, 0);
  const srcLines = Object.values(sources)
    .map(
      (s) =>
        `- https://github.com/${s.repo} at commit \`${s.commit}\` (${s.licence} for the code; the fixture PDFs are public documents or the projects' own test files, with no licence of their own stated)`,
    )
    .join('\n');
  return `## \`fix-\` documents: tables from open-source table extractors' test fixtures

**${docs.length} documents, ${report.tables.length} tables, ${rows} rows, ${cells} cells**, built by \`tools/eval/build-tables-wide.mjs\`
(fixture list in \`tools/eval/tables-wide.fixtures.mjs\`, rules in \`tools/eval/tables-wide.derive.mjs\`) from:

${srcLines}

- **Documents:** the fixture PDFs the tests read, copied byte for byte as \`docs/fix-<file name>.pdf\` (born-digital; a
  page with fewer than 50 printed characters would be refused). One document per distinct sha256: a PDF found in
  several repositories is stored once (\`also_in\` in \`manifest.json\`), and a table given by several fixtures (same
  sha256, page and table position) is kept once, from the first fixture in the fixture list's order (camelot, tabula-java, tabula-py,
  PyMuPDF, gmft, traprange, PDFExtractionToolkit).
- **Excluded, never read:** the ICDAR 2013 competition files (any path containing \`icdar\` or an \`eu-0xx\`/\`us-0xx\`
  name) are refused by name before reading, and a PDF byte-identical to a document of the corpus's \`icdar2013-tables/\`
  is refused by sha256.
- **Ground truth:** the extractors' own expected tables for the page the test reads: camelot's \`tests/data.py\` lists,
  tabula's expected CSV and JSON files and one CSV written inline in a Java test (a concatenation of string literals,
  parsed, not run), tabula-py's CSVs, PyMuPDF's pickle and asserted lists, gmft's \`tatr_csvs.json\` (page and position
  from its stored table records \`tatr_tables.json\`), traprange's per-page HTML output, PDFExtractionToolkit's CSVs.
  gmft's references are the tool's own regression snapshots (model output), not checked truth: each was read, and the
  ones that are visibly not a table or whose rows/columns are visibly broken are left out (listed below); the others
  may still hold structure errors (e.g. a spanning header split over columns). gmft writes
  line breaks as a literal \`\\n\` (read as a line break) and pdfium's hyphenation mark U+FFFE (removed); lost
  \`fi\`/\`ff\` ligatures in its text make some cells unprintable, which the printed check drops.
  Fixture-specific reversals: camelot's \`copy_text='v'\` output has a cell
  repeating the cell above it blanked (the page prints a spanning cell once); camelot's \`flag_size\` markup \`<s>…</s>\`
  is removed (it marks superscripts, it is not printed).
- **Per-document schemas** (\`schemas/<id>.json\`): one \`table\` field per expected table (\`table_N\` in document
  order, label \`Table n (page P)\`, n = the table's position among the tables of the page).
  - All-empty rows and columns of the expected grid are removed. Leading rows with a single non-empty cell are a
    caption (when the table has at least ${CAPTION_MIN_COLUMNS} columns): named in the description, not a data row.
  - **Header:** the first remaining row, unless it holds a plain number that is not a year (1900–2099): then the table
    is **headerless** and its columns are \`Column 1\` … (keys \`column_1\` …), described as numbered left to right.
    Continuation rows join the header (at most ${MAX_HEADER_ROWS} header rows) while their first cell is empty and
    they hold no such number; stacked header texts are joined with \` / \`. An empty header cell gives \`Row label\`
    (first column) or \`Column N\`. A fixture may fix the header row count where the rule misreads it (\`headerRows\`
    in the fixture list: one table, whose first row is data).
  - Column \`key\` = ASCII slug of the label (≤ ${KEY_MAX} characters, \`_2\` for repeats). \`data_type\` is \`number\` when
    every non-empty data cell is a plain number (\`2004\`, \`34.7\`, \`100 000\`, \`-0.01\`; \`1,234\`/\`1.234\` with one
    separator and three digits are ambiguous and keep the column a string), otherwise \`string\` — as in \`icdar2013-tables/\`.
- **Expected:** one row object per data row, keyed by column key, empty cells omitted, whitespace collapsed, JSON
  numbers in number columns. **Printed check:** every cell is looked for in the page's text (\`pdftotext\` in
  \`-layout\`, default and \`-raw\` modes), normalised as \`score.mjs\` normalises strings with all whitespace removed;
  a multi-line cell must match line by line. Cells not found are dropped (listed below); a table with more than
  ${Math.round(MAX_INVISIBLE_SHARE * 100)} % of its cells not found is rejected whole.

### Tables

${tableList(report)}

### Cells dropped as not printed on the page

${droppedList(report)}

### Rejected, duplicate and refused fixtures

${otherLists(report)}

### Fixtures looked at and not used

${SKIPPED.map(([repo, what, why]) => `- ${repo}: ${what}: ${why}.`).join('\n')}
`;
}
