// Expected-table readers for build-tables-wide.mjs: each fixture format -> a grid (rows of cell strings). Literals
// only: Python test data is read with Python's own parser (ast literals, a pickle of plain types), Java test strings
// with a small literal parser; nothing fetched is executed.
import { execFileSync } from 'node:child_process';

const PY_LISTS = `
import ast, json, pickle, sys
env, asserts = {}, {}
def ev(n):
    if isinstance(n, ast.Constant): return n.value
    if isinstance(n, (ast.List, ast.Tuple)): return [ev(e) for e in n.elts]
    if isinstance(n, ast.Name): return env[n.id]
    if isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Slice):
        s = n.slice
        return ev(n.value)[(ev(s.lower) if s.lower else None):(ev(s.upper) if s.upper else None)]
    if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub): return -ev(n.operand)
    if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == 'list' and len(n.args) == 1: return list(ev(n.args[0]))
    raise ValueError('not a literal')
class NoObjects(pickle.Unpickler):
    def find_class(self, module, name): raise pickle.UnpicklingError('refusing ' + module + '.' + name)
if sys.argv[1] == 'pickle':
    json.dump(NoObjects(sys.stdin.buffer).load(), sys.stdout); sys.exit(0)
tree = ast.parse(sys.stdin.read())
for st in tree.body:
    if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
        try: env[st.targets[0].id] = ev(st.value)
        except (ValueError, KeyError): pass
    if isinstance(st, ast.FunctionDef):
        for a in ast.walk(st):
            if isinstance(a, ast.Assert) and isinstance(a.test, ast.Compare) and isinstance(a.test.comparators[0], ast.List):
                asserts.setdefault(st.name, ev(a.test.comparators[0]))
json.dump({'lists': env, 'asserts': asserts}, sys.stdout)
`;
/** Python test data from literals only: top-level list assignments (names, slices, list() of literals) and, per test
 *  function, the first `assert … == [literal list]`; or (mode 'pickle') a pickle of plain lists/dicts/strings. */
function python(mode, input) {
  return JSON.parse(execFileSync('python3', ['-c', PY_LISTS, mode], { input, encoding: 'utf8', maxBuffer: 1 << 28 }));
}

/** RFC 4180 CSV (quoted fields may hold commas, quotes and newlines). */
export function parseCsv(text) {
  const rows = [];
  let row = [],
    cell = '',
    quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || row.length) {
    row.push(cell);
    rows.push(row);
  }
  return rows;
}

function cached(cache, key, make) {
  if (!cache.has(key)) cache.set(key, make());
  return cache.get(key);
}
function pyGrid(git, spec, cache) {
  const mod = cached(cache, `${git.dir}:${spec.py}`, () => python('module', git.text(spec.py)));
  const grid = spec.assertIn ? mod.asserts[spec.assertIn] : mod.lists[spec.name];
  if (!Array.isArray(grid))
    throw new Error(`${git.repo}: ${spec.py} has no list ${spec.assertIn ? `asserted in ${spec.assertIn}` : spec.name}`);
  return { grid, from: `${spec.py} ${spec.assertIn ? `${spec.assertIn}() assert` : spec.name}` };
}
export function expectedGrid(git, spec, cache) {
  if (spec.py) return pyGrid(git, spec, cache);
  if (spec.csv) return { grid: parseCsv(git.text(spec.csv)), from: spec.csv };
  if (spec.pickle) {
    const data = cached(cache, `${git.dir}:${spec.pickle}`, () => python('pickle', git.blob(spec.pickle)));
    return { grid: data[spec.key][spec.index], from: `${spec.pickle} ${spec.key}[${spec.index}]` };
  }
  if (spec.tabulaJson) {
    const j = JSON.parse(git.text(spec.tabulaJson));
    const t = (Array.isArray(j) ? j : [j])[spec.index ?? 0];
    return { grid: t.data.map((r) => r.map((c) => c.text)), from: `${spec.tabulaJson} [${spec.index ?? 0}]` };
  }
  if (spec.javaCsv)
    return { grid: parseCsv(javaStringAssigned(git.text(spec.javaCsv), spec)), from: `${spec.javaCsv} ${spec.method}() ${spec.variable}` };
  if (spec.jsonCsv) {
    const all = cached(cache, `${git.dir}:${spec.jsonCsv}`, () => JSON.parse(git.text(spec.jsonCsv)));
    if (typeof all[spec.key] !== 'string') throw new Error(`${git.repo}: ${spec.jsonCsv} has no CSV text under ${spec.key}`);
    return { grid: parseCsv(all[spec.key]), from: `${spec.jsonCsv} ${spec.key}` };
  }
  if (spec.pagedHtml)
    return { grid: pagedHtmlTable(git.text(spec.pagedHtml), spec.htmlPage), from: `${spec.pagedHtml} page ${spec.htmlPage}` };
  throw new Error('a fixture table needs py, csv, pickle, tabulaJson, javaCsv, jsonCsv or pagedHtml');
}

// ------------------------------------------------------------------ Java string literals
const JAVA_ESCAPES = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', "'": "'", '\\': '\\' };

