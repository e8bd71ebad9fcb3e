/**
 * Stacked header lines: a run of a page's lines read as one header line (a group label over its leaves, labels wrapped
 * over two lines, a unit line). Each run is matched at most once per search, and only when its words can beat the
 * reading it competes with: most runs a header search tries are body rows, whose words name no column.
 */
import type { FieldDef } from '../engine.types.js';
import type { Line, Word } from '../layout/layout.types.js';
import {
  candidateBound,
  headerCandidates,
  openBound,
  openColumns,
  type HeaderCandidate,
  type MatchBound,
  type OpenColumns,
  type PrintedWords,
} from './table.header.candidates.js';
import { matchHeader, type HeaderMatch } from './table.match.js';
import { named } from './table.model.js';

/** A stacked reading replaces the best one with more named columns, or as many and a score higher by this much. */
export const BETTER_STACK_MARGIN = 0.2;
/** Slack for a bound summed in another order than the score it bounds. */
const BOUND_SLACK = 1e-9;

/** Does reading `m` replace `best` as a line's header reading? */
export function beats(m: HeaderMatch, best: HeaderMatch): boolean {
  const [n, b] = [named(m.columns), named(best.columns)];
  return n > b || (n === b && m.score > best.score + BETTER_STACK_MARGIN);
}

/** Can a reading within `bound` replace `best`? (False only when `beats` is false for every reading within it.) */
export function mayBeat(bound: MatchBound, best: HeaderMatch): boolean {
  const b = named(best.columns);
  return bound.named > b || (bound.named === b && bound.score + BOUND_SLACK > best.score + BETTER_STACK_MARGIN);
}

/** The words of stacked lines in x order, each as printed (ties kept in line order, as merging one line at a time). */
export function stackWords(lines: readonly Line[]): Word[] {
  return lines.flatMap((l) => l.words).sort((p, q) => p.x0 - q.x0);
}

/**
 * Stacked lines as one header line: their words in x order (`stacked`), all moved onto the top row with the height of
 * the lines above the last (as `lines` merged one at a time, top down, each merge aligning the words on the merge so far).
 */
export function mergedLine(lines: readonly Line[], stacked: readonly Word[] = stackWords(lines)): Line {
  const above = lines.slice(0, -1);
  const y0 = Math.min(...lines.map((l) => l.y0));
  const height = Math.max(...above.map((l) => l.y1)) - Math.min(...above.map((l) => l.y0));
  const words = stacked.map((w) => ({ ...w, y0, y1: y0 + height }));
  const box = {
    y0,
    y1: Math.max(...lines.map((l) => l.y1)),
    x0: Math.min(...lines.map((l) => l.x0)),
    x1: Math.max(...lines.map((l) => l.x1)),
  };
  return { ...lines[0]!, words, ...box, text: lines.map((l) => l.text).join(' ') };
}

/** What is known of one run of lines: its printed words, the columns open to them, its candidates, its match. */
interface Run {
  printed: PrintedWords;
  open?: OpenColumns;
  cands?: HeaderCandidate[];
  match?: HeaderMatch;
}

/** The runs of one page's lines matched against one table field's columns (a run is known by its first and last line). */
export class HeaderStacks {
  private readonly runs = new Map<number, Run>();

  constructor(
    private readonly lines: readonly Line[],
    private readonly cols: FieldDef[],
  ) {}

  /**
   * The reading of lines `first` … `last` as one header line. Words with no span that may name a column read as
   * naming none, with score 0: `matchHeader` would place only their unclaimed cells, which a header search never uses
   * (a header names a column).
   */
  match(first: number, last: number): HeaderMatch {
    const run = this.run(first, last);
    if (!run.match && this.candidates(run).length === 0) run.match = { columns: [], score: 0 };
    if (!run.match) {
      const line = first === last ? this.lines[first]! : mergedLine(this.lines.slice(first, last + 1), run.printed.words);
      run.match = matchHeader(line, this.cols, this.candidates(run));
    }
    return run.match;
  }

  /**
   * Can the reading of lines `first` … `last` pass `test`, a test that any reading within a bound passing it may pass
   * (more named columns and a higher score never fail it)? Asked of the open columns first, then of the candidates.
   */
  mayPass(first: number, last: number, test: (bound: MatchBound) => boolean): boolean {
    const run = this.run(first, last);
    if (run.match) return test({ named: named(run.match.columns), score: run.match.score });
    return test(openBound(this.opened(run))) && test(candidateBound(this.candidates(run)));
  }

  private run(first: number, last: number): Run {
    const key = first * this.lines.length + last;
    let run = this.runs.get(key);
    if (!run) {
      const printed = first === last ? this.lines[first]! : { words: stackWords(this.lines.slice(first, last + 1)) };
      this.runs.set(key, (run = { printed }));
    }
    return run;
  }

  private opened(run: Run): OpenColumns {
    return (run.open ??= openColumns(run.printed, this.cols));
  }

  private candidates(run: Run): HeaderCandidate[] {
    return (run.cands ??= headerCandidates(run.printed, this.cols, this.opened(run)));
  }
}
