/** Matching one (possibly merged) printed line against a table field's column labels. */
import type { FieldDef } from '../engine.types.js';
import { segments } from '../layout/layout.builder.js';
import type { Line, Word } from '../layout/layout.types.js';
import { codeLabelAt, headerCandidates, type HeaderCandidate } from './table.header.candidates.js';
import { betterPick } from './table.match.pick.js';
import { columnSpec, type Column } from './table.model.js';

type Cand = HeaderCandidate;

/** A header reading: the columns placed (named, inferred and unclaimed cells) and how well the labels matched. */
export interface HeaderMatch {
  columns: Column[];
  score: number;
}

/**
 * Matches each column label to a span of header words (not pre-cut cells: "Qty Price" may be printed
 * with one space). Spans may not overlap; the best scores win. `cands`: the label candidates of the words as printed,
 * when `line` is stacked lines merged onto one row (`headerCandidates` of the stacked words).
 */
export function matchHeader(line: Line, cols: FieldDef[], cands: readonly HeaderCandidate[] = headerCandidates(line, cols)): HeaderMatch {
  const { chosen, usedC, usedW } = pickCandidates(cands);
  const columns: Column[] = [];
  let score = 0;
  for (const c of chosen) {
    const ws = line.words.slice(c.start, c.end);
    columns.push({ field: cols[c.ci]!, x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)) });
    score += Math.min(1, c.score);
  }
  const claims: HeaderClaims = { line, cols, usedC, claimed: claimedTest(line, usedW), columns };
  inferLastTotal(claims);
  inferBetweenNeighbours(claims);
  addUnclaimedCells(claims);
  columns.sort((a, b) => a.x0 - b.x0);
  score -= sharedRunPenalty(line, columns);
  return { columns, score };
}

/** Is a word of the line claimed by a label? (By its first position in the line, as the claims are indices.) */
function claimedTest(line: Line, usedW: Set<number>): (w: Word) => boolean {
  const at = new Map<Word, number>();
  line.words.forEach((w, i) => {
    if (!at.has(w)) at.set(w, i);
  });
  return (w) => usedW.has(at.get(w) ?? -1);
}

/** A header line being matched: the schema columns and the header words claimed so far, and the columns found. */
interface HeaderClaims {
  line: Line;
  cols: FieldDef[];
  /** Indices of the schema columns placed. */
  usedC: Set<number>;
  /** Is this word of the line claimed by a label? */
  claimed: (w: Word) => boolean;
  columns: Column[];
}

/** The best-scoring candidates, one per column, whose spans do not overlap (repeated labels placed in order). */
function pickCandidates(found: readonly Cand[]): { chosen: Cand[]; usedC: Set<number>; usedW: Set<number> } {
  // (Sorted apart from `found`: a stack's candidates also bound its match.)
  const cands = [...found].sort((a, b) => b.score - a.score);
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
  const better = betterPick(cands, chosen);
  if (better) {
    chosen.splice(0, chosen.length, ...better.sort((a, b) => b.score - a.score));
    usedC.clear();
    usedW.clear();
    for (const c of chosen) {
      usedC.add(c.ci);
      for (let k = c.start; k < c.end; k++) usedW.add(k);
    }
  }
  preferAdjacentRepeats(chosen, cands, usedW);
  return { chosen, usedC, usedW };
}

/**
 * A numeric column left unnamed (e.g. "Amount" printed as "Prijs incl. BTW") takes the rightmost unclaimed
 * header cell right of every matched column: line totals are conventionally the last column.
 */
function inferLastTotal({ line, cols, usedC, claimed, columns }: HeaderClaims): void {
  const missing = cols.filter(
    (c, ci) => !usedC.has(ci) && c.data_type !== 'string' && columnSpec(c).variants.some((v) => v.includes('total')),
  );
  if (missing.length && columns.length >= 2) {
    const right = Math.max(...columns.map((c) => c.x1));
    const free = segments(line, 1.2).filter((s) => s.x0 > right && s.words.every((w) => !claimed(w)));
    const last = free[free.length - 1];
    if (last) {
      // Marked inferred: a guessed column must not make a data row look like a header.
      columns.push({ field: missing[0]!, x0: last.x0, x1: last.x1, inferred: true });
      usedC.add(cols.indexOf(missing[0]!));
    }
  }
}

