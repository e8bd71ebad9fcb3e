import type { FieldDef } from '../engine.types.js';
import { segments, spaceBetween } from '../layout/layout.builder.js';
import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { isCurrencyMark, withoutCurrencyMark } from '../parsers/currency.parser.js';
import { dateLeaders } from './table.dates.js';
import { gridTable, isPositional } from './table.grid.js';
import { headerlessItems } from './table.headerless.js';
import { groupRows, mergeBands, type CellGeom, type RowBand } from './table.rows.js';
import { bodyLines, isStopLine } from './table.body.js';
import { gutterColumns } from './table.columns.js';
import { findHeaders, isTaken, pageHint, takenKey } from './table.header.js';
import { named, namesMoney, type Header } from './table.model.js';
import { FILLED_BAND, resumeLine } from './table.pages.js';
import { lineItemCells, preferWordyText, reconcileArithmetic, stripItemCode } from './table.roles.js';

export { findHeaders } from './table.header.js';
export { stripItemCode } from './table.roles.js';

export interface TableResult {
  rows: Record<string, unknown>[];
  confidence: number;
  page: number;
  bbox: [number, number, number, number];
}

/**
 * A unit word ("pcs", "Std.") printed within this many line heights after a figure, landing in a number column, is
 * the figure's unit: a unit column set close beside a quantity column under one header cell ("Qty Unit").
 */
const UNIT_GAP = 1.5;
/** A unit of measure as printed: a short word or abbreviation ("pcs", "Std."), or an area or volume ("m²", "m2", "cm3"). */
const UNIT_WORD = /^(?:\p{L}{1,10}\.?|\p{L}{1,3}[23²³])$/u;

/** Cell placeholders for "none" / "not available": "-", "–", "..", ":". */
const PLACEHOLDER = /^(?:[-–—]{1,3}|\.{2,3}|:)$/;

/** Confidence of a table read off the cells' alignment alone. */
const GRID_CONFIDENCE = 0.6;

/** Line items (priced rows): a number column named price or amount. */
function isLineItems(field: FieldDef): boolean {
  return (field.fields ?? []).some((c) => c.data_type !== 'string' && namesMoney(c));
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
    const money = new Set(cols.filter((c) => c.field && c.field.data_type !== 'string' && namesMoney(c.field)).map((c) => c.field!.key));
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
