/** Choosing one label span per column among a header line's candidates: the best total, not only the best first. */
import type { HeaderCandidate } from './table.header.candidates.js';

/** A choice replaces the greedy one only when it names more columns, or as many with a score higher by this much. */
export const PICK_GAIN = 0.1;
/** Search steps allowed per header line (beyond them the greedy choice stands). */
const PICK_BUDGET = 5_000;

/**
 * The set of non-overlapping candidates, one per column, naming the most columns with the highest summed score, when it
 * beats `greedy` (the best-first choice) by `PICK_GAIN`: best-first lets a one-word reading of one heading ("Paid" for
 * "Paid in") take the word another heading needs ("Paid out"), and that heading is left with a worse span. A choice
 * that sets more columns out of the schema's order than the greedy one does is no better.
 */
export function betterPick(cands: readonly HeaderCandidate[], greedy: readonly HeaderCandidate[]): HeaderCandidate[] | undefined {
  const byCol = new Map<number, HeaderCandidate[]>();
  for (const c of cands) byCol.set(c.ci, [...(byCol.get(c.ci) ?? []), c]);
  const cols = [...byCol.values()].map((cs) => cs.sort((a, b) => b.score - a.score));
  const tops = cols.map((cs) => Math.min(1, cs[0]!.score));
  const rest = [...tops, 0].map((_, i) => tops.slice(i).reduce((s, x) => s + x, 0));
  const value = (cs: readonly HeaderCandidate[]) => cs.reduce((s, c) => s + Math.min(1, c.score), 0);
  let best = { n: greedy.length, score: value(greedy) + PICK_GAIN, pick: undefined as HeaderCandidate[] | undefined };
  const order = inversions(greedy);
  let steps = 0;
  const used = new Set<number>();
  const chosen: HeaderCandidate[] = [];
  const search = (i: number, score: number): void => {
    if (++steps > PICK_BUDGET) return;
    const maxN = chosen.length + cols.length - i;
    if (maxN < best.n || (maxN === best.n && score + rest[i]! <= best.score)) return;
    if (i === cols.length) {
      if (inversions(chosen) <= order) best = { n: chosen.length, score, pick: [...chosen] };
      return;
    }
    for (const c of cols[i]!) {
      let clash = false;
      for (let k = c.start; k < c.end && !clash; k++) clash = used.has(k);
      if (clash) continue;
      for (let k = c.start; k < c.end; k++) used.add(k);
      chosen.push(c);
      search(i + 1, score + Math.min(1, c.score));
      chosen.pop();
      for (let k = c.start; k < c.end; k++) used.delete(k);
    }
    search(i + 1, score);
  };
  search(0, 0);
  return steps > PICK_BUDGET ? undefined : best.pick;
}

/** Pairs of chosen spans printed in the other order than their columns' (a header is printed in the schema's order). */
function inversions(cs: readonly HeaderCandidate[]): number {
  let n = 0;
  for (let a = 0; a < cs.length; a++)
    for (let b = a + 1; b < cs.length; b++) if (Math.sign(cs[a]!.ci - cs[b]!.ci) !== Math.sign(cs[a]!.start - cs[b]!.start)) n++;
  return n;
}
