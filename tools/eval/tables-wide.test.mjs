// Checks of the tables-wide label rules and fixture readers, on invented inputs only (no fixture text).
// Run: node --test tools/eval/
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  normForMatch,
  slug,
  plainNumber,
  tidyGrid,
  splitHeader,
  columnsOf,
  printed,
  deriveTable,
  MAX_INVISIBLE_SHARE,
} from './tables-wide.derive.mjs';
import { parseCsv, javaStringAssigned, gmftPages, pagedHtmlTable } from './tables-wide.grids.mjs';
import { isReserved } from './build-tables-wide.mjs';

const page = (...texts) => texts.map(normForMatch);

test('normForMatch: NFKC, case-folded, outer punctuation trimmed, all whitespace removed', () => {
  assert.equal(normForMatch('  Grüße, Ｆｏｏ  Bar. '), 'grüsse,foobar', 'inner punctuation stays');
  assert.equal(normForMatch('(12.5)'), '12.5');
  assert.equal(normForMatch(null), '');
});

test('slug: ASCII keys with pct/and/no, f_ before a leading digit, cut at the limit', () => {
  assert.equal(slug('Share %'), 'share_pct');
  assert.equal(slug('Cost & Fee'), 'cost_and_fee');
  assert.equal(slug('# of units'), 'no_of_units');
  assert.equal(slug('2019 Total'), 'f_2019_total');
  assert.equal(slug('Café'), 'cafe');
  assert.equal(slug('---'), 'column');
  assert.ok(slug('word '.repeat(30)).length <= 40);
});

test('plainNumber: plain numbers typed, one-separator thousands ambiguous', () => {
  assert.equal(plainNumber('2004'), 2004);
  assert.equal(plainNumber('-0.01'), -0.01);
  assert.equal(plainNumber('100 000'), 100000);
  assert.equal(plainNumber('1,234'), null);
  assert.equal(plainNumber('1.234'), null);
  assert.equal(plainNumber('12 apples'), null);
});

test('tidyGrid: pads rows, drops empty rows/columns, undoes copy_text and flag_size markup', () => {
  assert.deepEqual(tidyGrid([['a', '', 'b'], ['', '', ''], ['c']]), [
    ['a', 'b'],
    ['c', ''],
  ]);
  assert.deepEqual(
    tidyGrid(
      [
        ['x', '1'],
        ['x', '2'],
      ],
      { undoCopyText: true },
    ),
    [
      ['x', '1'],
      ['', '2'],
    ],
  );
  assert.deepEqual(tidyGrid([['m<s>2</s>']], { stripFlagTags: true }), [['m2']]);
});

test('tidyGrid: literalNewlines turns a written "\\n" into a line break and drops the U+FFFE hyphen mark', () => {
  assert.deepEqual(tidyGrid([['top \\nbottom', 'hy\ufffephen']], { literalNewlines: true }), [['top \nbottom', 'hyphen']]);
  assert.deepEqual(tidyGrid([['top \\nbottom']]), [['top \\nbottom']]);
});

test('splitHeader: caption rows, header with continuation rows, headerless when row 0 holds a number', () => {
  const g = [
    ['Caption text', '', ''],
    ['Name', 'Weight', 'Size'],
    ['', 'kg', 'cm'],
    ['Apple', '1', '2'],
  ];
  const s = splitHeader(g);
  assert.deepEqual(s.captions, ['Caption text']);
  assert.equal(s.header.length, 2);
  assert.equal(s.data.length, 1);
  assert.equal(
    splitHeader([
      ['Name', 'Kind'],
      ['Pear', 'ripe'],
    ]).header.length,
    1,
  );
  assert.equal(
    splitHeader([
      ['Apple', '3.5'],
      ['Pear', '4'],
    ]).header.length,
    0,
  );
  assert.equal(
    splitHeader([
      ['Region', '2020'],
      ['North', '4'],
    ]).header.length,
    1,
    'a year is a header, not data',
  );
  assert.equal(
    splitHeader(
      [
        ['Apple', 'x'],
        ['Pear', 'y'],
      ],
      0,
    ).header.length,
    0,
    'fixture override',
  );
});

test('columnsOf: stacked labels joined, empty header cells named, number typing', () => {
  const cols = columnsOf(
    [
      ['', 'Weight'],
      ['', 'kg'],
    ],
    [
      ['Apple', '1'],
      ['Pear', '2.5'],
    ],
    2,
  );
  assert.deepEqual(
    cols.map((c) => [c.key, c.label, c.data_type]),
    [
      ['row_label', 'Row label', 'string'],
      ['weight_kg', 'Weight / kg', 'number'],
    ],
  );
  assert.match(cols[0].description, /no header/);
  const bare = columnsOf([], [['a', 'b']], 2);
  assert.deepEqual(
    bare.map((c) => c.key),
    ['column_1', 'column_2'],
  );
  const dup = columnsOf([['Qty', 'Qty']], [['1', '2']], 2);
  assert.deepEqual(
    dup.map((c) => c.key),
    ['qty', 'qty_2'],
  );
});

