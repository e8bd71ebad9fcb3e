import type { FieldDef } from '../engine.types.js';
import { segments, spaceBetween } from '../layout/layout.builder.js';
import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { isCurrencyMark, withoutCurrencyMark } from '../parsers/currency.parser.js';
import { allSpans, conceptTokens, fold, labelSpec, lineConcepts, wordConcepts, type LabelSpec } from './label.matcher.js';
import { splitCountTimesPrice, stripRowOrdinals } from './table.cells.js';
import { dateLeaders, isDatesOnly } from './table.dates.js';
import { gridTable, isPositional } from './table.grid.js';
import { headerlessItems } from './table.headerless.js';
import { groupRows, mergeBands, type CellGeom, type RowBand } from './table.rows.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';

export interface TableResult {
  rows: Record<string, unknown>[];
  confidence: number;
  page: number;
  bbox: [number, number, number, number];
}

interface Column {
  /** Undefined for a printed header cell that no schema column claims: its words are dropped. */
  field?: FieldDef;
  /** Range guessed from the neighbours (no printed header): words only go here when they overlap it. */
  inferred?: boolean;
  x0: number;
  x1: number;
}

interface Header {
  page: number;
  lineIndex: number;
  /** Index of the last line that belongs to the header (headers may wrap over two lines). */
  lastLine: number;
  columns: Column[];
  score: number;
}

/**
 * A unit word ("pcs", "Std.") printed within this many line heights after a figure, landing in a number column, is
 * the figure's unit: a unit column set close beside a quantity column under one header cell ("Qty Unit").
 */
const UNIT_GAP = 1.5;
/** A unit of measure as printed: a short word or abbreviation ("pcs", "Std."), or an area or volume ("m²", "m2", "cm3"). */
const UNIT_WORD = /^(?:\p{L}{1,10}\.?|\p{L}{1,3}[23²³])$/u;
const STOP = new Set(['total', 'net', 'tax']);
/** The locale packs' table words (carry-over phrases, note words, total modifiers, "page"): table lines are judged
 * without their document, so every shipped pack applies. */
const VOCAB = allPacksVocabulary();

/** Lines below this fraction of the page height are its footer ("Page 1 of 2", bank details). */
const FOOTER_BAND = 0.85;
/**
 * A table continued overleaf without its header resumes right under the next page's running head (a letterhead,
 * "Invoice 123 (continued)"), which sits within this top fraction of the page …
 */
const RUNNING_HEAD_BAND = 0.15;
/** … and only a table that filled its page down to here (below this fraction of the height) is taken to go on. */
const FILLED_BAND = 0.7;

/** Cell placeholders for "none" / "not available": "-", "–", "..", ":". */
const PLACEHOLDER = /^(?:[-–—]{1,3}|\.{2,3}|:)$/;

/** Header phrasings beyond the column's own label: a line "amount" is printed as "Total" or "Net". */
const specCache = new WeakMap<FieldDef, LabelSpec>();
function columnSpec(c: FieldDef): LabelSpec {
  let spec = specCache.get(c);
  if (!spec) specCache.set(c, (spec = buildColumnSpec(c)));
  return spec;
}

function buildColumnSpec(c: FieldDef): LabelSpec {
  const spec = labelSpec(c.label, c.key);
  if (spec.variants.some((v) => v.includes('amount'))) spec.variants.push(['total'], ['line', 'total'], ['net']);
  if (spec.variants.some((v) => v.includes('description'))) spec.variants.push(['name'], ['title']);
  // Grouped headers ("LIMITS FOR DISCHARGES / to air"): the leaf is what is printed above the column.
  // Grouped headers: the last part of "Group / Leaf" is what is printed right above the column.
  const parts = (c.label ?? '').split(/\s+\/\s+/);
  if (parts.length > 1) spec.variants.push(conceptTokens(parts[parts.length - 1]!));
  return spec;
}

/**
 * Matches each column label to a span of header words (not pre-cut cells: "Qty Price" may be printed
 * with one space). Spans may not overlap; the best scores win.
 */
function matchHeader(line: Line, cols: FieldDef[]): { columns: Column[]; score: number } {
  const words = lineConcepts(line);
  const cands: Cand[] = [];
  cols.forEach((c, ci) => {
    for (const m of allSpans(words, columnSpec(c), 0.5))
      cands.push({ ci, start: m.start, end: m.end, score: m.score - 0.01 * (m.end - m.start) });
  });
  // Labels printed with their spaces lost or added ("Railtravellersrules" for "Rail travellers rules").
  // (Each word's printed row and squashed text, looked up once for every column.)
  const rows = line.words.map((w) => stackY.get(w) ?? w.y0);
  const squashedWords = line.words.map((w) => squash(w.text));
  cols.forEach((c, ci) => {
    const sq = squash(c.label ?? '');
    if (sq.length < 8) return;
    for (let i = 0; i < line.words.length; i++) {
      // Stacked header lines interleave in x order: a label is read from the words of one printed line.
      const row = rows[i]!;
      let acc = '';
      let n = 0;
      for (let j = i; j < Math.min(line.words.length, i + 8) && acc.length < sq.length; j++) {
        if (rows[j] !== row) continue;
        acc += squashedWords[j]!;
        if (acc === sq) cands.push({ ci, start: i, end: j + 1, score: 1 - 0.01 * n });
        // (More words only lengthen a span that no longer spells the label's start.)
        if (!sq.startsWith(acc)) break;
        n++;
      }
      // A label wrapped over the stacked lines: the span's words read line by line. (The span's letters are
      // counted first: only a span exactly as long as the label can spell it, whatever the reading order.)
      let spanLength = squashedWords[i]!.length;
      for (let j = i + 1; j < Math.min(line.words.length, i + 8); j++) {
        spanLength += squashedWords[j]!.length;
        if (spanLength > sq.length) break;
        if (spanLength < sq.length) continue;
        const ws = line.words.slice(i, j + 1).sort((a, b) => (stackY.get(a) ?? a.y0) - (stackY.get(b) ?? b.y0) || a.x0 - b.x0);
        if (ws.map((w) => squash(w.text)).join('') === sq) cands.push({ ci, start: i, end: j + 1, score: 1 - 0.01 * (j - i) });
      }
    }
  });
  cands.sort((a, b) => b.score - a.score);
  const usedC = new Set<number>();
  const usedW = new Set<number>();
  const chosen: typeof cands = [];
  for (const c of cands) {
    if (usedC.has(c.ci)) continue;
    let clash = false;
    for (let k = c.start; k < c.end; k++) if (usedW.has(k)) clash = true;
    if (clash) continue;
    usedC.add(c.ci);
    for (let k = c.start; k < c.end; k++) usedW.add(k);
    chosen.push(c);
  }
  preferAdjacentRepeats(chosen, cands, usedW);
  const columns: Column[] = [];
  let score = 0;
  for (const c of chosen) {
    const ws = line.words.slice(c.start, c.end);
    columns.push({ field: cols[c.ci]!, x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)) });
    score += Math.min(1, c.score);
  }
  // A numeric column left unnamed (e.g. "Amount" printed as "Prijs incl. BTW") takes the rightmost unclaimed
  // header cell right of every matched column: line totals are conventionally the last column.
  const missing = cols.filter(
    (c, ci) => !usedC.has(ci) && c.data_type !== 'string' && columnSpec(c).variants.some((v) => v.includes('total')),
  );
  if (missing.length && columns.length >= 2) {
    const right = Math.max(...columns.map((c) => c.x1));
    const free = segments(line, 1.2).filter((s) => s.x0 > right && s.words.every((w) => !usedW.has(line.words.indexOf(w))));
    const last = free[free.length - 1];
    if (last) {
      // Marked inferred: a guessed column must not make a data row look like a header.
      columns.push({ field: missing[0]!, x0: last.x0, x1: last.x1, inferred: true });
      usedC.add(cols.indexOf(missing[0]!));
    }
  }
  // A column without a printed header (row labels) sits between its schema neighbours: give it that gap — less the
  // header cells printed there that no field claimed, for a number column ("Plan" between "Service Period" and
  // "Amount" is no quantity): those name columns of their own.
  const unclaimed = segments(line, 1.2).filter((seg) => seg.words.every((w) => !usedW.has(line.words.indexOf(w))));
  const pos = new Map(columns.filter((c) => c.field).map((c) => [cols.indexOf(c.field!), c]));
  cols.forEach((c, ci) => {
    if (usedC.has(ci) || pos.size === 0) return;
    const left = [...pos.entries()].filter(([i]) => i < ci).sort((a, b) => b[0] - a[0])[0]?.[1];
    const right = [...pos.entries()].filter(([i]) => i > ci).sort((a, b) => a[0] - b[0])[0]?.[1];
    // (A text column keeps the whole gap: the cell over row labels is their caption, "Country" over the countries.)
    const gap = freeSpan(left ? left.x1 + 1 : 0, right ? right.x0 - 1 : 1e6, c.data_type === 'string' ? [] : unclaimed);
    if (!gap || gap[1] - gap[0] < 5 || (left && right && left.x0 > right.x0)) return;
    if (!right || (!left && ci !== 0)) return;
    columns.push({ field: c, x0: gap[0], x1: gap[1], inferred: true });
  });
  // Header cells nobody claimed still own their column, so their values (VAT %, SKU …) do not leak into neighbours.
  // (So do the words at the edge of a claimed cell set apart by more than a word space: "Taxe ‖ Montant" printed close.)
  for (const seg of segments(line, 1.2).flatMap((sg) => unclaimedEdges(sg.words, (w) => usedW.has(line.words.indexOf(w))))) {
    if (columns.some((c) => Math.min(c.x1, seg.x1) - Math.max(c.x0, seg.x0) > 0)) continue;
    columns.push({ x0: seg.x0, x1: seg.x1 });
  }
  columns.sort((a, b) => a.x0 - b.x0);
  // Column labels in one run of text ("Table 1: growth in Arcadia, EU-15 and EU-25") are more likely a caption
  // or a sentence than a header, whose labels stand apart: such a line loses against a header nearby.
  const runs = segments(line, 1.2);
  const runOf = (c: Column) => runs.findIndex((r) => r.x0 <= c.x0 + 0.01 && r.x1 >= c.x1 - 0.01);
  const named = columns
    .filter((c) => c.field && !c.inferred)
    .map(runOf)
    .filter((i) => i >= 0);
  score -= 0.3 * (named.length - new Set(named).size);
  return { columns, score };
}

