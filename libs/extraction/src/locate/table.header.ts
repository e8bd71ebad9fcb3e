/** Finding the printed headers of a table field: lines (or stacked lines) that name its columns. */
import type { FieldDef } from '../engine.types.js';
import { makeLine, segments, spaceBetween } from '../layout/layout.builder.js';
import type { DocLayout, Line, Page } from '../layout/layout.types.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';
import { HeaderStacks, beats, mayBeat } from './table.header.stack.js';
import { matchHeader, type HeaderMatch } from './table.match.js';
import { named, namesMoney, type Column, type Header } from './table.model.js';

/** The locale packs' table words (carry-over phrases, note words, total modifiers, "page"): table lines are judged
 * without their document, so every shipped pack applies. */
const VOCAB = allPacksVocabulary();

/**
 * A line whose column labels all sit in one long run of text ("All charges and prices are in US Dollars",
 * "Returns Policy: … return the item …") is a sentence that happens to use the words, not a header.
 */
function isSentence(line: Line, columns: Column[]): boolean {
  const labels = columns.filter((c) => c.field && !c.inferred);
  if (labels.length === 0) return false;
  const run = segments(line, 1.2).find((r) => labels.every((c) => r.x0 <= c.x0 + 0.01 && r.x1 >= c.x1 - 0.01));
  if (!run) return false;
  const inLabels = run.words.filter((w) => labels.some((c) => w.x0 >= c.x0 - 0.01 && w.x1 <= c.x1 + 0.01)).length;
  return run.words.length >= inLabels + 4;
}

/** "Table 2 (page 3)" / "on page 3" in a table field's label or description restricts it to that page. */
export function pageHint(field: FieldDef): number | undefined {
  const m = VOCAB.pageRef.exec(`${field.label ?? ''} ${field.description ?? ''}`);
  return m ? Number(m[1]) : undefined;
}

/**
 * The headers found per document and table field: the engine asks once to choose the pages whose ruled lines it reads,
 * and the table stage again; the layout's lines do not change in between (Header objects are never mutated after).
 */
const headerCache = new WeakMap<DocLayout, WeakMap<FieldDef, Header[]>>();

export function findHeaders(doc: DocLayout, field: FieldDef): Header[] {
  let perField = headerCache.get(doc);
  if (!perField) headerCache.set(doc, (perField = new WeakMap()));
  let found = perField.get(field);
  if (!found) perField.set(field, (found = searchHeaders(doc, field)));
  return found;
}

/** What a header search for one table field looks for. */
interface HeaderSearch {
  cols: FieldDef[];
  /** Money tables (price/amount columns): their rows are full of decimal amounts, their headers never are. */
  money: boolean;
  /** How many columns a header names at least. */
  need: number;
}

function searchHeaders(doc: DocLayout, field: FieldDef): Header[] {
  const cols = field.fields ?? [];
  const hint = pageHint(field);
  const search: HeaderSearch = { cols, money: cols.some(namesMoney), need: Math.min(cols.length, cols.length >= 3 ? 2 : 1) };
  const headers: Header[] = [];
  for (const page of doc.pages) {
    if (hint !== undefined && page.number !== hint && doc.pages.some((p) => p.number === hint)) continue;
    headers.push(...pageHeaders(page, search));
  }
  return headers;
}