test('printed: every line of a cell must occur in one page text', () => {
  const texts = page('Alpha   Beta\nGamma', 'other layer: Delta');
  assert.ok(printed('alpha beta', texts));
  assert.ok(printed('Gamma\nDelta', texts));
  assert.ok(!printed('Epsilon', texts));
});

test('deriveTable: drops cells not printed, rejects a table mostly not printed', () => {
  const texts = page('Fruit Count Apple 3 Pear 4 Plum 5 Fig 6 Kiwi 7');
  const r = deriveTable(
    [
      ['Fruit', 'Count'],
      ['Apple', '3'],
      ['Pear', '4'],
      ['Plum', '5'],
      ['Fig', '6'],
      ['Lime', '7'],
    ],
    { key: 'table_1', label: 'T', where: 'page 1' },
    texts,
  );
  assert.equal(r.rows.length, 5);
  assert.deepEqual(r.rows[0], { fruit: 'Apple', count: 3 });
  assert.deepEqual(r.dropped, [{ row: 4, column: 'fruit', text: 'Lime' }]);
  assert.equal(r.field.fields[1].data_type, 'number');
  const bad = deriveTable(
    [
      ['Fruit', 'Count'],
      ['Lime', '8'],
      ['Date', '9'],
    ],
    { key: 't', label: 'T', where: 'p' },
    texts,
  );
  assert.ok(MAX_INVISIBLE_SHARE < 1 && /not found/.test(bad.rejected));
  assert.equal(
    deriveTable([['Fruit', 'Count']], { key: 't', label: 'T', where: 'p', headerRows: 1 }, texts).rejected,
    'no data row below the header',
  );
});

test('parseCsv: quoted commas, quotes and line breaks', () => {
  assert.deepEqual(parseCsv('a,"b,c","say ""hi"""\r\n"two\nlines",x,\n'), [
    ['a', 'b,c', 'say "hi"'],
    ['two\nlines', 'x', ''],
  ]);
});

test('javaStringAssigned: a concatenated Java string literal assigned in one test method, escapes decoded', () => {
  const src = [
    'class T {',
    '  @Test public void other() { String expected = "not this"; }',
    '  @Test public void wanted() throws IOException {',
    '    String expected = "\\"\\",H1,H2\\n" +',
    '            "\\"multi\\n" + // a comment',
    '            "line\\",1,\\"2,5\\"\\n" +',
    '            "r\\u00e9sum\\u00e9,\\t3,4\\n";',
    '    assertEquals(expected, actual);',
    '  }',
    '}',
  ].join('\n');
  const s = javaStringAssigned(src, { method: 'wanted', variable: 'expected' });
  assert.equal(s, '"",H1,H2\n"multi\nline",1,"2,5"\nrésumé,\t3,4\n');
  assert.deepEqual(parseCsv(s)[1], ['multi\nline', '1', '2,5']);
  assert.throws(() => javaStringAssigned(src, { method: 'missing', variable: 'expected' }), /no method missing/);
});

test('gmftPages: tables grouped by 1-based page, numbered top to bottom within the page', () => {
  const tables = {
    doc1_t0: { filename: 'd/1.pdf', page_no: 2, bbox: [10, 400, 200, 500] },
    doc1_t1: { filename: 'd/1.pdf', page_no: 2, bbox: [10, 100, 200, 300] },
    doc1_t2: { filename: 'd/1.pdf', page_no: 0, bbox: [10, 100, 200, 300] },
    doc2_t0: { filename: 'd/2.pdf', page_no: 1, bbox: [10, 100, 200, 300] },
  };
  assert.deepEqual(gmftPages(tables, ['doc1_t0', 'doc1_t1', 'doc1_t2']), [
    { pdf: 'd/1.pdf', page: 1, tables: [{ key: 'doc1_t2', n: 1 }] },
    {
      pdf: 'd/1.pdf',
      page: 3,
      tables: [
        { key: 'doc1_t1', n: 1 },
        { key: 'doc1_t0', n: 2 },
      ],
    },
  ]);
  assert.throws(() => gmftPages(tables, ['doc9_t0']), /doc9_t0/);
});

test('isReserved: ICDAR 2013 names under any folder or separator are refused', () => {
  for (const p of ['x/icdar2013-dataset/a.pdf', 'res/eu-012.pdf', 'res/us_003a.pdf', 'csv/US-020.csv']) assert.ok(isReserved(p), p);
  for (const p of ['res/campaign_donors.pdf', 'res/menu-1234.pdf', 'res/status.pdf']) assert.ok(!isReserved(p), p);
});

test('pagedHtmlTable: the <table> after "Page: N", cells with entities decoded', () => {
  const html =
    'Page: 1\n<html><body><table><tr><td>a</td><td> b </td></tr></table></body></html>' +
    "Page: 2\n<html><body><table border='1'><tr><td>x &amp; y</td><td></td></tr><tr><td>&lt;1&gt;</td><td>&#233;t&#xE9;</td></tr></table></body></html>";
  assert.deepEqual(pagedHtmlTable(html, 2), [
    ['x & y', ''],
    ['<1>', 'été'],
  ]);
  assert.deepEqual(pagedHtmlTable(html, 1), [['a', ' b ']]);
  assert.throws(() => pagedHtmlTable(html, 3), /no table for page 3/);
});