/** The widest part of [x0, x1] that no cell of `cells` covers, or undefined. */
function freeSpan(x0: number, x1: number, cells: { x0: number; x1: number }[]): [number, number] | undefined {
  let free: [number, number][] = [[x0, x1]];
  for (const c of cells) {
    free = free.flatMap(([a, b]) =>
      c.x1 < a || c.x0 > b
        ? [[a, b] as [number, number]]
        : (
            [
              [a, c.x0 - 1],
              [c.x1 + 1, b],
            ] as [number, number][]
          ).filter(([p, q]) => q > p),
    );
  }
  return free.sort((p, q) => q[1] - q[0] - (p[1] - p[0]))[0];
}

/** Unclaimed words at a claimed header cell's edge are a cell of their own past this gap, in character widths. */
const EDGE_CELL_GAP = 1.5;

/**
 * The parts of a header segment no column claimed: the whole segment when none of its words is claimed, else the
 * runs of unclaimed words at its start or end that stand apart from the claimed words by more than a word space.
 */
function unclaimedEdges(words: Word[], claimed: (w: Word) => boolean): { x0: number; x1: number }[] {
  const span = (ws: Word[]) => ({ x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)) });
  const first = words.findIndex(claimed);
  if (first < 0) return [span(words)];
  const last = words.length - 1 - [...words].reverse().findIndex(claimed);
  // (A character's width, from the two words either side of the gap: a word space is about one.)
  const apart = (a: Word, b: Word) => b.x0 - a.x1 > EDGE_CELL_GAP * ((a.x1 - a.x0 + b.x1 - b.x0) / (a.text.length + b.text.length));
  const out: { x0: number; x1: number }[] = [];
  if (first > 0 && apart(words[first - 1]!, words[first]!)) out.push(span(words.slice(0, first)));
  if (last < words.length - 1 && apart(words[last]!, words[last + 1]!)) out.push(span(words.slice(last + 1)));
  return out;
}

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

/** Letters and digits of the folded text (memoised: header matching squashes each word once per candidate span). */
const squashed = new Map<string, string>();
const SQUASH_CACHE_MAX = 20_000;
function squash(s: string): string {
  let q = squashed.get(s);
  if (q === undefined) {
    if (squashed.size >= SQUASH_CACHE_MAX) squashed.clear();
    squashed.set(s, (q = fold(s).replace(/[^a-z0-9]/g, '')));
  }
  return q;
}

interface Cand {
  ci: number;
  start: number;
  end: number;
  score: number;
}

/**
 * Side-by-side tables repeat their labels on one header line ("Country Enquiries Country Enquiries"). A column
 * whose label is printed several times, matched out of the schema's column order (left of a column it follows),
 * takes the occurrence in order and nearest to the columns it was matched with.
 */
function preferAdjacentRepeats(chosen: Cand[], cands: Cand[], usedW: Set<number>): void {
  if (chosen.length < 2) return;
  const cost = (c: Cand, others: Cand[]) =>
    others.reduce(
      (s, o) =>
        s +
        (Math.sign(c.ci - o.ci) !== Math.sign(c.start - o.start) ? 1000 : 0) +
        Math.min(Math.abs(c.start - o.end), Math.abs(o.start - c.end)),
      0,
    );
  for (let n = 0; n < chosen.length; n++) {
    const cur = chosen[n]!;
    const others = chosen.filter((o) => o !== cur);
    let best = cur;
    let bestCost = cost(cur, others);
    // Only a column out of the schema's order moves: an ordered match is not second-guessed.
    if (bestCost < 1000) continue;
    for (const alt of cands) {
      if (alt.ci !== cur.ci || alt === cur || alt.score < cur.score - 0.01) continue;
      let clash = false;
      for (let k = alt.start; k < alt.end; k++) if (usedW.has(k) && (k < cur.start || k >= cur.end)) clash = true;
      if (clash) continue;
      const c = cost(alt, others);
      if (c < bestCost) {
        best = alt;
        bestCost = c;
      }
    }
    if (best === cur) continue;
    for (let k = cur.start; k < cur.end; k++) usedW.delete(k);
    for (let k = best.start; k < best.end; k++) usedW.add(k);
    chosen[n] = best;
  }
}

const named = (cs: Column[]) => cs.filter((c) => c.field && !c.inferred).length;

/** "Table 2 (page 3)" / "on page 3" in a table field's label or description restricts it to that page. */
/** Confidence of a table read off the cells' alignment alone. */
const GRID_CONFIDENCE = 0.6;

