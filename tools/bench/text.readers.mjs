// Text-layer readers compared by `npm run bench:extraction`: each turns a PDF into the engine's page layout (words with
// boxes, grouped by `buildPage`), so that the reading alone can be timed next to `pdftotext -layout`.
//   pdfjs         the engine's reader as shipped (`readPdf`: pdfjs-dist, font faces and eval off, no operator lists)
//   pdfium        PDFium compiled to WebAssembly (@embedpdf/pdfium, MIT + Apache-2.0): characters with their origin
//                 and box, cut into words at spaces and gaps (a candidate: present when the package is installed)
//   poppler-bbox  poppler's `pdftotext -bbox-layout`, one process per file, its words parsed (when on PATH)
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/** The readers available here, by name: each `(bytes, file) => Promise<DocLayout>` (the engine's page layout). */
export async function textReaders(repo) {
  const dist = (p) => import(pathToFileURL(join(repo, 'libs/extraction/dist', p)).href);
  const { readPdf } = await dist('readers/pdf.reader.js');
  const { buildPage } = await dist('layout/layout.builder.js');
  const layout = (pages) => ({ pages: pages.map((p, i) => buildPage(i + 1, p.width, p.height, p.words)) });
  const readers = { pdfjs: (bytes) => readPdf(bytes) };
  const pdfium = await loadPdfium(repo);
  if (pdfium) readers.pdfium = async (bytes) => layout(pdfiumPages(pdfium, bytes));
  if (hasBinary('pdftotext')) readers['poppler-bbox'] = async (_bytes, file) => layout(popplerPages(await popplerXhtml(file)));
  return readers;
}

const hasBinary = (bin) => spawnSync(bin, ['-v'], { stdio: 'ignore' }).error === undefined;

/** @embedpdf/pdfium's module, initialised once; undefined when the package is not installed. */
async function loadPdfium(repo) {
  const require = createRequire(join(repo, 'package.json'));
  let wasm;
  try {
    wasm = require.resolve('@embedpdf/pdfium/pdfium.wasm');
  } catch {
    return undefined;
  }
  const { init } = await import(pathToFileURL(require.resolve('@embedpdf/pdfium')).href);
  const P = await init({ wasmBinary: readFileSync(wasm) });
  P.PDFiumExt_Init();
  return P;
}

/** A character joins the word before it when its baseline is within this many font sizes of the word's. */
const SAME_BASELINE = 0.3;
/** …and it starts at most this many font sizes right of the word's end (wider is a gap: a new word). */
const CHAR_GAP = 0.15;
/** Word boxes span this many font sizes above the baseline and below it, as the pdfjs reader draws them. */
const ASCENT = 0.8;
const DESCENT = 0.2;

/** Every page's words (PDFium's characters, origin top-left) and size in points. */
function pdfiumPages(P, bytes) {
  const m = P.pdfium;
  const data = m.wasmExports.malloc(bytes.length);
  m.HEAPU8.set(bytes, data);
  const doc = P.FPDF_LoadMemDocument(data, bytes.length, '');
  const box = m.wasmExports.malloc(96);
  const pages = [];
  try {
    if (!doc) throw new Error(`PDFium cannot open the file (error ${P.FPDF_GetLastError()})`);
    const count = P.FPDF_GetPageCount(doc);
    for (let p = 0; p < count; p++) {
      const page = P.FPDF_LoadPage(doc, p);
      const text = P.FPDFText_LoadPage(page);
      pages.push({
        width: P.FPDF_GetPageWidthF(page),
        height: P.FPDF_GetPageHeightF(page),
        words: pageWords(P, text, box, P.FPDF_GetPageHeightF(page)),
      });
      P.FPDFText_ClosePage(text);
      P.FPDF_ClosePage(page);
    }
  } finally {
    if (doc) P.FPDF_CloseDocument(doc);
    m.wasmExports.free(box);
    m.wasmExports.free(data);
  }
  return pages;
}