/** A decimal amount as a data or subtotal row prints it ("112.00", "(4,50)", "$3.99"). */
const AMOUNT_WORD = /^[(\-$€£]*\d[\d.,']*[.,]\d{1,2}\)?$/;
/** A piece of a figure: figures and separators only. */
const FIGURE_PIECE = /^[\d.,']+$/;
/**
 * The figures of a line as printed: pieces of figures set without a space between them are one ("2" "." "640" ","
 * "00", a decimal-aligned column set in math mode, comes glyph by glyph).
 */
function printedFigures(l: Line): string[] {
  const out: string[] = [];
  l.words.forEach((w, i) => {
    const prev = l.words[i - 1];
    const glued = prev && FIGURE_PIECE.test(prev.text) && FIGURE_PIECE.test(w.text) && !spaceBetween(prev, w);
    if (glued) out[out.length - 1] += w.text;
    else out.push(w.text);
  });
  return out;
}
/** A line printing a decimal amount: a data or subtotal row, never a header line (nor stacked onto one). */
export const hasAmount = (l: Line): boolean => printedFigures(l).some((w) => AMOUNT_WORD.test(w));

/** The headers printed on one page, top down (a line inside a header opens no other). */
function pageHeaders(page: Page, search: HeaderSearch): Header[] {
  const { cols, money, need } = search;
  const stacks = new HeaderStacks(page.lines, cols);
  const headers: Header[] = [];
  for (let li = 0; li < page.lines.length; li++) {
    // Header rows name columns; a line with a decimal amount is a data or subtotal row ("Subtotal $ 112.00"),
    // whatever its words say.
    if (money && hasAmount(page.lines[li]!)) continue;
    const best = bestReading(page.lines, li, stacks, money);
    if (named(best.columns) < need || named(best.columns) === 0) continue;
    if (opensNothing(stacks, li, best)) continue;
    // A caption's sentence naming a column opens no header over the lines below it (they are the header).
    if (best.last > li && isSentence(page.lines[li]!, stacks.match(li, li).columns)) continue;
    // Sentences naming the columns do not become a header by merging them with the lines below.
    const parts = page.lines.slice(li, best.last + 1).map((l, k) => ({ l, m: stacks.match(li + k, li + k) }));
    if (parts.some((p) => isSentence(p.l, p.m.columns)) && parts.every((p) => named(p.m.columns) === 0 || isSentence(p.l, p.m.columns)))
      continue;
    headers.push(...headersAt(page, li, best, search));
    li = best.last;
  }
  return headers;
}

/** Lines stacked onto a header line at most (a group label, leaves wrapped over two lines, a unit line). */
const MAX_STACK = 5;
/** A line further below the stack than this many heights of its first line is not part of it. */
const STACK_GAP = 1.2;
/** A segment of this many words is running text, not header cells (a header cell is a few words). */
const RUNNING_TEXT_WORDS = 7;
/** Gap between a line's cells, in text heights (as `segments` cuts header cells). */
const CELL_GAP = 1.2;

/** The best reading of a header opening at line `li`: the line alone, or stacked with up to four close lines below. */
function bestReading(lines: readonly Line[], li: number, stacks: HeaderStacks, money: boolean): HeaderMatch & { last: number } {
  const line = lines[li]!;
  let best = { ...stacks.match(li, li), last: li };
  let bottom = line.y1;
  for (let k = li + 1; k < Math.min(lines.length, li + MAX_STACK); k++) {
    const next = lines[k]!;
    if (next.y0 - bottom > (line.y1 - line.y0) * STACK_GAP || (money && hasAmount(next))) break;
    if (segments(next, CELL_GAP).some((s) => s.words.length >= RUNNING_TEXT_WORDS)) break;
    bottom = Math.max(bottom, next.y1);
    // (Most stacks tried are body rows: one whose words cannot name enough columns is never matched.)
    if (!stacks.mayPass(li, k, (b) => mayBeat(b, best))) continue;
    const m = stacks.match(li, k);
    if (beats(m, best)) best = { ...m, last: k };
  }
  return best;
}

/** Within this much of the stacked reading's score, the lines below it read as well without line `li`. */
const REST_SCORE_MARGIN = 0.05;

/** A line that adds nothing to the header below it (a caption, or a caption's last line) does not open it. */
function opensNothing(stacks: HeaderStacks, li: number, best: HeaderMatch & { last: number }): boolean {
  if (best.last === li) return false;
  const n = named(best.columns);
  if (!stacks.mayPass(li + 1, best.last, (b) => b.named >= n)) return false;
  const rest = stacks.match(li + 1, best.last);
  return named(rest.columns) >= n && (named(stacks.match(li, li).columns) === 0 || rest.score >= best.score - REST_SCORE_MARGIN);
}

/** The header opening at line `li` (two when a second table's header is printed beside it on that line). */
function headersAt(page: Page, li: number, best: HeaderMatch & { last: number }, search: HeaderSearch): Header[] {
  const { cols, need } = search;
  const header: Header = { page: page.number, lineIndex: li, lastLine: best.last, columns: best.columns, score: best.score / cols.length };
  // (Side-by-side tables print their headers on one line: the columns named again right of the first copy.)
  const beside = best.last === li ? repeatedHeader(page.lines[li]!, best.columns, cols, need) : undefined;
  if (!beside) return [header];
  // The two tables part where the second one's header starts.
  const split = Math.min(...beside.columns.filter((c) => c.field && !c.inferred).map((c) => c.x0));
  header.bounds = [-Infinity, split];
  return [
    header,
    {
      page: page.number,
      lineIndex: li,
      lastLine: li,
      columns: beside.columns,
      score: beside.score / cols.length,
      bounds: [split, Infinity],
    },
  ];
}

/**
 * The same columns named again on a header line right of the copy already matched ("Bird Seen Bird Seen": two tables
 * side by side), when the words there name at least `need` of them.
 */
function repeatedHeader(line: Line, first: Column[], cols: FieldDef[], need: number): HeaderMatch | undefined {
  const namedCols = first.filter((c) => c.field && !c.inferred);
  if (!namedCols.length) return undefined;
  const right = Math.max(...namedCols.map((c) => c.x1));
  const words = line.words.filter((w) => w.x0 > right);
  if (!words.length) return undefined;
  const m = matchHeader(makeLine(words, line.page), cols);
  return named(m.columns) >= Math.max(need, 1) && named(m.columns) >= named(first) ? m : undefined;
}

/** A header line used by one table: its page, line and the x extent of its named columns. */
export function takenKey(h: Header): string {
  const cs = h.columns.filter((c) => c.field && !c.inferred);
  return `${h.page}:${h.lineIndex}:${Math.min(...cs.map((c) => c.x0))}:${Math.max(...cs.map((c) => c.x1))}`;
}

/** Side-by-side tables share a header line: a header is taken only where its named columns overlap a used one. */
export function isTaken(h: Header, taken: Set<string>): boolean {
  const [, , a0, a1] = takenKey(h).split(':').map(Number) as [number, number, number, number];
  for (const t of taken) {
    const [p, l, b0, b1] = t.split(':').map(Number) as [number, number, number, number];
    if (p === h.page && l === h.lineIndex && Math.min(a1, b1) > Math.max(a0, b0)) return true;
  }
  return false;
}