function pageHint(field: FieldDef): number | undefined {
  const m = VOCAB.pageRef.exec(`${field.label ?? ''} ${field.description ?? ''}`);
  return m ? Number(m[1]) : undefined;
}

export function findHeaders(doc: DocLayout, field: FieldDef): Header[] {
  const cols = field.fields ?? [];
  const hint = pageHint(field);
  // Money tables (price/amount columns): their rows are full of decimal amounts, their headers never are.
  const money = cols.some((c) =>
    columnSpec(c)
      .variants.flat()
      .some((t) => t === 'price' || t === 'amount'),
  );
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
      // Sentences naming the columns do not become a header by merging them with the lines below.
      const parts = page.lines.slice(li, best.last + 1).map((l) => ({ l, m: l === line && best.last === li ? best : matchLine(l) }));
      if (parts.some((p) => isSentence(p.l, p.m.columns)) && parts.every((p) => named(p.m.columns) === 0 || isSentence(p.l, p.m.columns)))
        continue;
      if (named(best.columns) >= need && named(best.columns) > 0) {
        headers.push({ page: page.number, lineIndex: li, lastLine: best.last, columns: best.columns, score: best.score / cols.length });
        li = best.last;
      }
    }
  }
  return headers;
}

/** The original top of each word of a merged header line (merging aligns them all on the first line). */
const stackY = new WeakMap<Word, number>();

/** Two stacked header lines become one: words with overlapping x are joined into one cell. */
function mergeLines(a: Line, b: Line): Line {
  const copy = (w: Word) => {
    const c = { ...w };
    stackY.set(c, stackY.get(w) ?? w.y0);
    return c;
  };
  const words: Word[] = [...a.words.map(copy), ...b.words.map(copy)];
  const y0 = Math.min(a.y0, b.y0);
  const y1 = Math.max(a.y1, b.y1);
  words.sort((p, q) => p.x0 - q.x0);
  for (const w of words) {
    w.y0 = y0;
    w.y1 = y0 + (a.y1 - a.y0);
  }
  return { ...a, words, y0, y1, x0: Math.min(a.x0, b.x0), x1: Math.max(a.x1, b.x1), text: a.text + ' ' + b.text };
}

/**
 * Column of a word: the header it overlaps most; else, for a word of text, the nearest text column on its
 * left (text is left-aligned and runs on under neighbouring headers); else the nearest header.
 */
