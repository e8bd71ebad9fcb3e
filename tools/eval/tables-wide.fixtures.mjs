// The table fixtures that build-tables-wide.mjs reads: every table with complete expected cell text in the test
// fixtures of open-source table extractors, pinned to one commit per repository. Each entry names the PDF, the page
// the test reads, and one or more expected tables on that page in page order (`n` = 1-based position of the table
// among the tables of the page, when the test skips earlier ones). Only paths are listed here: no fixture text.
//
// Expected-table formats: `py` = a Python list of rows (`name`: a module-level list such as camelot's tests/data.py;
// `assertIn`: the list literal of the first `assert … == [...]` in that test function), `pickle` = a pickled dict of
// plain lists (`key`, `index`), `csv` = a CSV file, `tabulaJson` = tabula's JSON writer output (`index` picks a table).
// Per-table options: `headerRows` overrides the header rule (0 = headerless), `undoCopyText: true` reverses camelot's
// copy_text='v' (a cell repeating the cell above it in the same column is blanked: the page prints it once),
// `stripFlagTags: true` removes camelot's flag_size markup (<s>…</s> around superscripts), which is not printed.
// More formats: `javaCsv` = a CSV text written inline in a Java test (`method`, `variable`: the concatenated string
// literal assigned there), `jsonCsv` = a JSON object of CSV texts (`key`). A `gmftRecords` entry names gmft's stored
// table records (PDF, page, box) and expands to one fixture per page; `literalNewlines: true` reads gmft's written
// "\n" as a line break and drops pdfium's U+FFFE hyphenation mark (not printed). `pagedHtml` = traprange's
// test output (one HTML table per "Page: N" line; `htmlPage` picks one). `idName` names the document
// (default: the PDF's file name), for fixtures whose file names say nothing (`1.pdf`).

export const SOURCES = {
  camelot: { repo: 'camelot-dev/camelot', commit: '2b80d0bc692d1b22203c3385e77da8201675aa50', licence: 'MIT' },
  tabulaJava: { repo: 'tabulapdf/tabula-java', commit: '2cdf3b4fd3f7e921dca8cc6814cdd9316be40f0f', licence: 'MIT' },
  tabulaPy: { repo: 'chezou/tabula-py', commit: 'd7a233b31b4cac99c9a2a01f014fc8493e9df69d', licence: 'MIT' },
  pymupdf: { repo: 'pymupdf/PyMuPDF', commit: '53c9aaf539b4fbb6a53010d90de3a2df96e82b5e', licence: 'AGPL-3.0' },
  gmft: { repo: 'conjuncts/gmft', commit: 'ac7ef5e73e3977bfe60b6ffd80356b7be32f4532', licence: 'MIT' },
  traprange: { repo: 'thoqbk/traprange', commit: '4ae9347e61a2fb87808bbe73ffa3202718d43635', licence: 'MIT' },
  pdfExtractionToolkit: {
    repo: 'AmbitiousTools/PDFExtractionToolkit',
    commit: 'a6aec2d12085a1f8f74312678498ad8265662636',
    licence: 'none stated',
  },
};

const CAMELOT_FILES = 'tests/files';
const TJ = 'src/test/resources/technology/tabula';
const TP = 'tests/resources';

const camelot = (pdf, tables, page = 1) => ({
  source: 'camelot',
  pdf: `${CAMELOT_FILES}/${pdf}`,
  page,
  tables: tables.map((t) => ({ py: 'tests/data.py', ...(typeof t === 'string' ? { name: t } : t) })),
});
const tabulaJava = (pdf, tables, page = 1) => ({ source: 'tabulaJava', pdf: `${TJ}/${pdf}`, page, tables });
const tabulaPy = (pdf, tables, page = 1) => ({ source: 'tabulaPy', pdf: `${TP}/${pdf}`, page, tables });
const pymupdf = (pdf, tables, page = 1) => ({ source: 'pymupdf', pdf: `tests/resources/${pdf}`, page, tables });
const PET = 'src/test/resources';
const pet = (pdf, csv, page = 1) => ({
  source: 'pdfExtractionToolkit',
  pdf: `${PET}/simplePDFs/${pdf}`,
  page,
  tables: [{ csv: `${PET}/simpleCSVs/${csv}` }],
});
/** gmft's tests: test/formatters/tatr/test_df.py compares each table's DataFrame CSV with tatr_csvs.json[pdf{N}_t{j}]. */
const GMFT_REF = 'data/test/references';
const gmft = (pdfNo, tables) => ({
  source: 'gmft',
  gmftRecords: `${GMFT_REF}/tatr_tables.json`,
  csvs: `${GMFT_REF}/tatr_csvs.json`,
  keys: tables.map((j) => `pdf${pdfNo}_t${j}`),
  idName: `gmft-${pdfNo}.pdf`,
  tableOptions: { literalNewlines: true },
});
const range = (n) => [...Array(n).keys()];