/**
 * A column without a printed header (row labels) sits between its schema neighbours: give it that gap — less the
 * header cells printed there that no field claimed, for a number column ("Plan" between "Service Period" and
 * "Amount" is no quantity): those name columns of their own.
 */
function inferBetweenNeighbours({ line, cols, usedC, claimed, columns }: HeaderClaims): void {
  const unclaimed = segments(line, 1.2).filter((seg) => seg.words.every((w) => !claimed(w)));
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
}

/**
 * An item-code label that no field claimed ("Item code", "SKU", "Art.-Nr.") is a cell of its own however close its
 * neighbours are set: from the label to the next claimed word. (Codes are their own column, never description text.)
 */
function codeLabelCells(words: Word[], claimed: (w: Word) => boolean): Column[] {
  const out: Column[] = [];
  for (let k = 0; k < words.length; k++) {
    if (claimed(words[k]!) || codeLabelAt(words, k) === 0) continue;
    let end = k + 1;
    while (end < words.length && !claimed(words[end]!)) end++;
    const ws = words.slice(k, end);
    out.push({ x0: Math.min(...ws.map((w) => w.x0)), x1: Math.max(...ws.map((w) => w.x1)), code: true });
    k = end;
  }
  return out;
}

/**
 * Header cells nobody claimed still own their column, so their values (VAT %, SKU …) do not leak into neighbours.
 * (So do the words at the edge of a claimed cell set apart by more than a word space: "Taxe ‖ Montant" printed close.)
 */
function addUnclaimedCells({ line, claimed, columns }: HeaderClaims): void {
  const cells: Column[] = segments(line, 1.2).flatMap((sg) => [...codeLabelCells(sg.words, claimed), ...unclaimedEdges(sg.words, claimed)]);
  for (const seg of cells) {
    if (columns.some((c) => Math.min(c.x1, seg.x1) - Math.max(c.x0, seg.x0) > 0)) continue;
    columns.push(seg);
  }
}

/**
 * Column labels in one run of text ("Table 1: growth in Arcadia, EU-15 and EU-25") are more likely a caption
 * or a sentence than a header, whose labels stand apart: such a line loses against a header nearby.
 */
function sharedRunPenalty(line: Line, columns: Column[]): number {
  const runs = segments(line, 1.2);
  const runOf = (c: Column) => runs.findIndex((r) => r.x0 <= c.x0 + 0.01 && r.x1 >= c.x1 - 0.01);
  const named = columns
    .filter((c) => c.field && !c.inferred)
    .map(runOf)
    .filter((i) => i >= 0);
  return 0.3 * (named.length - new Set(named).size);
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
  // (A character's width, from the two words either side of the gap: a word space is about one. A colon ends a
  // header cell however close the next one is set: "Qty: Subtotal: VAT:".)
  const apart = (a: Word, b: Word) =>
    /:$/.test(a.text) || b.x0 - a.x1 > EDGE_CELL_GAP * ((a.x1 - a.x0 + b.x1 - b.x0) / (a.text.length + b.text.length));
  const out: { x0: number; x1: number }[] = [];
  if (first > 0 && apart(words[first - 1]!, words[first]!)) out.push(...colonCells(words.slice(0, first)).map(span));
  if (last < words.length - 1 && apart(words[last]!, words[last + 1]!)) out.push(...colonCells(words.slice(last + 1)).map(span));
  return out;
}

/** Header words cut after each word ending in a colon ("Subtotal: VAT:" is two cells). */
function colonCells(words: Word[]): Word[][] {
  const cells: Word[][] = [[]];
  for (const w of words) {
    cells[cells.length - 1]!.push(w);
    if (/:$/.test(w.text)) cells.push([]);
  }
  return cells.filter((c) => c.length > 0);
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