/** One text page's characters cut into words: at whitespace, a baseline change or a gap. */
function pageWords(P, text, box, height) {
  const m = P.pdfium;
  const n = P.FPDFText_CountChars(text);
  const buf = m.wasmExports.malloc((n + 1) * 2);
  P.FPDFText_GetText(text, 0, n, buf);
  // (PDFium reports a hyphen that ends a line as U+FFFE; pdfjs reads it as the hyphen printed.)
  const chars = m.UTF16ToString(buf, n * 2).replace(/\uFFFE/g, '-');
  m.wasmExports.free(buf);
  const words = [];
  let cur;
  for (let i = 0; i < n; i++) {
    const ch = chars[i];
    if (!ch || ch.trim() === '') {
      // A space right after a word starts where the word's last advance ends (an italic's box overhangs it).
      if (cur && ch === ' ') {
        P.FPDFText_GetCharOrigin(text, i, box, box + 8);
        const [sx, sy] = new Float64Array(m.HEAPU8.buffer, box, 2);
        if (Math.abs(height - sy - cur.base) < 0.01 && sx > cur.lastX && sx < cur.x1) cur.x1 = sx;
      }
      cur = undefined;
      continue;
    }
    P.FPDFText_GetCharOrigin(text, i, box, box + 8);
    const [ox, oy] = new Float64Array(m.HEAPU8.buffer, box, 2);
    // The loose box (FS_RECTF: left, top, right, bottom) spans the glyph's advance, as pdfjs's run widths do.
    P.FPDFText_GetLooseCharBox(text, i, box + 16);
    const right = new Float32Array(m.HEAPU8.buffer, box + 16, 4)[2];
    // The font size is in text space: scaled by the character's matrix (FS_MATRIX, six floats) to page units.
    P.FPDFText_GetMatrix(text, i, box + 48);
    const mx = new Float32Array(m.HEAPU8.buffer, box + 48, 6);
    const size = P.FPDFText_GetFontSize(text, i) * Math.hypot(mx[2], mx[3]) || 10;
    const base = height - oy;
    if (cur && Math.abs(cur.base - base) < size * SAME_BASELINE && ox - cur.x1 < size * CHAR_GAP) {
      cur.text += ch;
      cur.x1 = Math.max(cur.x1, right, ox);
      cur.lastX = ox;
    } else {
      cur = { text: ch, x0: ox, x1: Math.max(right, ox), y0: base - size * ASCENT, y1: base + size * DESCENT, conf: 1, base, lastX: ox };
      words.push(cur);
    }
  }
  return words.map(({ base: _base, lastX: _lastX, ...w }) => w);
}

/** Longest `pdftotext -bbox-layout` may take on one file. */
const POPPLER_TIMEOUT_MS = 60_000;

async function popplerXhtml(file) {
  const { stdout } = await execFileAsync('pdftotext', ['-bbox-layout', file, '-'], { maxBuffer: 1 << 28, timeout: POPPLER_TIMEOUT_MS });
  return stdout;
}

const ENTITIES = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const unescape = (s) => s.replace(/&(amp|lt|gt|quot|apos);/g, (_, e) => ENTITIES[e]);

/** Pages and words of poppler's XHTML (`<page width height>`, `<word xMin yMin xMax yMax>`; origin top-left). */
function popplerPages(xhtml) {
  const pages = [];
  for (const pm of xhtml.matchAll(/<page width="([\d.]+)" height="([\d.]+)">([\s\S]*?)<\/page>/g)) {
    const words = [];
    for (const w of pm[3].matchAll(/<word xMin="([\d.-]+)" yMin="([\d.-]+)" xMax="([\d.-]+)" yMax="([\d.-]+)">([^<]*)<\/word>/g))
      words.push({ text: unescape(w[5]), x0: +w[1], y0: +w[2], x1: +w[3], y1: +w[4], conf: 1 });
    pages.push({ width: +pm[1], height: +pm[2], words });
  }
  return pages;
}