/** In priority order: when two entries give the same table (same PDF sha256, page and table position), the first wins. */
export const FIXTURES = [
  // camelot: tests/test_{stream,lattice,hybrid,network}.py compare read_pdf(...)[i].df with these lists. Where several
  // flavours test the same table, one is listed (lattice for ruled tables, else stream; network where stream has none).
  camelot('health.pdf', ['data_stream']),
  camelot('tabula/12s0324.pdf', ['data_stream_two_tables_1', 'data_stream_two_tables_2']),
  camelot('clockwise_table_2.pdf', ['data_stream_table_rotated']),
  camelot('anticlockwise_table_2.pdf', ['data_stream_table_rotated']),
  camelot('multiple_tables.pdf', ['data_network_two_tables_b_1', 'data_network_two_tables_b_2']),
  camelot('vertical_header.pdf', ['data_network_vertical_headers']),
  camelot('mexican_towns.pdf', ['data_stream_columns']),
  camelot('tabula/m27.pdf', ['data_stream_split_text']),
  camelot('superscript.pdf', [{ name: 'data_stream_flag_size', stripFlagTags: true }]),
  camelot('detect_vertical_false.pdf', ['data_stream_layout_kwargs']),
  camelot('edge_tol.pdf', ['data_stream_edge_tol']),
  camelot('stream_inner_outer_columns.pdf', ['data_stream_inner_outer_columns']),
  camelot('clockwise_table_1.pdf', ['data_lattice_table_rotated']),
  camelot('anticlockwise_table_1.pdf', ['data_lattice_table_rotated']),
  camelot('twotables_2.pdf', ['data_lattice_two_tables_1', 'data_lattice_two_tables_2']),
  camelot('table_region.pdf', ['data_lattice_table_regions']),
  camelot('background_lines_1.pdf', [{ name: 'data_lattice_process_background', n: 2 }]),
  camelot('row_span_1.pdf', [{ name: 'data_lattice_copy_text', undoCopyText: true }]),
  camelot('column_span_2.pdf', ['data_lattice_shift_text_left_top']),
  camelot('tabula/arabic.pdf', ['data_arabic']),
  camelot('split_text_lattice.pdf', ['data_lattice_split_text']),
  // tabula-java: expected CSV/JSON of TestCommandLineApp, TestSpreadsheetExtractor, TestBasicExtractor, TestWriters.
  tabulaJava('AnimalSounds.pdf', [{ csv: `${TJ}/csv/AnimalSounds.csv`, headerRows: 0 }]),
  tabulaJava('AnimalSounds1.pdf', [
    { tabulaJson: `${TJ}/json/AnimalSounds1.json`, index: 0 },
    { tabulaJson: `${TJ}/json/AnimalSounds1.json`, index: 1 },
  ]),
  tabulaJava('MultiColumn.pdf', [{ csv: `${TJ}/csv/MultiColumn.csv` }]),
  tabulaJava('Publication_of_award_of_Bids_for_Transport_Sector__August_2016.pdf', [
    { csv: `${TJ}/csv/Publication_of_award_of_Bids_for_Transport_Sector__August_2016.csv` },
  ]),
  tabulaJava('argentina_diputados_voting_record.pdf', [{ tabulaJson: `${TJ}/json/argentina_diputados_voting_record.json`, index: 0 }]),
  tabulaJava('frx_2012_disclosure.pdf', [{ csv: `${TJ}/csv/frx_2012_disclosure.csv` }]),
  tabulaJava('indictb1h_14.pdf', [{ csv: `${TJ}/csv/indictb1h_14.csv` }]),
  tabulaJava('schools.pdf', [{ tabulaJson: `${TJ}/json/schools.json`, index: 0 }]),
  tabulaJava('spanning_cells.pdf', [
    { tabulaJson: `${TJ}/json/spanning_cells.json`, index: 0 },
    { tabulaJson: `${TJ}/json/spanning_cells.json`, index: 1 },
  ]),
  tabulaJava('spreadsheet_no_bounding_frame.pdf', [{ csv: `${TJ}/csv/spreadsheet_no_bounding_frame.csv` }]),
  tabulaJava('twotables.pdf', [
    { tabulaJson: `${TJ}/json/twotables.json`, index: 0 },
    { tabulaJson: `${TJ}/json/twotables.json`, index: 1 },
  ]),
  // tabula-java: an expected CSV written inline in TestSpreadsheetExtractor (the test compares row and cell counts).
  tabulaJava('puertos1.pdf', [
    {
      javaCsv: 'src/test/java/technology/tabula/TestSpreadsheetExtractor.java',
      method: 'testExtractSpreadsheetWithinAnArea',
      variable: 'expected',
    },
  ]),
  // tabula-py: tests/test_read_pdf_table.py compares read_pdf(...)[0] with these CSVs (pandas.read_csv: row 0 is the header).
  tabulaPy('data.pdf', [{ csv: `${TP}/data_1.csv` }]),
  tabulaPy('campaign_donors.pdf', [{ csv: `${TP}/campaign_donors.csv` }]),
  tabulaPy('MultiColumn.pdf', [{ csv: `${TP}/MultiColumn.csv` }]),
  // PyMuPDF: tests/test_tables.py compares page.find_tables() output with a pickle and with asserted list literals.
  pymupdf(
    'chinese-tables.pdf',
    [0, 1].map((index) => ({ pickle: 'tests/resources/chinese-tables.pickle', key: 'extracts', index })),
  ),
  pymupdf('small-table.pdf', [{ py: 'tests/test_tables.py', assertIn: 'test_boxes_param' }]),
  // gmft: tables of PDFs 1-8 (test/conftest.py _num_tables). Its references are the tool's own regression snapshots;
  // those that are not a table or whose rows/columns do not follow the printed table are left out, see SKIPPED.
  gmft(1, range(9)),
  gmft(2, range(4)),
  gmft(3, [1, 2, 3]),
  gmft(5, range(2)),
  gmft(6, range(2)),
  gmft(7, range(3)),
  // traprange: TestExtractor writes _Docs/result/sample-N.html (one table per page, the lines it is told to skip left
  // out); kept only where no printed row is skipped: sample-2 page 1 (its skipped lines are the title), sample-5 page 2.
  {
    source: 'traprange',
    pdf: '_Docs/sample-2.pdf',
    idName: 'traprange-sample-2.pdf',
    page: 1,
    tables: [{ pagedHtml: '_Docs/result/sample-2.html', htmlPage: 1 }],
  },
  {
    source: 'traprange',
    pdf: '_Docs/sample-5.pdf',
    idName: 'traprange-sample-5.pdf',
    page: 2,
    tables: [{ pagedHtml: '_Docs/result/sample-5.html', htmlPage: 2, headerRows: 0 }],
  },
  // PDFExtractionToolkit (Scala, on tabula-java): simpleCSVs/* are the expected tables of simplePDFs/* (headerless).
  pet('SimpleTest1Table.pdf', 'SimpleTest1Table.csv'),
  pet('SimpleTest2Tables1Title.pdf', 'SimpleTest2Tables1TitlePage1.csv', 1),
  pet('SimpleTest2Tables1Title.pdf', 'SimpleTest2Tables1TitlePage2.csv', 2),
];

