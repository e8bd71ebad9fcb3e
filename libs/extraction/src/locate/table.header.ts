/** Finding the printed headers of a table field: lines (or stacked lines) that name its columns. */
import type { FieldDef } from '../engine.types.js';
import { makeLine, segments } from '../layout/layout.builder.js';
import type { DocLayout, Line } from '../layout/layout.types.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';
import { matchHeader, mergeLines } from './table.match.js';
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

function searchHeaders(doc: DocLayout, field: FieldDef): Header[] {
  const cols = field.fields ?? [];
  const hint = pageHint(field);
  // Money tables (price/amount columns): their rows are full of decimal amounts, their headers never are.
  const money = cols.some(namesMoney);
  const need = Math.min(cols.length, cols.length >= 3 ? 2 : 1);
  const headers: Header[] = [];
  // A printed line is matched alone up to three times below (opening a header, against the lines under it, as a
  // sentence): once is enough.
  const alone = new Map<Line, ReturnType<typeof matchHeader>>();
  const matchLine = (l: Line) => {
    let m = alone.get(l);
    if (!m) alone.set(l, (m = matchHeader(l, cols)));
    return m;
  };
  for (const page of doc.pages) {
    if (hint !== undefined && page.number !== hint && doc.pages.some((p) => p.number === hint)) continue;
    for (let li = 0; li < page.lines.length; li++) {
      const line = page.lines[li]!;
      // Header rows name columns; a line with a decimal amount is a data or subtotal row ("Subtotal $ 112.00"),
      // whatever its words say.
      const amounts = (l: Line) => l.words.filter((w) => /^[(\-$€£]*\d[\d.,']*[.,]\d{1,2}\)?$/.test(w.text)).length;
      if (money && amounts(line) >= 1) continue;
      let best = { ...matchLine(line), last: li };
      // Wrapped or grouped headers (a group label, leaves wrapped over two lines, a unit line): merge up to five
      // close lines, but no running text (a header cell is a few words).
      let merged = line;
      for (let k = li + 1; k < Math.min(page.lines.length, li + 5); k++) {
        const next = page.lines[k]!;
        if (next.y0 - merged.y1 > (line.y1 - line.y0) * 1.2 || (money && amounts(next) >= 1)) break;
        if (segments(next, 1.2).some((s) => s.words.length >= 7)) break;
        merged = mergeLines(merged, next);
        const m = matchHeader(merged, cols);
        if (named(m.columns) > named(best.columns) || (named(m.columns) === named(best.columns) && m.score > best.score + 0.2))
          best = { ...m, last: k };
      }
      // A line that adds nothing to the header below it (a caption, or a caption's last line) does not open it.
      if (best.last > li) {
        let rest = page.lines[li + 1]!;
        for (let k = li + 2; k <= best.last; k++) rest = mergeLines(rest, page.lines[k]!);
        const r = matchHeader(rest, cols);
        if (named(r.columns) >= named(best.columns) && (named(matchLine(line).columns) === 0 || r.score >= best.score - 0.05)) continue;
      }
      // A caption's sentence naming a column opens no header over the lines below it (they are the header).
      if (best.last > li && isSentence(line, matchLine(line).columns)) continue;
      // Sentences naming the columns do not become a header by merging them with the lines below.
      const parts = page.lines.slice(li, best.last + 1).map((l) => ({ l, m: l === line && best.last === li ? best : matchLine(l) }));
      if (parts.some((p) => isSentence(p.l, p.m.columns)) && parts.every((p) => named(p.m.columns) === 0 || isSentence(p.l, p.m.columns)))
        continue;
      if (named(best.columns) >= need && named(best.columns) > 0) {
        headers.push({ page: page.number, lineIndex: li, lastLine: best.last, columns: best.columns, score: best.score / cols.length });
        // (Side-by-side tables print their headers on one line: the columns named again right of the first copy.)
        const beside = best.last === li ? repeatedHeader(line, best.columns, cols, need) : undefined;
        if (beside) {
          // The two tables part where the second one's header starts.
          const split = Math.min(...beside.columns.filter((c) => c.field && !c.inferred).map((c) => c.x0));
          headers[headers.length - 1]!.bounds = [-Infinity, split];
          headers.push({
            page: page.number,
            lineIndex: li,
            lastLine: li,
            columns: beside.columns,
            score: beside.score / cols.length,
            bounds: [split, Infinity],
          });
        }
        li = best.last;
      }
    }
  }
  return headers;
}

/**
 * The same columns named again on a header line right of the copy already matched ("Bird Seen Bird Seen": two tables
 * side by side), when the words there name at least `need` of them.
 */
function repeatedHeader(line: Line, first: Column[], cols: FieldDef[], need: number): ReturnType<typeof matchHeader> | undefined {
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
