/** Choosing one label span per column among a header line's candidates: the best total, not only the best first. */
import type { HeaderCandidate } from './table.header.candidates.js';

/** A choice replaces the greedy one when it names more columns, or as many with a score higher by this much. */
export const PICK_GAIN = 0.1;
/**
 * Or when it reads the same words as the same columns, in the schema's order more nearly, with a score lower by at most
 * this much ("Paid out ‖ Paid": `Paid` + `out Paid` re-read as `Paid out` + `Paid`).
 */
export const ORDER_SLACK = 0.005;
/** Search steps allowed per header line and search (beyond them the greedy choice stands). */
const PICK_BUDGET = 5_000;

type Cand = HeaderCandidate;
/** Does a choice found (its spans, their summed score) replace the best so far? Then it becomes the best. */
type Accept = (chosen: readonly Cand[], score: number) => boolean;

/**
 * A better set of non-overlapping candidates, one per column, than `greedy` (the best-first choice): best-first lets a
 * one-word reading of one heading ("Paid" for "Paid in") take the word another heading needs ("Paid out"), and that
 * heading is left with a worse span, or with a span of the next heading's word (columns out of the schema's order). A
 * choice that sets more columns out of the schema's order than the greedy one does is no better.
 */
export function betterPick(cands: readonly Cand[], greedy: readonly Cand[]): Cand[] | undefined {
  const search = new PickSearch(cands);
  const order = inversions(greedy);
  const base = { n: greedy.length, score: value(greedy) };
  // (The floor rises with each better choice found, so that the search prunes as it goes.)
  const best = { ...base, score: base.score + PICK_GAIN };
  let pick = search.run(best, (cs, score) => {
    const ok = inversions(cs) <= order && (cs.length > best.n || (cs.length === best.n && score > best.score));
    if (ok) Object.assign(best, { n: cs.length, score });
    return ok;
  });
  if (pick || order === 0) return pick;
  let fewest = order;
  const words = claimed(greedy);
  pick = search.run({ ...base, score: base.score - ORDER_SLACK }, (cs, score) => {
    const ok = score >= base.score - ORDER_SLACK && inversions(cs) < fewest && claimed(cs) === words && sameColumns(cs, greedy);
    if (ok) fewest = inversions(cs);
    return ok;
  });
  return pick;
}

/** The words a choice claims, as a key. */
const claimed = (cs: readonly Cand[]) =>
  cs
    .flatMap((c) => Array.from({ length: c.end - c.start }, (_, k) => c.start + k))
    .sort((a, b) => a - b)
    .join(',');
const sameColumns = (a: readonly Cand[], b: readonly Cand[]) =>
  a.length === b.length && a.map((c) => c.ci).every((ci) => b.some((c) => c.ci === ci));
const value = (cs: readonly Cand[]) => cs.reduce((s, c) => s + Math.min(1, c.score), 0);

/** A branch-and-bound search over the columns' candidates, best first per column, bounded by a floor to beat. */
class PickSearch {
  private readonly cols: Cand[][];
  private readonly rest: number[];

  constructor(cands: readonly Cand[]) {
    const byCol = new Map<number, Cand[]>();
    for (const c of cands) byCol.set(c.ci, [...(byCol.get(c.ci) ?? []), c]);
    this.cols = [...byCol.values()].map((cs) => cs.sort((a, b) => b.score - a.score));
    const tops = this.cols.map((cs) => Math.min(1, cs[0]!.score));
    this.rest = [...tops, 0].map((_, i) => tops.slice(i).reduce((s, x) => s + x, 0));
  }

  /** The last choice `accept` took, searching choices that may name `floor.n` columns and score above `floor.score` (read as it changes). */
  run(floor: { n: number; score: number }, accept: Accept): Cand[] | undefined {
    let steps = 0;
    let found: Cand[] | undefined;
    const used = new Set<number>();
    const chosen: Cand[] = [];
    const visit = (i: number, score: number): void => {
      if (++steps > PICK_BUDGET) return;
      const maxN = chosen.length + this.cols.length - i;
      if (maxN < floor.n || (maxN === floor.n && score + this.rest[i]! <= floor.score)) return;
      if (i === this.cols.length) {
        if (accept(chosen, score)) found = [...chosen];
        return;
      }
      for (const c of this.cols[i]!) {
        if (clashes(c, used)) continue;
        for (let k = c.start; k < c.end; k++) used.add(k);
        chosen.push(c);
        visit(i + 1, score + Math.min(1, c.score));
        chosen.pop();
        for (let k = c.start; k < c.end; k++) used.delete(k);
      }
      visit(i + 1, score);
    };
    visit(0, 0);
    return steps > PICK_BUDGET ? undefined : found;
  }
}

function clashes(c: Cand, used: Set<number>): boolean {
  for (let k = c.start; k < c.end; k++) if (used.has(k)) return true;
  return false;
}

/** Pairs of chosen spans printed in the other order than their columns' (a header is printed in the schema's order). */
function inversions(cs: readonly Cand[]): number {
  let n = 0;
  for (let a = 0; a < cs.length; a++)
    for (let b = a + 1; b < cs.length; b++) if (Math.sign(cs[a]!.ci - cs[b]!.ci) !== Math.sign(cs[a]!.start - cs[b]!.start)) n++;
  return n;
}
