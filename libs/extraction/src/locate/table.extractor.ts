import type { FieldDef } from '../engine.types.js';
import { segments } from '../layout/layout.builder.js';
import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { ISO_CODES } from '../parsers/currency.parser.js';
import { allSpans, conceptTokens, fold, labelSpec, wordConcepts } from './label.matcher.js';

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

const STOP = new Set(['total', 'net', 'tax']);

/** Header phrasings beyond the column's own label: a line "amount" is printed as "Total" or "Net". */
function columnSpec(c: FieldDef) {
  const spec = labelSpec(c.label, c.key);
  if (spec.variants.some((v) => v.includes('amount'))) spec.variants.push(['total'], ['line', 'total'], ['net']);
  if (spec.variants.some((v) => v.includes('description'))) spec.variants.push(['name'], ['title']);
  // Grouped headers ("THRESHOLD FOR RELEASES / to air"): the leaf is what is printed above the column.
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
  const words = wordConcepts(line.words.map((w) => w.text));
  const cands: { ci: number; start: number; end: number; score: number }[] = [];
  cols.forEach((c, ci) => {
    for (const m of allSpans(words, columnSpec(c), 0.5)) cands.push({ ci, start: m.start, end: m.end, score: m.score - 0.01 * (m.end - m.start) });
  });
  cands.sort((a, b) => b.score - a.score);
  const usedC = new Set<number>();
  const usedW = new Set<number>();
  const columns: Column[] = [];
  let score = 0;
  for (const c of cands) {
    if (usedC.has(c.ci)) continue;
    let clash = false;
    for (let k = c.start; k < c.end; k++) if (usedW.has(k)) clash = true;
    if (clash) continue;
    usedC.add(c.ci);
    for (let k = c.start; k < c.end; k++) usedW.add(k);
    const ws = line.words.slice(c.start, c.end);
    columns.push({ field: cols[c.ci]!, x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)) });
    score += Math.min(1, c.score);
  }
  // A numeric column left unnamed (e.g. "Amount" printed as "Prijs incl. BTW") takes the rightmost unclaimed
  // header cell right of every matched column: line totals are conventionally the last column.
  const missing = cols.filter((c, ci) => !usedC.has(ci) && c.data_type !== 'string' && columnSpec(c).variants.some((v) => v.includes('total')));
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
  // A column without a printed header (row labels) sits between its schema neighbours: give it that gap.
  const pos = new Map(columns.filter((c) => c.field).map((c) => [cols.indexOf(c.field!), c]));
  cols.forEach((c, ci) => {
    if (usedC.has(ci) || pos.size === 0) return;
    const left = [...pos.entries()].filter(([i]) => i < ci).sort((a, b) => b[0] - a[0])[0]?.[1];
    const right = [...pos.entries()].filter(([i]) => i > ci).sort((a, b) => a[0] - b[0])[0]?.[1];
    const x0 = left ? left.x1 + 1 : 0;
    const x1 = right ? right.x0 - 1 : x0 + 1e6;
    if (x1 - x0 < 5 || (left && right && left.x0 > right.x0)) return;
    if (!right || (!left && ci !== 0)) return;
    columns.push({ field: c, x0, x1, inferred: true });
  });
  // Header cells nobody claimed still own their column, so their values (VAT %, SKU …) do not leak into neighbours.
  for (const seg of segments(line, 1.2)) {
    if (seg.words.some((w) => usedW.has(line.words.indexOf(w)))) continue;
    if (columns.some((c) => Math.min(c.x1, seg.x1) - Math.max(c.x0, seg.x0) > 0)) continue;
    columns.push({ x0: seg.x0, x1: seg.x1 });
  }
  columns.sort((a, b) => a.x0 - b.x0);
  return { columns, score };
}

const named = (cs: Column[]) => cs.filter((c) => c.field && !c.inferred).length;

/** "Table 2 (page 3)" / "on page 3" in a table field's label or description restricts it to that page. */
function pageHint(field: FieldDef): number | undefined {
  const m = /\bpage\s+(\d+)\b/i.exec(`${field.label ?? ''} ${field.description ?? ''}`);
  return m ? Number(m[1]) : undefined;
}

