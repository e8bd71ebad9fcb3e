import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { findLabel, OPEN_GAP, type LabelHit } from './form.label.js';
import { gluedMark, isMark, MARK_NEARER } from './form.mark.js';
import { compact, heightOf } from './form.text.js';

// Claiming: which printing of its label each field of a form's schema takes (form.label.ts finds the printings).

const wordKey = (h: { page: number; line: number }, i: number) => `${h.page}:${h.line}:${i}`;

export interface Claim {
  field: FieldDef;
  hit: LabelHit;
}

/** Longer labels rank first: this bonus per letter… */
const LENGTH_BONUS = 0.015;
/** …counted up to this many letters. */
const LENGTH_BONUS_CAP = 20;
/** A further occurrence of a label scoring at least this is a printed label too (it ends values). */
const REPEAT_LABEL_SCORE = 0.9;
/**
 * A check-box option printed more often than it is asked for ("Full  X  Partial" for one question and again
 * for the next) is the printing with a mark beside it: this bonus ranks a printing with a mark right after it
 * or just before it above an unmarked one of the same label.
 */
const MARKED_BONUS = 0.05;
/** A mark read with a trailing dot or two ("X..") is still a mark when it is beside a label. */
const MARK_DOTS = /\.+$/;
/** The words of the line a label was found on. */
function hitWords(doc: DocLayout, hit: LabelHit): Word[] {
  return doc.pages.find((p) => p.number === hit.page)?.lines[hit.line]?.words ?? [];
}
function marked(doc: DocLayout, hit: LabelHit, label: string): boolean {
  const ws = hitWords(doc, hit);
  const near = (w: Word | undefined) => w !== undefined && isMark(w.text.replace(MARK_DOTS, ''));
  if (near(ws[hit.end]) || gluedMark(ws[hit.start]!.text, label)) return true;
  // A mark before the label is its own only on a blank printed before it ("_X Fair") or clearly nearer to it
  // than to the word before ("Yes x No" answers "Yes").
  const mark = ws[hit.start - 1];
  if (!near(mark)) return false;
  const before = ws[hit.start - 2];
  return /^_+[^_]+$/.test(mark!.text) || !before || ws[hit.start]!.x0 - mark!.x1 <= (mark!.x0 - before.x1) * MARK_NEARER;
}
/**
 * Does a label occurrence end its cell: nothing after it on its line, a colon or question mark at its end, or a
 * gap wider than OPEN_GAP letter heights before the next word? A printed label stands apart from its answer;
 * the same words run on at word spacing are a sentence quoting it ("… see the Annual Review Notes for details …").
 */
function endsCell(doc: DocLayout, hit: LabelHit): boolean {
  const ws = hitWords(doc, hit);
  const last = ws[hit.end - 1];
  const next = ws[hit.end];
  if (!last || !next || /[:?]$/.test(last.text)) return true;
  return next.x0 - last.x1 > heightOf(last) * OPEN_GAP;
}
/**
 * Assigns printed labels to fields: longer, better matching labels claim their words first (so "DATE"
 * does not take the first word of "DATE RECEIVED"); a label asked for several times takes as many
 * occurrences, assigned to its fields in reading order (the schema lists repeats top to bottom).
 */
export function claimLabels(doc: DocLayout, fields: FieldDef[]): { claims: Claim[]; delimiters: Set<string>; ambiguous: Set<string> } {
  const groups = new Map<string, FieldDef[]>();
  for (const f of fields) {
    if (f.data_type === 'table' || !f.label) continue;
    const c = compact(f.label);
    if (!c) continue;
    groups.set(c, [...(groups.get(c) ?? []), f]);
  }
  const all: { group: string; hit: LabelHit; rank: number }[] = [];
  for (const [group, fs] of groups)
    for (const page of doc.pages)
      for (const hit of findLabel(page, fs[0]!.label!))
        all.push({
          group,
          hit,
          rank: hit.score + LENGTH_BONUS * Math.min(group.length, LENGTH_BONUS_CAP) + (marked(doc, hit, fs[0]!.label!) ? MARKED_BONUS : 0),
        });
  all.sort((a, b) => b.rank - a.rank);
  const usedWords = new Set<string>();
  const got = new Map<string, LabelHit[]>();
  const delimiters = new Set<string>();
  const ambiguous = new Set<string>();
  for (const { group, hit } of all) {
    const keys = Array.from({ length: hit.end - hit.start }, (_, k) => wordKey(hit, hit.start + k));
    for (const [l, w] of hit.more ?? []) keys.push(`${hit.page}:${l}:${w}`);
    if (keys.some((k) => usedWords.has(k))) continue;
    const list = got.get(group) ?? [];
    if (list.length >= groups.get(group)!.length) {
      // Further good occurrences of a label are still labels: they end values, but claim nothing; and a
      // label printed more often than it is asked for ("Total" over a column and under it) is ambiguous.
      if (hit.score >= REPEAT_LABEL_SCORE && hit.standalone !== false) {
        if (endsCell(doc, hit)) for (const k of keys) delimiters.add(k);
        ambiguous.add(group);
      }
      continue;
    }
    list.push(hit);
    got.set(group, list);
    for (const k of keys) (usedWords.add(k), delimiters.add(k));
  }
  const claims: Claim[] = [];
  for (const [group, hits] of got) {
    hits.sort((a, b) => a.page - b.page || a.line - b.line || a.start - b.start);
    groups.get(group)!.forEach((f, i) => {
      if (hits[i]) claims.push({ field: f, hit: hits[i]! });
    });
  }
  return { claims, delimiters, ambiguous };
}