/**
 * Fixtures looked at and left out, with the reason (written to PROVENANCE.md). Paths of the reserved ICDAR 2013
 * files are not listed: they are refused by name before anything is read.
 */
export const SKIPPED = [
  [
    'camelot',
    'tests/data.py data_hybrid*, data_network_* duplicates',
    'the same table as the listed flavour (one expected version per table)',
  ],
  [
    'camelot',
    'tests/data.py data_stream_strip_text, data_network_strip_text',
    'strip_text removes spaces and commas: not the printed text (data_stream_layout_kwargs gives the same table as printed)',
  ],
  [
    'camelot',
    'tests/data.py data_lattice_table_areas, data_lattice_shift_text_disable/right_bottom',
    'a sub-area or re-shifted copy of a listed table',
  ],
  ['camelot', 'tests/data.py data_stream_duplicated_text', 'no test reads it, so the page it belongs to is not stated'],
  [
    'tabula-java',
    'csv/TestBasicExtractor-RECTANGLE_TEST_NATURAL_ORDER.csv, csv/TestSpreadsheetExtractor-CELLS.csv',
    'rectangle coordinates, not table text',
  ],
  [
    'tabula-java',
    'csv/spanning_cells.csv, json/spanning_cells_basic.json, csv/twotables.csv, csv/schools.csv, csv/argentina_diputados_voting_record.csv',
    'the same tables as the listed JSON files',
  ],
  ['tabula-java', 'inline Java arrays in TestBasicExtractor (argentina, frx_2012)', 'the same tables as the listed CSV/JSON files'],
  [
    'tabula-java',
    'other inline assertions (arabic, mednine, m27, campaign_donors, 12s0324, frx_2012 row 8)',
    'single cells or rows, not a complete table',
  ],
  [
    'tabula-java',
    'csv/TestCommandLineApp_testGuessOption_*.csv and the tests on ICDAR 2013 files',
    'they read reserved ICDAR 2013 files (not opened)',
  ],
  [
    'pdfplumber (jsvine/pdfplumber 147f2c4c07dc1191fc1d05bb589b4f6af3aaf74a)',
    'tests/test_table.py, test_ca_warn_report.py, test_nics_report.py, test_issues.py',
    'asserts check single rows (t[-1]), cells, counts or column sums: no complete expected table',
  ],
  ['gmft', 'tatr_csvs.json pdf3_t0', "an article's front matter (dates, author list) detected as a table: not a table"],
  ['gmft', 'tatr_csvs.json pdf4_t0', 'one header row and no data row'],
  ['gmft', 'tatr_csvs.json pdf1_t9', 'a reference list detected as a two-column table: not a table'],
  [
    'gmft',
    'tatr_csvs.json pdf4_t1, pdf6_t2, pdf8_t0, pdf8_t1',
    'the snapshot does not follow the printed table (a caption or header inside data rows, wrapped cells split over columns, two printed rows merged into one)',
  ],
  [
    'traprange',
    '_Docs/result/sample-1/3/4.html and the other pages of sample-5',
    'the test skips printed lines there (header rows, or the first data row of every page): incomplete tables',
  ],
  [
    'gmft',
    'ditr_csvs.json, cropped_tables.json, tatr_csvs.json pubt_*/attn*/pdf9_*',
    "a second formatter's version of the same tables, or images/crops without a stored page record in tatr_tables.json",
  ],
  ['PDFExtractionToolkit', 'simpleCSVs/simple3x3Digits.csv', 'a unit-test table of the CSV reader with no PDF'],
  ['PDFExtractionToolkit', 'expenseReports/*.pdf', 'tests assert single cells and totals only'],
  [
    'PDFProdigy/Testing (ef934badd1df2d0d63324853412957c9b9a316c8)',
    'Table/00xx/test_00xx.pdf',
    'the expected tables are produced by the Java generator loops, no expected CSV is stored',
  ],
  [
    'tabula-py',
    'data_2-3.csv',
    'a table over pages 2-3 whose expected CSV merges neighbouring columns (e.g. two numbers in one cell): not the table as printed',
  ],
  ['PyMuPDF', 'tests/test_tables.py test_4017 expected_a/expected_b', 'the test says it pins known-incorrect output for those tables'],
  ['PyMuPDF', 'other tests/test_tables.py asserts', 'single cells, row/column counts, markdown or invented in-memory pages'],
  [
    'tabula-py',
    'data_dtype_expected.csv, data_dtype_template_expected.csv, data_1.json, data_1.tsv, data_1-3.csv',
    'template-area excerpts, or other serialisations of data_1.csv',
  ],
];