export function findHeaders(doc: DocLayout, field: FieldDef): Header[] {
  const cols = field.fields ?? [];
  const hint = pageHint(field);
  // Money tables (price/amount columns): their rows are full of decimal amounts, their headers never are.
  const money = cols.some((c) => columnSpec(c).variants.flat().some((t) => t === 'price' || t === 'amount'));
  const need = Math.min(cols.length, cols.length >= 3 ? 2 : 1);
  const headers: Header[] = [];
  for (const page of doc.pages) {
    if (hint !== undefined && page.number !== hint && doc.pages.some((p) => p.number === hint)) continue;
    for (let li = 0; li < page.lines.length; li++) {
      const line = page.lines[li]!;
      // Header rows name columns; a line with a decimal amount is a data or subtotal row ("Subtotal $ 112.00"),
      // whatever its words say.
      const amounts = (l: Line) => l.words.filter((w) => /^[(\-$€£]*\d[\d.,']*[.,]\d{1,2}\)?$/.test(w.text)).length;
      if (money && amounts(line) >= 1) continue;
      let best = { ...matchHeader(line, cols), last: li };
      // Wrapped or grouped headers: merge up to three close lines.
      let merged = line;
      for (let k = li + 1; k < Math.min(page.lines.length, li + 3); k++) {
        const next = page.lines[k]!;
        if (next.y0 - merged.y1 > (line.y1 - line.y0) * 1.2 || (money && amounts(next) >= 1)) break;
        merged = mergeLines(merged, next);
        const m = matchHeader(merged, cols);
        if (named(m.columns) > named(best.columns) || (named(m.columns) === named(best.columns) && m.score > best.score + 0.2)) best = { ...m, last: k };
      }
      if (named(best.columns) >= need && named(best.columns) > 0) {
        headers.push({ page: page.number, lineIndex: li, lastLine: best.last, columns: best.columns, score: best.score / cols.length });
        li = best.last;
      }
    }
  }
  return headers;
}

/** Two stacked header lines become one: words with overlapping x are joined into one cell. */
function mergeLines(a: Line, b: Line): Line {
  const words: Word[] = [...a.words.map((w) => ({ ...w })), ...b.words.map((w) => ({ ...w }))];
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

/** Words that mean "total" only in front of one ("Grand total", "Sub total"), not in "Grand Metropolitan", "Sub-Saharan". */
const MODIFIERS = new Set(['grand', 'sub']);

function isStopLine(line: Line): boolean {
  // Any cell opening with a totals word ("Subtotal", "Total TTC", "Factuur totaal", "incl. BTW") closes the items.
  return segments(line, 1.5).some((seg) => {
    const texts = seg.words.slice(0, 3).map((w) => w.text);
    if (!wordConcepts(texts).flat().some((c) => STOP.has(c))) return false;
    // Token by token, so that a modifier counts only right before a totals word.
    const toks = texts.flatMap((t) => fold(t).split(/[^a-z0-9]+/).filter(Boolean));
    return toks.some((t, i) => (MODIFIERS.has(t) ? conceptTokens(toks[i + 1] ?? '').some((c) => STOP.has(c)) : conceptTokens(t).some((c) => STOP.has(c))));
  });
}

/**
 * Lines of the table body: from below the header until a wide vertical gap (relative to the rows' own
 * pitch), the next header, or — for line items — a totals line. Unit lines right under the header
 * ("kg/year", no digits, not in the first column) are header, not data.
 */
function bodyLines(lines: Line[], h: Header, lh: number, lineItems: boolean, isHeaderStart: (li: number) => boolean): Line[] {
  const out: Line[] = [];
  let prevY = lines[h.lastLine]!.y1;
  const pitches: number[] = [];
  const firstX1 = h.columns[0]?.x1 ?? 0;
  for (let li = h.lastLine + 1; li < lines.length; li++) {
    const line = lines[li]!;
    const gap = line.y0 - prevY;
    if (gap > lh * 4) break;
    if (pitches.length >= 2) {
      const med = [...pitches].sort((a, b) => a - b)[Math.floor(pitches.length / 2)]!;
      if (gap > Math.max(lh * 1.2, med * 2.5)) break;
    }
    if (isHeaderStart(li) && li > h.lastLine + 2) break;
    if (lineItems && out.some((l) => /\d/.test(l.text)) && isStopLine(line)) {
      // A section subtotal inside the table ("Subtotal $ 112.00", then more items) does not end it:
      // look past it (and a section caption) for another item row; the closing totals block has none.
      const next = [lines[li + 1], lines[li + 2]].find((l) => l && !isStopLine(l) && /\d/.test(l.text) && segments(l, 1.2).length >= 3);
      const between = next ? lines.slice(li + 1, lines.indexOf(next)) : [];
      if (!next || between.some((l) => isStopLine(l)) || next.y0 - line.y1 > lh * 5) break;
      prevY = line.y1;
      continue;
    }
    if (!out.length && !/\d/.test(line.text) && line.x0 > firstX1) {
      prevY = line.y1;
      continue;
    }
    if (out.length) pitches.push(Math.max(0, gap));
    out.push(line);
    prevY = line.y1;
  }
  return out;
}

/**
 * Column assignment from the body itself: x ranges that no word of any multi-cell row covers are the
 * gutters; each body column between gutters goes to the header it overlaps most (headers are often
 * narrower than, or offset from, their right-aligned numbers). Falls back to header geometry.
 */
function gutterColumns(body: Line[], cols: Column[], lh: number): (w: Word) => number {
  const multi = body.filter((l) => segments(l, 1.2).length >= 2);
  if (multi.length < 2) return (w) => columnOf(w, cols);
  const spans = multi.flatMap((l) => l.words.map((w) => [w.x0, w.x1] as [number, number])).sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [a, b] of spans) {
    const last = merged[merged.length - 1];
    if (last && a - last[1] < lh * 0.6) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  const target = merged.map(([a, b]) => {
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
    return best >= 0 ? best : columnOf({ text: 'x', x0: a, x1: b, y0: 0, y1: 0, conf: 1 }, cols);
  });
  // Two body columns mapped to one header while a header has none: give it to the nearer one.
  return (w) => {
    const cx = (w.x0 + w.x1) / 2;
    let k = merged.findIndex(([a, b]) => cx >= a && cx <= b);
    if (k < 0) return columnOf(w, cols);
    return target[k]!;
  };
}

/** Extracts a table field: rows under each matching header, continued across pages, stopping at totals. */
/**
 * `taken` holds headers already used by earlier table fields of the schema, so that two fields with the
 * same columns (one table printed twice, or a table per page) get distinct tables, in document order.
 */
export function extractTable(doc: DocLayout, field: FieldDef, ctx: DocContext, taken: Set<string> = new Set()): TableResult | undefined {
  const headers = findHeaders(doc, field).filter((h) => !taken.has(`${h.page}:${h.lineIndex}`));
  if (!headers.length) return undefined;
  // Keep the best header (earliest among near-equal ones) and any later header with the same columns on later pages.
  const top = Math.max(...headers.map((h) => h.score));
  const best = headers.find((h) => h.score >= top - 0.05)!;
  const lineItems = (field.fields ?? []).some((c) => c.data_type === 'number' || c.data_type === 'currency');
  const keyOf = (h: Header) => h.columns.map((c) => c.field?.key ?? '').join(',');
  const chosen = headers.filter((h) => h === best || (keyOf(h) === keyOf(best) && (h.page > best.page || (h.page === best.page && h.lineIndex > best.lineIndex)) && h.page !== best.page));
  const rows: Record<string, unknown>[] = [];
  let bbox: [number, number, number, number] | undefined;
  // Only a header about as good as the chosen one starts another table; weak matches inside the body
  // (a data row that happens to name a column) do not end it.
  const headerStarts = new Set(headers.filter((h) => h.score >= best.score * 0.6).map((h) => `${h.page}:${h.lineIndex}`));
  for (const h of chosen) {
    taken.add(`${h.page}:${h.lineIndex}`);
    const page = doc.pages.find((p) => p.number === h.page)!;
    const header = page.lines[h.lineIndex]!;
    const lh = Math.max(1, header.y1 - header.y0);
    let prev: Record<string, string> | undefined;
    let prevLine: Line | undefined;
    const cols = h.columns;
    const numeric = new Set(cols.filter((c) => c.field && c.field.data_type !== 'string').map((c) => c.field!.key));
    // Money columns (prices, amounts): a row without any of them is no line item of a priced table.
    const money = new Set(cols.filter((c) => c.field && c.field.data_type !== 'string' && columnSpec(c.field).variants.flat().some((t) => t === 'price' || t === 'amount')).map((c) => c.field!.key));
    let prevTextX0: number | undefined;
    const pending: Record<string, string>[] = [];
    const body = bodyLines(page.lines, h, lh, lineItems, (li) => headerStarts.has(`${h.page}:${li}`));
    const assign = gutterColumns(body, cols, lh);
    for (const line of body) {
      const cells: Record<string, string[]> = {};
      for (const w of line.words) {
        let ci = assign(w);
        // Words (not numbers, not currency codes) that land in a number column are text run over from the
        // text column on their left ("Design (hours): Of a sample" under a narrow "Product" header).
        const col = cols[ci];
        const wordy = /\p{L}/u.test(w.text) && (!/\d/.test(w.text) || col?.inferred) && !ISO_CODES.has(w.text);
        if (col?.field && col.field.data_type !== 'string' && wordy && (col.inferred || w.x0 < col.x0)) {
          for (let j = ci - 1; j >= 0; j--) if (cols[j]!.field?.data_type === 'string') {
            ci = j;
            break;
          }
        }
        const f = cols[ci]?.field;
        // Unclaimed columns are kept aside (as "#<index>") for the quantity × price = amount check.
        const k = f ? f.key : ci >= 0 ? `#${ci}` : undefined;
        if (!k) continue;
        (cells[k] ??= []).push(w.text);
      }
      const extras = Object.fromEntries(Object.entries(cells).filter(([k]) => k.startsWith('#')).map(([k, v]) => [k, v.join(' ')]));
      for (const k of Object.keys(extras)) delete cells[k];
      const filled = Object.keys(cells);
      if (!filled.length) continue;
      const hasNumeric = filled.some((k) => numeric.has(k) && /\d/.test(cells[k]!.join(' ')));
      // Lines indented under the row's text are its notes or bundle parts ("Serienummer: …", "Apple Magic
      // Mouse ‖ 1" under a bundle): not a wrap of the description, and without a price not a row either.
      // (An indented plain-text line is still a wrapped description: only "Label: …" notes and unpriced rows go.)
      const indented = prev && prevTextX0 !== undefined && line.x0 > prevTextX0 + lh * 0.8;
      const note = hasNumeric || /^\p{L}[\p{L}\-]+:$/u.test(line.words[0]?.text ?? '');
      if (indented && note && !filled.some((k) => money.has(k) && /\d/.test(cells[k]!.join(' '))) && money.size > 0) {
        prevLine = line;
        continue;
      }
      // A line with only text in a text column, right below a row, continues that row (wrapped description).
      if (prev && prevLine && !hasNumeric && numeric.size > 0 && line.y0 - prevLine.y1 < lh * 0.9) {
        // The whole wrapped line belongs to the text column it starts in (words may drift under a numeric header).
        const textCols = cols.filter((c) => c.field && !numeric.has(c.field.key)).map((c) => c.field!.key);
        const k = textCols.find((c) => filled.includes(c)) ?? textCols[0];
        if (k) prev[k] = (prev[k] ? prev[k] + ' ' : '') + line.words.map((w) => w.text).join(' ');
        prevLine = line;
        continue;
      }
      // Text tables: a line filling one column right under a fuller row is that row's wrapped cell.
      if (prev && prevLine && filled.length === 1 && Object.keys(prev).length >= 2 && line.y0 - prevLine.y1 < lh * 0.9) {
        const k = filled[0]!;
        prev[k] = (prev[k] ? prev[k] + ' ' : '') + cells[k]!.join(' ');
        prevLine = line;
        continue;
      }
      // Lines without numbers when the table has numeric columns are notes, not rows, unless many columns are filled.
      if (numeric.size > 0 && !hasNumeric && filled.length < Math.max(2, cols.length - 1)) {
        if (rows.length + pending.length > 0) continue;
        continue;
      }
      const row: Record<string, string> = { ...extras };
      for (const k of filled) row[k] = cells[k]!.join(' ');
      pending.push(row);
      prev = row;
      prevLine = line;
      // The table's text column starts where its leftmost row text starts (an indented priced line stays a row).
      const textX0 = Math.min(...line.words.filter((w) => cols[assign(w)]?.field?.data_type === 'string').map((w) => w.x0));
      if (Number.isFinite(textX0)) prevTextX0 = Math.min(prevTextX0 ?? textX0, textX0);
      const b = [line.x0, line.y0, line.x1, line.y1] as [number, number, number, number];
      bbox = bbox ? [Math.min(bbox[0], b[0]), Math.min(bbox[1], b[1]), Math.max(bbox[2], b[2]), Math.max(bbox[3], b[3])] : b;
    }
    reconcileArithmetic(pending, cols, ctx);
    for (const r of pending) {
      const out: Record<string, unknown> = {};
      for (const c of cols) {
        if (!c.field) continue;
        const raw = r[c.field.key];
        if (raw === undefined) continue;
        const v = c.field.data_type === 'string' ? cleanString(raw) : findTyped(raw, c.field.data_type, ctx)[0]?.value;
        if (v !== undefined && v !== '') out[c.field.key] = v;
      }
      if (Object.keys(out).length) rows.push(out);
    }
  }
  if (!rows.length) return undefined;
  return { rows, confidence: Math.min(1, 0.5 + 0.5 * best.score), page: best.page, bbox: bbox ?? [0, 0, 0, 0] };
}

/**
 * Line items obey quantity × unit price = amount. When the header words mislead (an "Amount" column that
 * holds quantities, a "Total" column left unclaimed), the assignment of numeric columns that satisfies the
 * product on most rows wins over the one the labels suggested.
 */
function reconcileArithmetic(rows: Record<string, string>[], cols: Column[], ctx: DocContext): void {
  const keyWith = (concept: string, not?: string) =>
    cols.find((c) => c.field && c.field.data_type !== 'string' && conceptTokens(`${c.field.key.replace(/_/g, ' ')} ${c.field.label ?? ''}`).includes(concept) && !(not && conceptTokens(`${c.field.key.replace(/_/g, ' ')} ${c.field.label ?? ''}`).includes(not)))?.field?.key;
  const q = keyWith('quantity');
  const p = keyWith('price');
  const a = keyWith('amount', 'price') ?? keyWith('total', 'price');
  if (!q || !p || !a || rows.length < 2) return;
  // Parse every cell once: the permutation search below reads each value many times.
  const parsed = rows.map((r) => new Map(Object.entries(r).map(([k, v]) => [k, findTyped(v, 'number', ctx)[0]?.value as number | undefined])));
  const num = (r: Record<string, string>, k: string) => parsed[rows.indexOf(r)]!.get(k);
  const sources = [...new Set(rows.flatMap((r) => Object.keys(r)))].filter((k) => k === q || k === p || k === a || (k.startsWith('#') && rows.filter((r) => num(r, k) !== undefined).length >= rows.length / 2));
  if (sources.length > 8) return;
  const fits = (sq: string, sp: string, sa: string) =>
    parsed.filter((m) => {
      const [x, y, z] = [m.get(sq), m.get(sp), m.get(sa)];
      return x !== undefined && y !== undefined && z !== undefined && Math.abs(x * y - z) <= Math.max(0.011, Math.abs(z) * 0.01);
    }).length;
  const current = fits(q, p, a);
  let best = { n: current, sq: q, sp: p, sa: a };
  for (const sq of sources) for (const sp of sources) for (const sa of sources) {
    if (sq === sp || sp === sa || sq === sa) continue;
    const n = fits(sq, sp, sa);
    if (n > best.n) best = { n, sq, sp, sa };
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