/** Reads one Java string literal starting at src[i] === '"'; returns [value, index after the closing quote]. */
function javaLiteral(src, i) {
  let out = '';
  for (let j = i + 1; j < src.length; j++) {
    const ch = src[j];
    if (ch === '"') return [out, j + 1];
    if (ch === '\n') break;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    const e = src[++j];
    if (e === 'u') {
      out += String.fromCharCode(parseInt(src.slice(j + 1, j + 5), 16));
      j += 4;
    } else if (e in JAVA_ESCAPES) out += JAVA_ESCAPES[e];
    else throw new Error(`unsupported Java escape \\${e}`);
  }
  throw new Error('unterminated Java string literal');
}

/** Skips whitespace and Java comments from index i. */
function skipBlank(src, i) {
  for (;;) {
    const ws = /^\s+/.exec(src.slice(i, i + 200));
    if (ws) {
      i += ws[0].length;
      continue;
    }
    if (src.startsWith('//', i)) {
      const e = src.indexOf('\n', i);
      i = e < 0 ? src.length : e + 1;
      continue;
    }
    if (src.startsWith('/*', i)) {
      i = src.indexOf('*/', i) + 2;
      continue;
    }
    return i;
  }
}

/**
 * The value of `variable = "…" + "…";` in the Java method `method` (a concatenation of string literals only;
 * nothing is evaluated). Used for expected tables that tests write inline.
 */
export function javaStringAssigned(src, { method, variable }) {
  const m = new RegExp(`\\bvoid\\s+${method}\\s*\\(`).exec(src);
  if (!m) throw new Error(`Java source has no method ${method}`);
  const next = src.slice(m.index + m[0].length).search(/\bvoid\s+\w+\s*\(/);
  const body = next < 0 ? src.slice(m.index) : src.slice(m.index, m.index + m[0].length + next);
  const a = new RegExp(`\\b${variable}\\s*=\\s*`).exec(body);
  if (!a) throw new Error(`method ${method} assigns no ${variable}`);
  let i = a.index + a[0].length,
    value = '';
  for (;;) {
    i = skipBlank(body, i);
    if (body[i] !== '"') throw new Error(`${method}: ${variable} is not a concatenation of string literals`);
    const [part, end] = javaLiteral(body, i);
    value += part;
    i = skipBlank(body, end);
    if (body[i] === ';') return value;
    if (body[i] !== '+') throw new Error(`${method}: ${variable} is not a concatenation of string literals`);
    i++;
  }
}

// ------------------------------------------------------------------ gmft's stored table records
/**
 * gmft's tests rebuild each expected table from a stored record (PDF, 0-based `page_no`, `bbox` [x0, top, x1, bottom]).
 * Groups the wanted record keys by PDF and 1-based page; `n` numbers a page's tables top to bottom, then left to right.
 */
export function gmftPages(records, keys) {
  const pages = new Map();
  for (const key of keys) {
    const r = records[key];
    if (!r) throw new Error(`gmft: no stored table record ${key}`);
    const id = `${r.filename}\u0000${r.page_no}`;
    if (!pages.has(id)) pages.set(id, { pdf: r.filename, page: r.page_no + 1, recs: [] });
    pages.get(id).recs.push({ key, top: r.bbox[1], left: r.bbox[0] });
  }
  return [...pages.values()]
    .sort((a, b) => a.pdf.localeCompare(b.pdf) || a.page - b.page)
    .map(({ pdf, page, recs }) => ({
      pdf,
      page,
      tables: recs.sort((a, b) => a.top - b.top || a.left - b.left).map((r, i) => ({ key: r.key, n: i + 1 })),
    }));
}

/** A fixture entry that names gmft records -> one plain fixture per page (`jsonCsv` tables at their page position). */
export function expandFixture(git, fx, cache) {
  if (!fx.gmftRecords) return [fx];
  const records = cached(cache, `${git.dir}:${fx.gmftRecords}`, () => JSON.parse(git.text(fx.gmftRecords)));
  return gmftPages(records, fx.keys).map(({ pdf, page, tables }) => ({
    source: fx.source,
    pdf,
    page,
    idName: fx.idName,
    tables: tables.map(({ key, n }) => ({ jsonCsv: fx.csvs, key, n, ...fx.tableOptions })),
  }));
}

// ------------------------------------------------------------------ traprange's per-page HTML output
const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };
const decodeEntities = (s) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e) => {
    if (e[0] !== '#') return ENTITIES[e.toLowerCase()] ?? m;
    return String.fromCodePoint(e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : Number(e.slice(1)));
  });

/** traprange's test output: "Page: N" lines, each followed by one HTML table; returns page N's table as rows of cells. */
export function pagedHtmlTable(html, page) {
  const parts = html.split(/(?:^|(?<=>)|(?<=\n))Page: (\d+)\r?\n/);
  const i = parts.findIndex((p, k) => k % 2 === 1 && Number(p) === page);
  if (i < 0) throw new Error(`no table for page ${page}`);
  const rows = parts[i + 1].match(/<tr[^>]*>[\s\S]*?<\/tr>/gi) ?? [];
  return rows.map((r) => [...r.matchAll(/<td[^>]*>([\s\S]*?)<\/td>/gi)].map((m) => decodeEntities(m[1].replace(/<[^>]+>/g, ''))));
}