function columnOf(w: Word, cols: Column[]): number {
  const overlapIdx = cols.findIndex((c) => Math.min(w.x1, c.x1) - Math.max(w.x0, c.x0) > 0);
  if (overlapIdx >= 0 && cols[overlapIdx]!.inferred) return overlapIdx;
  if (overlapIdx < 0 && /\p{L}{2,}/u.test(w.text)) {
    for (let i = cols.length - 1; i >= 0; i--) if (cols[i]!.x0 <= w.x0 && cols[i]!.field?.data_type === 'string') return i;
  }
  let best = -1;
  let bestD = Infinity;
  cols.forEach((c, i) => {
    const overlap = Math.min(w.x1, c.x1) - Math.max(w.x0, c.x0);
    const d = overlap > 0 ? -overlap : Math.min(Math.abs(w.x0 - c.x1), Math.abs(c.x0 - w.x1));
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}

/** Words that mean "total" only in front of one ("Grand total", "Sub total"), not in "Grand Canyon", "Sub-Saharan". */
const MODIFIERS = VOCAB.totalModifiers;

function isStopLine(line: Line): boolean {
  // Any cell opening with a totals word ("Subtotal", "Total TTC", "Factuur totaal", "incl. BTW") closes the items.
  const segs = segments(line, 1.5);
  return segs.some((seg, si) => {
    // (The cell's opening words, before any figure of the line: a totals word after a figure is a row's tax column,
    // "$6.71 22 VAT 5%" or "… ‖ 15.00 ‖ VAT 20%", not a label.)
    if (segs.slice(0, si).some((s) => /\d/.test(s.text))) return false;
    const figure = seg.words.findIndex((w) => /\d/.test(w.text));
    const texts = seg.words.slice(0, Math.min(3, figure < 0 ? 3 : figure)).map((w) => w.text);
    // (A label printed onto its figure, "Total:£78.00", opens the cell as well.)
    const glued = figure >= 0 && figure < 3 ? /^(\p{L}[\p{L}.]*):/u.exec(seg.words[figure]!.text)?.[1] : undefined;
    if (glued) texts.push(glued);
    if (
      !wordConcepts(texts)
        .flat()
        .some((c) => STOP.has(c))
    )
      return false;
    // Token by token, so that a modifier counts only right before a totals word.
    const toks = texts.flatMap((t) =>
      fold(t)
        .split(/[^a-z0-9]+/)
        .filter(Boolean),
    );
    return toks.some((t, i) =>
      MODIFIERS.has(t) ? conceptTokens(toks[i + 1] ?? '').some((c) => STOP.has(c)) : conceptTokens(t).some((c) => STOP.has(c)),
    );
  });
}

/**
 * A line of running text: one cell of many words, crossing the boundaries of at least two printed header
 * columns (a wrapped cell stays within its column or runs under one neighbour).
 */
/** A run of at least this many words may be prose even when it holds a figure. */
const PROSE_MIN_WORDS = 6;
/** A line set in at least this many runs apart is printed cell by cell (a row), never prose. */
const ROW_MIN_CELLS = 3;

function isProse(line: Line, cols: Column[], lh: number): boolean {
  const segs = segments(line, 1.2);
  // A line printed in several cells apart is a row however long its cells run: prose is set without wide gaps.
  if (segs.length >= ROW_MIN_CELLS) return false;
  const named = cols.filter((c) => c.field && !c.inferred);
  return segs.some((seg) => {
    if (seg.words.length < 6 && seg.text.length < 40) return false;
    // (A run opening with a figure or date, "30/09/2024 J. Doe Site survey 5", is a row whose cells are set close.)
    if (/^[\d(+-]/.test(seg.words[0]?.text ?? '')) return false;
    // (Nor a short run with a figure or code in it, "Quill Network Services 821-15/2031-DS": cells set close.)
    if (seg.words.length < PROSE_MIN_WORDS && seg.words.some((w) => /\d/.test(w.text))) return false;
    const crossed = named.filter((c) => seg.x0 < c.x0 - lh && seg.x1 > c.x0 + lh).length;
    return crossed >= 2;
  });
}

/**
 * Lines of the table body: from below the header until a wide vertical gap (relative to the rows' own
 * pitch), the next header, or — for line items — a totals line. Unit lines right under the header
 * ("kg/year", no digits, not in the first column) are header, not data.
 */
/** Carry-over lines of a table split over pages (folded text). */
const CARRY = VOCAB.carryOver;

function bodyLines(
  page: Page,
  h: Header,
  lh: number,
  lineItems: boolean,
  isHeaderStart: (li: number) => boolean,
  resumeAt?: number,
): { lines: Line[]; toPageEnd: boolean } {
  const lines = page.lines;
  const out: Line[] = [];
  // A continued table (no header on this page) starts at its first row.
  const from = resumeAt ?? h.lastLine + 1;
  let prevY = resumeAt !== undefined ? lines[resumeAt]!.y0 : lines[h.lastLine]!.y1;
  // The table ran on to the foot of the page (nothing after it but the page footer): it may go on overleaf.
  const footerOnly = (li: number) => lines.slice(li).every((l) => l.y0 > page.height * FOOTER_BAND);
  const done = (toPageEnd: boolean) => ({ lines: out, toPageEnd });
  const pitches: number[] = [];
  const firstX1 = h.columns[0]?.x1 ?? 0;
  // Where the figures start: the first number column right of the text column. A line of line items whose text
  // starts there is the summary block printed under the figures ("Warenwert ‖ 610,00", "Rabatt 10 % ‖ -61,00"),
  // not an item: items start at the left, in their position or text column.
  const textCol = h.columns.find((c) => c.field?.data_type === 'string' && !c.inferred);
  const figures = h.columns.filter((c) => c.field && c.field.data_type !== 'string' && !c.inferred && textCol && c.x0 > textCol.x1);
  const figuresX0 = figures.length ? Math.min(...figures.map((c) => c.x0)) : Infinity;
  for (let li = from; li < lines.length; li++) {
    const line = lines[li]!;
    const gap = line.y0 - prevY;
    if (gap > lh * 4) return done(footerOnly(li));
    if (pitches.length >= 2) {
      const med = [...pitches].sort((a, b) => a - b)[Math.floor(pitches.length / 2)]!;
      // In units of the body's own text height: a header printed larger must not stretch the table's reach.
      const heights = out.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
      const unit = Math.min(lh, heights[Math.floor(heights.length / 2)]!);
      // A blank line between groups of rows does not end the table when the line after it is printed cell by cell
      // on the table's own column edges (row groups spaced apart); a paragraph or caption is not.
      const groupStart = onColumnEdges(line, out, lh) || isGroupCaption(line, lines[li + 1], out, lh);
      if (gap > Math.max(unit * 1.2, med * 2.5) && !(gap <= unit * ROW_GROUP_GAP && groupStart)) return done(footerOnly(li));
    }
    if (isHeaderStart(li) && li > h.lastLine + 2) return done(false);
    // "Source: …" / "Note: …" under a table closes it; so does prose running across the columns.
    if (VOCAB.tableNote.test(line.text)) return done(false);
    if (!lineItems && isProse(line, h.columns, lh)) return done(false);
    if (lineItems && out.some((l) => /\d/.test(l.text)) && isStopLine(line)) {
      // (A tax word in the page footer, "VAT ID: …" under the last rows, is the letterhead's: the items may go on.)
      if (footerOnly(li)) return done(true);
      // A section subtotal inside the table ("Subtotal $ 112.00", then more items) does not end it:
      // look past it (and a section caption) for another item row; the closing totals block has none.
      const next = [lines[li + 1], lines[li + 2]].find((l) => l && !isStopLine(l) && /\d/.test(l.text) && segments(l, 1.2).length >= 3);
      const between = next ? lines.slice(li + 1, lines.indexOf(next)) : [];
      if (!next || between.some((l) => isStopLine(l)) || next.y0 - line.y1 > lh * 5) return done(false);
      prevY = line.y1;
      continue;
    }
    // A carry line at the foot of the items ("Carried forward", "Übertrag", "À reporter") with only the page footer
    // after it: the table goes on overleaf.
    if (lineItems && out.length && CARRY.test(fold(line.text)) && footerOnly(li + 1)) return done(true);
    // (A summary line carries its amount: a word alone under a figure, "month" under "6.00", is that cell's unit.)
    if (
      lineItems &&
      out.some((l) => /\d/.test(l.text)) &&
      /^\p{L}/u.test(line.words[0]?.text ?? '') &&
      /\d/.test(line.text) &&
      line.x0 >= figuresX0 - lh * 0.5
    )
      return done(false);
    // (Not a line of text under the text column's header: the first item's description, printed above its figures.)
    const underText = !!textCol && line.words.some((w) => w.x1 > textCol.x0 && w.x0 < textCol.x1);
    if (!out.length && !/\d/.test(line.text) && line.x0 > firstX1 && !(lineItems && underText)) {
      prevY = line.y1;
      continue;
    }
    if (out.length) pitches.push(Math.max(0, gap));
    out.push(line);
    prevY = line.y1;
  }
  return done(true);
}

/** Widest gap, in body text heights, that may separate groups of rows of one table (about two blank lines). */
const ROW_GROUP_GAP = 3;
/** How far, in line heights, a cell edge may stray from the column edge it is printed on. */
const EDGE_SLACK = 0.5;

/**
 * Whether `line` reads as a line of the table whose lines so far are `rows`: two or more cells, every one
 * starting or ending where cells of the rows above start or end (text is left-aligned, figures right-aligned).
 */
function onColumnEdges(line: Line, rows: Line[], lh: number): boolean {
  const segs = segments(line, 1.2);
  if (segs.length < 2 || rows.length === 0) return false;
  const cells = rows.flatMap((l) => segments(l, 1.2));
  const near = (a: number, b: number) => Math.abs(a - b) <= lh * EDGE_SLACK;
  const off = segs.filter((sg) => !cells.some((c) => near(c.x0, sg.x0) || near(c.x1, sg.x1))).length;
  // (A row label set in or out from its column, a group's first row, may stray when the line has cells enough.)
  return off === 0 || (segs.length >= STRAY_CELL_MIN_CELLS && off === 1);
}

/**
 * A group's caption: one run of words on an edge of the table's cells (the row labels' column), set close above a
 * line printed on the column edges ("Consumption:" over its rows).
 */
function isGroupCaption(line: Line, next: Line | undefined, rows: Line[], lh: number): boolean {
  const segs = segments(line, 1.2);
  if (segs.length !== 1 || !next || next.y0 - line.y1 > lh || /\d/.test(line.text)) return false;
  const cells = rows.flatMap((l) => segments(l, 1.2));
  const near = (a: number, b: number) => Math.abs(a - b) <= lh * EDGE_SLACK;
  const edged = cells.some((c) => near(c.x0, segs[0]!.x0) || near(c.x1, segs[0]!.x1));
  return edged && segments(next, 1.2).length >= 2 && onColumnEdges(next, rows, lh);
}

/** A line of at least this many cells may have one cell off the table's column edges and still be on them. */
const STRAY_CELL_MIN_CELLS = 3;

/**
 * Column assignment from the body itself: x ranges that no word of any multi-cell row covers are the
 * gutters; each body column between gutters goes to the header it overlaps most (headers are often
 * narrower than, or offset from, their right-aligned numbers). Falls back to header geometry.
 */
/** A gutter splitting a run of body text: no line prints a word across it, and it is at least this wide (in line heights). */
const GUTTER_MIN = 0.2;

/**
 * A run of body text that lies under two header columns and has a gutter no line crosses ("23.05.2019 ‖ Hosting
 * plan", a date column set close to the descriptions) is two columns: split where the parts fall under different
 * headers. (A wrapped description crossing into the next header has no such gutter: its lines cover it.)
 */
function splitAtGutters(
  run: [number, number],
  spans: [number, number][],
  lh: number,
  targetOf: (r: [number, number]) => number,
  lines = 0,
): [number, number][] {
  const inside = spans.filter(([a, b]) => a >= run[0] && b <= run[1]);
  let parts: [number, number][] = [];
  for (const [a, b] of inside) {
    const last = parts[parts.length - 1];
    if (last && a - last[1] < lh * GUTTER_MIN) last[1] = Math.max(last[1], b);
    else parts.push([a, b]);
  }
  // (A gutter that one long word or a stray line crosses is still a gutter: see coveredParts.)
  if (parts.length < 2) parts = coveredParts(inside, lines, lh);
  if (parts.length < 2) return [run];
  // Neighbouring parts under one header (or none) stay together.
  const out: [number, number][] = [];
  let cur = parts[0]!;
  let curT = targetOf(cur);
  for (const p of parts.slice(1)) {
    const t = targetOf(p);
    if (t === curT || t < 0 || curT < 0) {
      cur = [cur[0], Math.max(cur[1], p[1])];
      if (curT < 0) curT = targetOf(cur);
    } else {
      out.push(cur);
      cur = p;
      curT = t;
    }
  }
  out.push(cur);
  return out;
}

/** A gutter may be crossed by the words of at most this share of the body's lines (a long name, a footer)… */
const GUTTER_CROSS_SHARE = 0.05;
/** …and of at most this many lines. */
const GUTTER_CROSS_MAX = 2;

/**
 * The parts of a run of body text between gutters that only a few words cross: stretches at least GUTTER_MIN line
 * heights wide, covered by at most GUTTER_CROSS_SHARE of the lines (never more than GUTTER_CROSS_MAX), with busier
 * text on both sides. The run is cut in the middle of each; every word stays in a part.
 */
function coveredParts(spans: [number, number][], lines: number, lh: number): [number, number][] {
  if (!spans.length || lines < 1 / GUTTER_CROSS_SHARE) return [];
  const limit = Math.min(GUTTER_CROSS_MAX, Math.floor(lines * GUTTER_CROSS_SHARE));
  const lo = Math.floor(Math.min(...spans.map(([a]) => a)));
  const hi = Math.ceil(Math.max(...spans.map(([, b]) => b)));
  const cover = new Int32Array(hi - lo + 1);
  for (const [a, b] of spans) for (let x = Math.ceil(a); x <= Math.floor(b); x++) cover[x - lo]!++;
  const cuts: number[] = [];
  let seenBusy = false;
  let lowFrom = -1;
  for (let i = 0; i < cover.length; i++) {
    if (cover[i]! > limit) {
      if (seenBusy && lowFrom >= 0 && i - lowFrom >= lh * GUTTER_MIN) cuts.push(lo + (lowFrom + i) / 2);
      seenBusy = true;
      lowFrom = -1;
    } else if (seenBusy && lowFrom < 0) lowFrom = i;
  }
  if (!cuts.length) return [];
  const bounds = [-Infinity, ...cuts, Infinity];
  return bounds.slice(1).flatMap((b, k) => {
    const own = spans.filter(([x0, x1]) => (x0 + x1) / 2 >= bounds[k]! && (x0 + x1) / 2 < b);
    return own.length ? [[Math.min(...own.map(([x0]) => x0)), Math.max(...own.map(([, x1]) => x1))] as [number, number]] : [];
  });
}

/** A word's column, and the gutters found between runs of body text (no line prints across them). */
type ColumnAssigner = ((w: Word) => number) & { gutters?: number[] };

function gutterColumns(body: Line[], cols: Column[], lh: number): ColumnAssigner {
  const multi = body.filter((l) => segments(l, 1.2).length >= 2);
  if (multi.length < 2) return (w) => columnOf(w, cols);
  const spans = multi.flatMap((l) => l.words.map((w) => [w.x0, w.x1] as [number, number])).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = merged[merged.length - 1];
    if (last && a - last[1] < lh * 0.6) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const overlapTarget = ([a, b]: [number, number]) => {
    let best = -1;
    let bestOv = 0;
    cols.forEach((c, i) => {
      const ov = Math.min(b, c.x1) - Math.max(a, c.x0);
      const named = c.field && !c.inferred ? 1 : 0.5;
      if (ov * named > bestOv) {
        bestOv = ov * named;
        best = i;
      }
    });
    // (A column the header only guessed loses a run to a printed caption the run is aligned with, left or right:
    // text set under "Plan" is that column's even where it reaches into the span guessed for a quantity.)
    if (best >= 0 && cols[best]!.inferred) {
      const near = (x: number, y: number) => Math.abs(x - y) <= lh * EDGE_SLACK;
      const aligned = cols.findIndex((c) => !c.inferred && (near(c.x0, a) || near(c.x1, b)) && c.x0 < b && c.x1 > a);
      if (aligned >= 0) return aligned;
    }
    return best;
  };
  const runs = merged.flatMap((run) => splitAtGutters(run, spans, lh, overlapTarget, multi.length));
  const gutters = runs.slice(1).flatMap((r, k) => (merged.some(([a, b]) => a < r[0] && b > r[0]) ? [(runs[k]![1] + r[0]) / 2] : []));
  merged.splice(0, merged.length, ...runs);
  const target = merged.map(([a, b]) => {
    const best = overlapTarget([a, b]);
    return best >= 0 ? best : columnOf({ text: 'x', x0: a, x1: b, y0: 0, y1: 0, conf: 1 }, cols);
  });
  // Text printed right of the table (chart labels, a side note): a body column right of every header that is
  // not the only one mapped to its header is outside the table, and so is anything further right.
  const right = Math.max(...cols.map((c) => c.x1));
  const outside = merged.map(([a], k) => a > right + lh && merged.some(([, b], j) => j !== k && target[j] === target[k] && b < a));
  const edge = Math.max(right, ...merged.filter((_, k) => !outside[k]).map(([, b]) => b));
  const assign: ColumnAssigner = (w) => {
    const cx = (w.x0 + w.x1) / 2;
    const k = merged.findIndex(([a, b]) => cx >= a && cx <= b);
    if (k >= 0 ? outside[k] : outside.some(Boolean) && w.x0 > edge + lh) return -1;
    if (k < 0) return columnOf(w, cols);
    return target[k]!;
  };
  assign.gutters = gutters;
  return assign;
}

/** Line items (priced rows): a number column named price or amount. */
function isLineItems(field: FieldDef): boolean {
  return (field.fields ?? []).some(
    (c) =>
      c.data_type !== 'string' &&
      columnSpec(c)
        .variants.flat()
        .some((t) => t === 'price' || t === 'amount'),
  );
}

/** A header line used by one table: its page, line and the x extent of its named columns. */
function takenKey(h: Header): string {
  const cs = h.columns.filter((c) => c.field && !c.inferred);
  return `${h.page}:${h.lineIndex}:${Math.min(...cs.map((c) => c.x0))}:${Math.max(...cs.map((c) => c.x1))}`;
}

/** Side-by-side tables share a header line: a header is taken only where its named columns overlap a used one. */
function isTaken(h: Header, taken: Set<string>): boolean {
  const [, , a0, a1] = takenKey(h).split(':').map(Number) as [number, number, number, number];
  for (const t of taken) {
    const [p, l, b0, b1] = t.split(':').map(Number) as [number, number, number, number];
    if (p === h.page && l === h.lineIndex && Math.min(a1, b1) > Math.max(a0, b0)) return true;
  }
  return false;
}

/**
 * Where a table that ran to the foot of the previous page resumes on `page` when the header is not printed
 * again: the first line that reads as one of its rows — for line items a figure under a money column with text
 * before it, otherwise cells under at least two of the named columns. Only a running head ("Invoice 123
 * (continued)", a letterhead) may come before it; anything else first, a totals line, or a header with these
 * columns anywhere on the page means the table does not continue. Returns -1 then.
 */
function resumeLine(page: Page, h: Header, lh: number, lineItems: boolean, headers: Header[]): number {
  const named = h.columns.filter((c) => c.field && !c.inferred);
  const moneyCols = named.filter(
    (c) =>
      c.field!.data_type !== 'string' &&
      columnSpec(c.field!)
        .variants.flat()
        .some((t) => t === 'price' || t === 'amount'),
  );
  const under = (w: Word, c: Column) => Math.min(w.x1, c.x1 + lh) - Math.max(w.x0, c.x0 - lh) > 0;
  // A page that prints a header with these columns starts a table of its own (perhaps another field's).
  if (headers.some((x) => x.page === page.number)) return -1;
  const figure = (w: Word) => /^[-+(]?[\d.,' ]*\d[\d.,']*\)?-?$/.test(withoutCurrencyMark(w.text));
  for (let li = 0; li < page.lines.length; li++) {
    const line = page.lines[li]!;
    if (isStopLine(line)) return -1;
    // The sum brought forward from the page before ("Brought forward", "Übertrag") is no row.
    if (CARRY.test(fold(line.text))) continue;
    const segs = segments(line, 1.2);
    let row: boolean;
    if (lineItems && moneyCols.length) {
      const priced = line.words.some((w) => figure(w) && moneyCols.some((c) => under(w, c)));
      const texted = line.words.some((w) => /\p{L}{2,}/u.test(w.text) && w.x1 < Math.min(...moneyCols.map((c) => c.x0)));
      row = segs.length >= 2 && priced && texted;
    } else {
      const hit = new Set(line.words.map((w) => named.findIndex((c) => under(w, c))).filter((i) => i >= 0));
      row =
        segs.length >= 2 &&
        hit.size >= Math.min(2, named.length) &&
        segs.every((sg) => named.some((c) => sg.x0 < c.x1 + lh && sg.x1 > c.x0 - lh));
    }
    if (row) return li;
    // Only the running head may come before the first row.
    if (line.y1 > page.height * RUNNING_HEAD_BAND) return -1;
  }
  return -1;
}

/** Extracts a table field: rows under each matching header, continued across pages, stopping at totals. */
/**
 * `taken` holds headers already used by earlier table fields of the schema, so that two fields with the
 * same columns (one table printed twice, or a table per page) get distinct tables, in document order.
 */
export function extractTable(doc: DocLayout, field: FieldDef, ctx: DocContext, taken: Set<string> = new Set()): TableResult | undefined {
  // Columns named by position only: no header to look for, the cells' alignment gives the columns.
  if (isPositional(field)) {
    const t = gridTable(doc, field, ctx, taken, pageHint(field));
    return t ? { ...t, confidence: GRID_CONFIDENCE } : undefined;
  }
  const found = findHeaders(doc, field);
  const headers = found.filter((h) => !isTaken(h, taken));
  if (!headers.length) {
    // No header names the columns: an item list printed without one is read off its aligned amounts.
    if (!isLineItems(field) || taken.has('headerless')) return undefined;
    const t = headerlessItems(doc, field, ctx, isStopLine);
    if (!t) return undefined;
    taken.add('headerless');
    return { ...t, confidence: 0.5 };
  }
  // Keep the best header (earliest among near-equal ones) and any later header with the same columns on later pages.
  const top = Math.max(...headers.map((h) => h.score));
  const best = headers.find((h) => h.score >= top - 0.05)!;
  // Line items (priced rows) end at the totals; in other tables a "Total" row is a row like any other.
  const lineItems = isLineItems(field);
  const keyOf = (h: Header) => h.columns.map((c) => c.field?.key ?? '').join(',');
  const chosen = headers.filter(
    (h) =>
      h === best ||
      (keyOf(h) === keyOf(best) && (h.page > best.page || (h.page === best.page && h.lineIndex > best.lineIndex)) && h.page !== best.page),
  );
  const rows: Record<string, unknown>[] = [];
  let bbox: [number, number, number, number] | undefined;
  // Only a header about as good as the chosen one, naming as many columns, starts another table; weak matches inside the body
  // (a data row that happens to name a column) do not end it.
  const headerStarts = new Set(
    headers.filter((h) => h.score >= best.score * 0.6 && named(h.columns) >= named(best.columns)).map((h) => `${h.page}:${h.lineIndex}`),
  );
  // Each chosen header's body, and where a body runs to the foot of its page and the next page does not print
  // the header again, the rows at the top of the next page (and so on).
  const parts: { h: Header; lh: number; body: Line[] }[] = [];
  for (const h of chosen) {
    taken.add(takenKey(h));
    const page = doc.pages.find((p) => p.number === h.page)!;
    const header = page.lines[h.lineIndex]!;
    const lh = Math.max(1, header.y1 - header.y0);
    let part = bodyLines(page, h, lh, lineItems, (li) => headerStarts.has(`${h.page}:${li}`));
    parts.push({ h, lh, body: part.lines });
    // (Not for a table the schema places on one page: "Table 2 (page 3)".)
    const onePage = pageHint(field) !== undefined && doc.pages.some((p) => p.number === pageHint(field));
    for (let n = h.page + 1; part.toPageEnd && part.lines.length && !onePage; n++) {
      const here = doc.pages.find((p) => p.number === n - 1)!;
      if (part.lines[part.lines.length - 1]!.y1 < here.height * FILLED_BAND) break;
      const next = doc.pages.find((p) => p.number === n);
      if (!next || chosen.some((c) => c.page === n)) break;
      const from = resumeLine(next, h, lh, lineItems, found);
      if (from < 0) break;
      const cont: Header = { ...h, page: n, lineIndex: from - 1, lastLine: from - 1 };
      part = bodyLines(next, cont, lh, lineItems, (li) => headerStarts.has(`${n}:${li}`), from);
      parts.push({ h: cont, lh, body: part.lines });
    }
  }
  for (const { h, lh, body } of parts) {
    const pending: Record<string, string>[] = [];
    const cols = h.columns;
    const numeric = new Set(cols.filter((c) => c.field && c.field.data_type !== 'string').map((c) => c.field!.key));
    // Money columns (prices, amounts): a row without any of them is no line item of a priced table.
    const money = new Set(
      cols
        .filter(
          (c) =>
            c.field &&
            c.field.data_type !== 'string' &&
            columnSpec(c.field)
              .variants.flat()
              .some((t) => t === 'price' || t === 'amount'),
        )
        .map((c) => c.field!.key),
    );
    const assign = gutterColumns(body, cols, lh);
    const textKeys = cols.filter((c) => c.field && !numeric.has(c.field.key)).map((c) => c.field!.key);
    const perLine: RowBand[] = [];
    const lineExtras: Record<string, string>[] = [];
    const kept: Line[] = [];
    for (const line of body) {
      const cells: Record<string, string[]> = {};
      let textX0 = Infinity;
      let lastCi = -1;
      // Column of each word, to tell a run of text printed across the column grid from cells.
      const wordCol: number[] = [];
      const geom: Record<string, CellGeom> = {};
      const dates = dateLeaders(line, ctx.dateOrder);
      const lastWord: Record<string, Word> = {};
      for (const [wi, w] of line.words.entries()) {
        let ci = assign(w);
        // Words (not numbers, not currency codes) that land in a number column are text run over from the
        // text column on their left ("Design (hours): Of a sample" under a narrow "Product" header) — except a
        // unit printed right after the figure in the same cell ("3 loads", "12 pcs"), which stays with it.
        const col = cols[ci];
        const prev = line.words[wi - 1];
        // (The figure opens the cell and the unit closes it: "2 Days x 1 Van" inside a description is text.)
        const [before, next] = [line.words[wi - 2], line.words[wi + 1]];
        const cellOfTwo = (!before || prev!.x0 - before.x1 >= lh * 0.8) && (!next || next.x0 - w.x1 >= lh * 0.8);
        const unitShaped = !!prev && cellOfTwo && /^[-+(]?\d[\d.,']*$/.test(prev.text) && UNIT_WORD.test(w.text);
        const sameCell = unitShaped && w.x0 - prev!.x1 < lh * 0.6 && assign(prev!) === ci;
        // (A unit column set close beside the quantities, under one header cell "Qty Unit", reaches into the next
        // number column's span: the unit still goes with its figure. A word in a text column is that column's.)
        const besideFigure = unitShaped && !sameCell && w.x0 - prev!.x1 < lh * UNIT_GAP && !!col?.field && col.field.data_type !== 'string';
        const unitOfFigure = sameCell || besideFigure;
        if (besideFigure) ci = assign(prev!);
        // (The letters of a currency mark printed on a figure, "US$2,975.31", make no word.)
        const bare = withoutCurrencyMark(w.text);
        const wordy = /\p{L}/u.test(bare) && (!/\d/.test(bare) || col?.inferred) && !isCurrencyMark(w.text) && !unitOfFigure;
        // A figure inside a run of text ("Lymphdrainage 45 Min.") under a guessed column belongs to the text.
        const inText =
          !!col?.inferred &&
          !!prev &&
          w.x0 - prev.x1 < lh * 0.6 &&
          cols[lastCi]?.field?.data_type === 'string' &&
          !!next &&
          next.x0 - w.x1 < lh * 0.6 &&
          /\p{L}/u.test(next.text);
        // (Not a unit word alone on its line under a printed number header: "month" under "6.00", the figure's
        // cell printed on two lines, even where the word starts a little left of the header.)
        const loneUnit = line.words.length === 1 && UNIT_WORD.test(w.text) && !!col?.field && !col.inferred;
        if (col?.field && col.field.data_type !== 'string' && !loneUnit && (inText || (wordy && (col.inferred || w.x0 < col.x0)))) {
          for (let j = ci - 1; j >= 0; j--)
            if (cols[j]!.field?.data_type === 'string') {
              ci = j;
              break;
            }
        }
        // (The words of a printed date stay in the cell its first word opened.)
        const leader = dates.get(wi);
        if (leader !== undefined && leader !== wi) ci = wordCol[leader]!;
        lastCi = ci;
        wordCol[wi] = ci;
        const f = cols[ci]?.field;
        if (f?.data_type === 'string') textX0 = Math.min(textX0, w.x0);
        // Unclaimed columns are kept aside (as "#<index>") for the quantity × price = amount check.
        const k = f ? f.key : ci >= 0 ? `#${ci}` : undefined;
        if (!k) continue;
        // (Runs of one word split where the PDF breaks it, "O" "ff" "re" around a ligature, join without a space.)
        const cell = (cells[k] ??= []);
        const previous = lastWord[k];
        if (previous && cell.length && !spaceBetween(previous, w)) cell[cell.length - 1] += w.text;
        else cell.push(w.text);
        lastWord[k] = w;
        const g = geom[k];
        geom[k] = g ? { ...g, x0: Math.min(g.x0, w.x0), x1: Math.max(g.x1, w.x1) } : { x0: w.x0, x1: w.x1, firstW: w.x1 - w.x0 };
      }
      const extras = Object.fromEntries(
        Object.entries(cells)
          .filter(([k]) => k.startsWith('#'))
          .map(([k, v]) => [k, v.join(' ')]),
      );
      for (const k of Object.keys(extras)) delete cells[k];
      if (!Object.keys(cells).length) continue;
      // A text-only line of a line-item table belongs, whole, to the text column it starts in (a wrapped
      // description drifts under numeric headers).
      const hasNumeric = Object.keys(cells).some((k) => numeric.has(k) && /\d/.test(cells[k]!.join(' ')));
      let spans = segments(line, 1.2).some((seg) =>
        seg.words.some((w, j) => {
          const [a, b] = [wordCol[line.words.indexOf(seg.words[j - 1]!)], wordCol[line.words.indexOf(w)]];
          // (Not across a gutter the body's columns keep: "23.05.2019 ‖ Hosting plan" is two cells set close.)
          const prevW = seg.words[j - 1];
          const gutter = !!prevW && (assign.gutters ?? []).some((x) => x >= prevW.x1 - 0.5 && x <= w.x0 + 0.5);
          return j > 0 && a !== undefined && b !== undefined && a >= 0 && b >= 0 && a !== b && !gutter;
        }),
      );
      // (Not a unit word alone inside a number column's span, "month" under "6.00": the figure's cell printed on two lines.)
      const keys = Object.keys(cells);
      const unitAlone = line.words.length === 1 && UNIT_WORD.test(line.words[0]!.text) && keys.length === 1 && numeric.has(keys[0]!);
      if (!hasNumeric && !unitAlone && money.size > 0 && textKeys.length) {
        spans = false;
        const k = textKeys.find((c) => cells[c]) ?? textKeys[0]!;
        const all = line.words.map((w) => w.text);
        for (const key of Object.keys(cells)) delete cells[key];
        cells[k] = all;
      }
      perLine.push({
        y0: line.y0,
        y1: line.y1,
        textX0,
        firstWord: line.words[0]?.text ?? '',
        spans,
        geom,
        cells: Object.fromEntries(Object.entries(cells).map(([k, v]) => [k, v.join(' ')])),
      });
      lineExtras.push(extras);
      kept.push(line);
    }
    const bands = mergeBands(perLine);
    const firstCol = [...cols].sort((a, b) => a.x0 - b.x0)[0];
    const groups = groupRows(
      bands.map((b) => b.band),
      { numeric, money, columns: cols.filter((c) => c.field).length, firstKey: firstCol?.field?.key, lh },
    );
    for (const g of groups) {
      const members = g.members.map((i) => bands[i]!);
      const anchor = bands[g.anchor]!;
      const row: Record<string, string> = { ...Object.assign({}, ...anchor.lines.map((i) => lineExtras[i]!)) };
      for (const m of members) {
        for (const [k, v] of Object.entries(m.band.cells)) {
          if (!v.trim()) continue;
          // Numbers are not joined across lines: the anchor's (or else the first) value stands.
          if (numeric.has(k)) row[k] ??= anchor.band.cells[k] ?? v;
          else row[k] = row[k] ? `${row[k]} ${v}` : v;
        }
      }
      pending.push(row);
      for (const m of members)
        for (const i of m.lines) {
          const line = kept[i]!;
          const b = [line.x0, line.y0, line.x1, line.y1] as [number, number, number, number];
          bbox = bbox ? [Math.min(bbox[0], b[0]), Math.min(bbox[1], b[1]), Math.max(bbox[2], b[2]), Math.max(bbox[3], b[3])] : b;
        }
    }
    if (money.size > 0) preferWordyText(pending, cols, ctx.dateOrder);
    if (money.size > 0) lineItemCells(pending, cols, ctx);
    reconcileArithmetic(pending, cols, ctx);
    for (const r of pending) {
      const out: Record<string, unknown> = {};
      for (const c of cols) {
        if (!c.field) continue;
        const raw = r[c.field.key];
        if (raw === undefined) continue;
        // A dash, dots or a colon alone in a cell is printed content ("no value"), kept as printed.
        const text = money.size > 0 ? stripItemCode(raw) : raw;
        const v =
          c.field.data_type === 'string'
            ? cleanString(text) || (PLACEHOLDER.test(raw.trim()) ? raw.trim() : '')
            : findTyped(raw, c.field.data_type, ctx)[0]?.value;
        if (v !== undefined && v !== '') out[c.field.key] = v;
      }
      if (Object.keys(out).length) rows.push(out);
    }
  }
  if (!rows.length) return undefined;
  return { rows, confidence: Math.min(1, 0.5 + 0.5 * best.score), page: best.page, bbox: bbox ?? [0, 0, 0, 0] };
}

/** An article code printed in front of an item's name ("[ART_1234] Desk Lamp", "*555010* Sea Salt") is not its description. */
export function stripItemCode(s: string): string {
  return s.replace(/^\s*(?:\[[^\]\s]{2,}\]|\*[^*\s]{2,}\*)\s+(?=\S)/u, '');
}

// One token with a digit ("100234", "WL-01") or capitals joined by a separator ("K-MON", "SVC_FEE").
const isCode = (s: string) =>
  !/\s/.test(s.trim()) && s.trim().length >= 3 && (/\d/.test(s) || /^\p{Lu}+(?:[-_./]\p{Lu}+)+$/u.test(s.trim()));
const wordCount = (s: string) => (s.match(/\p{L}{2,}/gu) ?? []).length;

/**
 * In line items the text column is the one with words on every item: when the column the header gave the
 * description holds only codes ("Artikel" = article number, next to "Omschrijving") or dates (a service period), or text on fewer rows
 * (notes beside an "Item" column that names more items), while an unclaimed column holds words on every row,
 * the words are the description and the codes or notes go aside.
 */
function preferWordyText(rows: Record<string, string>[], cols: Column[], order: DocContext['dateOrder']): void {
  if (rows.length === 0) return;
  for (const c of cols) {
    const key = c.field?.data_type === 'string' ? c.field.key : undefined;
    if (!key) continue;
    const codesOnly = rows.every((r) => r[key] === undefined || isCode(r[key]!) || isDatesOnly(r[key]!, order));
    const filled = (k: string) => rows.filter((r) => r[k]?.trim()).length;
    const sparse = filled(key) < rows.length;
    if (!codesOnly && !sparse) continue;
    const ci = cols.indexOf(c);
    // (Words in most rows; or a word in every row and several in at least half: a unit column never has two.)
    const wordy = (i: number) => {
      const n = rows.map((r) => wordCount(r[`#${i}`] ?? ''));
      return (
        n.filter((k) => k >= 2).length >= rows.length * 0.8 || (n.every((k) => k >= 1) && n.filter((k) => k >= 2).length >= rows.length / 2)
      );
    };
    // (Notes beside names: the other column names more items than the description column does.)
    const other = cols.findIndex((o, i) => !o.field && (codesOnly ? i > ci : i !== ci && filled(`#${i}`) > filled(key)) && wordy(i));
    if (other < 0) continue;
    for (const r of rows) {
      const code = r[key];
      if (r[`#${other}`] !== undefined) r[key] = r[`#${other}`]!;
      else delete r[key];
      delete r[`#${other}`];
      if (code !== undefined) r[`#${ci}`] = code;
    }
  }
}

/** Count-times-price cells and row ordinals of priced line items (table.cells.ts). */
function lineItemCells(rows: Record<string, string>[], cols: Column[], ctx: DocContext): void {
  const keyWhere = (test: (c: Column) => boolean) => cols.find((c) => c.field && test(c))?.field?.key;
  const concepts = (c: Column) => conceptTokens(`${c.field!.key.replace(/_/g, ' ')} ${c.field!.label ?? ''}`);
  const numeric = (c: Column) => c.field!.data_type !== 'string';
  const quantity = keyWhere((c) => numeric(c) && concepts(c).includes('quantity'));
  const price = keyWhere((c) => numeric(c) && isUnitPriceConcept(concepts(c)));
  const description = keyWhere((c) => !numeric(c));
  if (quantity && price) splitCountTimesPrice(rows, quantity, price, ctx);
  if (description) stripRowOrdinals(rows, description);
}

/**
 * A column's role in quantity × unit price = amount, from its label's concepts: the head word decides a compound
 * ("Gesamtpreis" = total price is the line amount, "Einzelbetrag" = unit amount is the price, "Unit price", "Price").
 */
function isUnitPriceConcept(t: string[]): boolean {
  return t.includes('unit') ? t.includes('price') || t.includes('amount') : t.includes('price') && !t.includes('total');
}
function isLineAmountConcept(t: string[]): boolean {
  return t.includes('amount') || t.includes('total');
}

/**
 * Line items obey quantity × unit price = amount. When the header words mislead (an "Amount" column that
 * holds quantities, a "Total" column left unclaimed), the assignment of numeric columns that satisfies the
 * product on most rows wins over the one the labels suggested.
 */
function reconcileArithmetic(rows: Record<string, string>[], cols: Column[], ctx: DocContext): void {
  const conceptsOfColumn = (c: Column) => conceptTokens(`${c.field!.key.replace(/_/g, ' ')} ${c.field!.label ?? ''}`);
  const keyWhere = (test: (concepts: string[]) => boolean) =>
    cols.find((c) => c.field && c.field.data_type !== 'string' && test(conceptsOfColumn(c)))?.field?.key;
  const q = keyWhere((t) => t.includes('quantity'));
  const p = keyWhere(isUnitPriceConcept);
  const a = keyWhere((t) => isLineAmountConcept(t) && !isUnitPriceConcept(t));
  if (!q || !p || !a || rows.length < 2) return;
  // Parse every cell once: the permutation search below reads each value many times.
  const parsed = rows.map(
    (r) => new Map(Object.entries(r).map(([k, v]) => [k, findTyped(v, 'number', ctx)[0]?.value as number | undefined])),
  );
  const num = (r: Record<string, string>, k: string) => parsed[rows.indexOf(r)]!.get(k);
  const sources = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter(
    (k) => k === q || k === p || k === a || (k.startsWith('#') && rows.filter((r) => num(r, k) !== undefined).length >= rows.length / 2),
  );
  if (sources.length > 8) return;
  const fits = (sq: string, sp: string, sa: string) =>
    parsed.filter((m) => {
      const [x, y, z] = [m.get(sq), m.get(sp), m.get(sa)];
      return x !== undefined && y !== undefined && z !== undefined && Math.abs(x * y - z) <= Math.max(0.011, Math.abs(z) * 0.01);
    }).length;
  const current = fits(q, p, a);
  // Among equally fitting readings, the one that moves fewest columns away from their printed headers: quantity ×
  // unit price is symmetric, so only the headers tell the two factors apart.
  const moves = (sq: string, sp: string, sa: string) => Number(sq !== q) + Number(sp !== p) + Number(sa !== a);
  let best = { n: current, sq: q, sp: p, sa: a, moved: 0 };
  for (const sq of sources)
    for (const sp of sources)
      for (const sa of sources) {
        if (sq === sp || sp === sa || sq === sa) continue;
        const n = fits(sq, sp, sa);
        const moved = moves(sq, sp, sa);
        if (n > best.n || (n === best.n && n > current && moved < best.moved)) best = { n, sq, sp, sa, moved };
      }
  if (best.n === current || best.n < Math.max(2, rows.length * 0.6)) return;
  for (const r of rows) {
    const [vq, vp, va] = [r[best.sq], r[best.sp], r[best.sa]];
    for (const k of [q, p, a]) delete r[k];
    if (vq !== undefined) r[q] = vq;
    if (vp !== undefined) r[p] = vp;
    if (va !== undefined) r[a] = va;
  }
}
