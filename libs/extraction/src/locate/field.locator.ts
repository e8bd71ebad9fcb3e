import type { FieldDef } from '../engine.types.js';
import { CELL_GAP, segments } from '../layout/layout.builder.js';
import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { cleanString, type DocContext } from '../parsers/value.parser.js';
import { fold, isKnownConcept, labelSpec, lineConcepts, matchSpan, weightOf } from './label.matcher.js';
import { isPartyField } from './constraints.js';
import { vocabularyOrAll } from '../locales/locale.registry.js';

import { isFreeText, isNameField } from './field.rules.js';
import {
  belowOf,
  box,
  isItemRow,
  leadOf,
  meanConf,
  rightOf,
  taxTableBottom,
  totalsRowBelow,
  valuesIn,
  wrappedLines,
} from './field.values.js';

export { box, isItemRow, isLabelRow } from './field.values.js';
export { plausible, refine } from './field.rules.js';

export interface Located {
  value: unknown;
  confidence: number;
  page: number;
  bbox: [number, number, number, number];
  /** Identity of the value's position, so two fields do not claim the same value. */
  slot: string;
}

const MIN_LABEL_SCORE = 0.6;
/**
 * A cell that is just the subject of an identifier field ("Factuur" over "VF2040117788" in a header grid
 * next to "Factuur datum", "Order" over the order number) names that identifier, weakly: any real
 * "Invoice No." label wins over it.
 */
function bareSubjectLabel(
  segConcepts: string[][],
  spec: ReturnType<typeof labelSpec>,
): { start: number; end: number; score: number } | undefined {
  const words = segConcepts.filter((c) => c.some((x) => weightOf(x) > 0));
  if (words.length !== 1 || words[0]!.length !== 1) return undefined;
  for (const v of spec.variants) {
    if (!v.includes('number') && !v.includes('id')) continue;
    const subject = v.filter((c) => c !== 'number' && c !== 'id' && weightOf(c) > 0);
    if (subject.length === 1 && subject[0] === words[0]![0]) {
      const start = segConcepts.indexOf(words[0]!);
      return { start, end: start + 1, score: 0.62 };
    }
  }
  return undefined;
}

export interface Candidate extends Located {
  labelScore: number;
  /** Left edge of the label the value was read by. */
  labelX?: number;
  /** Read under or beside a delivery heading ("Ship to", "Lieferadresse"): the party delivered to, maybe not billed. */
  delivery?: boolean;
}

/** All label-anchored candidates for a field across the document, best first. */
/** Concepts that name a total as the amount to pay rather than another amount. */
const TOTAL_COMPANIONS = new Set(['due', 'payment', 'amount']);
/** Label-score bonus of a total label that names the amount to pay. */
const PAY_BONUS = 0.05;

export function locateByLabel(doc: DocLayout, field: FieldDef, ctx: DocContext): Candidate[] {
  const spec = labelSpec(field.label, field.key);
  // Headings of a delivery address (folded): ship to, Lieferadresse, livré à … (the active packs' `deliveryLabels`).
  const q: LabelQuery = { field, ctx, spec, deliveryLabel: vocabularyOrAll(ctx.locales).deliveryLabel, out: [] };
  for (const page of doc.pages) {
    page.lines.forEach((line, li) => {
      const concepts = lineConcepts(line);
      // A line may hold several label/value pairs side by side: match each segment separately.
      let offset = 0;
      for (const seg of segments(line, CELL_GAP)) {
        const at: SegmentAt = { page, line, li, seg, segStart: offset, segConcepts: concepts.slice(offset, offset + seg.words.length) };
        offset += seg.words.length;
        const label = findLabel(at, q);
        if (!label) continue;
        const right = restOf(at, q, label.m);
        if (readRight(at, q, label, right.rest)) continue;
        readBeyond(at, q, label, right);
      }
    });
  }
  const { out } = q;
  if (field.data_type === 'number' || field.data_type === 'currency') discountTableColumns(out);
  out.sort((a, b) => b.confidence - a.confidence);
  return out;
}

/** The field a label is looked for, and the candidates found so far. */
interface LabelQuery {
  field: FieldDef;
  ctx: DocContext;
  spec: ReturnType<typeof labelSpec>;
  deliveryLabel: RegExp;
  out: Candidate[];
}

/** One cell (segment) of a line, with the concepts of its words. */
interface SegmentAt {
  page: Page;
  line: Line;
  li: number;
  seg: Line;
  /** Index of the segment's first word in the line. */
  segStart: number;
  segConcepts: string[][];
}

/** A label found in a segment: its span and score (adjusted as the stages go), its box and concepts. */
interface LabelFound {
  m: { start: number; end: number; score: number };
  specConcepts: Set<string>;
  labelBox: [number, number, number, number];
  delivery: boolean;
}

/** Whether the field is an amount (a number or a currency). */
const isAmount = (field: FieldDef) => field.data_type === 'number' || field.data_type === 'currency';

/** The field's label in a segment, scored, or undefined. */
function findLabel(at: SegmentAt, q: LabelQuery): LabelFound | undefined {
  const { page, seg, segConcepts } = at;
  const { field, spec } = q;
  const direct = matchSpan(segConcepts, spec, !page.ocr);
  const m = direct && direct.score >= MIN_LABEL_SCORE ? direct : (bareSubjectLabel(segConcepts, spec) ?? direct);
  if (!m) return undefined;
  const specConcepts = new Set(spec.variants.flat());
  if (!weighLabel(at, field, m, specConcepts)) return undefined;
  if (m.score < MIN_LABEL_SCORE) return undefined;
  // The rest of a phrase resolved onto its first word ("Delivery ‹address›") belongs to the label.
  while (m.end < segConcepts.length && segConcepts[m.end]!.length === 0) m.end++;
  const labelWords = seg.words.slice(m.start, m.end);
  const labelBox = box(labelWords);
  // The customer is who is billed: a delivery address ("Ship to", "Lieferadresse", "Livré à") names the buyer
  // only when no billing heading does, so it ranks just below one.
  const delivery = specConcepts.has('buyer') && q.deliveryLabel.test(fold(labelWords.map((w) => w.text).join(' ')));
  if (delivery) m.score *= 0.97;
  return { m, specConcepts, labelBox, delivery };
}

/**
 * Lowers the score of a label that does not open its cell, runs on, or names another concept too; false when the
 * label names an identifier the field does not ask for.
 */
function weighLabel(at: SegmentAt, field: FieldDef, m: LabelFound['m'], specConcepts: Set<string>): boolean {
  const { seg, segConcepts } = at;
  // Labels open a cell; a match in the middle of running text ("Greetings from …") is prose.
  // ("Total taxes" still opens with its label: a leading "total" is part of an amount's label.)
  const amountField = isAmount(field);
  const pre = segConcepts.slice(0, m.start).flat();
  // (Nor does a rate printed before an amount's label: "zzgl. 7 % USt. auf 238,00 €".)
  const openingOk = pre.every((c) => weightOf(c) === 0 || (amountField && (c === 'total' || /^\d{1,2}$/.test(c))));
  if (m.start > 0 && !openingOk) m.score *= seg.words.length > 6 ? 0.6 : 0.85;
  if (seg.words.length - m.end > 8 && !/[:#]$/.test(seg.words[m.end - 1]!.text)) m.score *= 0.8;
  // A label cell that also names another known concept ("Total HT" for "Total": net) is a different field.
  // ("total" is exempt for amounts: "Total taxes" is the tax amount.)
  const numeric = amountField;
  // For amounts the words just before the match count too: "Net total" is the net amount, "VAT total" the tax.
  // … and past filler words after it: "Date of delivery" is a delivery date.
  let after = m.end;
  while (after < segConcepts.length && segConcepts[after]!.every((c) => weightOf(c) === 0)) after++;
  // (Nor, for a total, the words that say it is the amount to pay: "Total payable", "Total amount due".)
  const companion = (c: string) => numeric && (c === 'total' || (specConcepts.has('total') && TOTAL_COMPANIONS.has(c)));
  const foreign = segConcepts
    .slice(numeric ? Math.max(0, m.start - 2) : m.start, after + 1)
    .flat()
    .some((c) => isKnownConcept(c) && weightOf(c) >= 1 && !specConcepts.has(c) && !companion(c));
  if (foreign) m.score *= 0.6;
  const namesId = segConcepts
    .slice(m.start, after + 1)
    .flat()
    .some((c) => c === 'number' || c === 'id');
  // An amount is not read from an identifier's label ("Steuer-Nr.", "VAT ID", "NIP") unless the field asks for one.
  if (numeric && !specConcepts.has('number') && !specConcepts.has('id') && namesId) return false;
  // … nor a party's name from its identifier's label ("Customer ID", "Kundennummer" name no customer), nor from a longer
  // label that ends in an identifier a few words on ("Buyer product ID:", "Kunde Artikel-Nr.:").
  return !(isPartyField(field) && (namesId || endsInIdLabel(at, m)));
}

/** Words a longer label may run on past a party label before the colon that ends it. */
const LONG_LABEL_MAX_WORDS = 3;

/** Whether the label cell from match `m` runs on to a colon within LONG_LABEL_MAX_WORDS words, naming an identifier. */
function endsInIdLabel({ seg, segConcepts }: SegmentAt, m: LabelFound['m']): boolean {
  const end = seg.words.findIndex((w, i) => i >= m.end && i < m.end + LONG_LABEL_MAX_WORDS && /:$/.test(w.text));
  if (end < 0) return false;
  return segConcepts
    .slice(m.end, end + 1)
    .flat()
    .some((c) => c === 'number' || c === 'id');
}

/** The words right of the label (rest of its segment, else the next segment), and its last word. */
function restOf(at: SegmentAt, q: LabelQuery, m: LabelFound['m']): { rest: Word[]; lastLabel: Word } {
  const { line, seg, segStart } = at;
  // Value right of the label: rest of this segment, else the next segment of the line.
  let rest = rightOf(line, segStart + m.end, q.field);
  // A value glued to its label ("n°731905522", "No.123", "#A-17"): split the last label word.
  const lastLabel = seg.words[m.end - 1]!;
  const glued = /^(.*?(?:n[°º]|#|no\.|nr\.|:))([A-Z0-9][\w\-/.]*\d[\w\-/.]*)$/i.exec(lastLabel.text);
  if (glued && glued[1]) {
    const per = (lastLabel.x1 - lastLabel.x0) / lastLabel.text.length;
    rest = [{ ...lastLabel, text: glued[2]!, x0: lastLabel.x0 + glued[1].length * per }, ...rest];
  }
  return { rest, lastLabel };
}

/** The candidate of value `v` read by a label, at position `slot`. */
function valueCandidate(page: Page, label: LabelFound, v: { value: unknown; words: Word[] }, conf: number, slot: string): Candidate {
  return {
    labelX: label.labelBox[0],
    value: v.value,
    confidence: conf,
    labelScore: label.m.score,
    page: page.number,
    bbox: box(v.words),
    slot,
    delivery: label.delivery,
  };
}

/** Candidates read right of the label; true when any was placed. Adds the total and pay bonuses to the label score. */
function readRight(at: SegmentAt, q: LabelQuery, label: LabelFound, rest: Word[]): boolean {
  const { page, line, li, segStart, segConcepts } = at;
  const { field, ctx, out } = q;
  const { m, specConcepts, labelBox, delivery } = label;
  let placed = false;
  let vals = valuesIn(rest, field, ctx, leadOf(line, rest, segStart + m.end));
  // Summary lines print base then amount ("VAT 20% 100.00 20.00"): the rightmost amount is the value.
  if (isAmount(field)) vals = vals.sort((a, b) => b.quality - a.quality || b.words[0]!.x0 - a.words[0]!.x0);
  // Summary amounts on documents are totals: a label that also says "total" is the stronger anchor.
  const totalBonus = isAmount(field) && !specConcepts.has('total') && segConcepts.some((c) => c.includes('total')) ? 0.08 : 0;
  // … and a total that says it is the amount to pay ("Total payable", "Total due") beats other totals.
  const payBonus =
    isAmount(field) && specConcepts.has('total') && segConcepts.flat().some((c) => c === 'due' || c === 'payment') ? PAY_BONUS : 0;
  m.score = Math.min(1, m.score + totalBonus) + payBonus;
  for (const [i, v] of vals.entries()) {
    const conf = m.score * v.quality * meanConf(v.words) * (i === 0 ? 1 : 0.9);
    if (field.data_type === 'string' && v.words.length >= 3 && isFreeText(field)) {
      const more = wrappedLines(page.lines, li, v.words);
      if (more.length) {
        const words = [...v.words, ...more.flatMap((l) => l.words)];
        out.push({
          labelX: labelBox[0],
          value: cleanString(words.map((w) => w.text).join(' ')),
          confidence: conf * 0.9,
          labelScore: m.score,
          page: page.number,
          bbox: box(words),
          slot: '',
          delivery,
        });
        placed = true;
        break;
      }
    }
    out.push(valueCandidate(page, label, v, conf, `${page.number}:${li}:${line.words.indexOf(v.words[0]!)}`));
    placed = true;
    if (field.data_type !== 'number' && field.data_type !== 'currency') break;
  }
  return placed;
}

/** With nothing right of the label: a table's totals row under it, else the value below (unless the line says otherwise). */
function readBeyond(at: SegmentAt, q: LabelQuery, label: LabelFound, right: { rest: Word[]; lastLabel: Word }): void {
  const { page, line, li, segStart } = at;
  const { field, ctx, out } = q;
  const { m, labelBox } = label;
  const { rest, lastLabel } = right;
  // An amount's label followed on its line by an identifier ("VAT: <id>", "Tax no.: <number>") names
  // that identifier: the label is answered there, and the line below is no amount of it (a street number).
  const restFirst = rest[0]?.text ?? '';
  if (isAmount(field) && /\p{L}/u.test(restFirst) && /\d/.test(restFirst) && !valuesIn([rest[0]!], field, ctx).length) return;
  // An amount under a table column header ("Total" over line totals) is a row value, not the field;
  // the column's figure on the table's totals row ("Razem: ‖ 257,59 ‖ 59,24") is the summary amount.
  if (isAmount(field) && segments(line, 1.5).length >= 3) {
    const ws = totalsRowBelow(page.lines, li, labelBox) ?? taxTableBottom(page.lines, li, labelBox);
    const v = ws ? valuesIn(ws, field, ctx)[0] : undefined;
    if (v)
      out.push({
        labelX: labelBox[0],
        value: v.value,
        confidence: m.score * v.quality * meanConf(v.words) * 0.8,
        labelScore: m.score * 0.95,
        page: page.number,
        bbox: box(v.words),
        slot: `${page.number}:totals:${v.words[0]!.x0.toFixed(0)}`,
      });
    return;
  }
  // A name label followed on its line by a long number ("Company 198718 …", "Company No: 1234567-X") is a
  // registration-number label.
  // (Not a number that follows another label of its own further along the line: "Seller: ‖ Invoice No.: LH2025…".)
  const restWords = line.words.slice(segStart + m.end);
  const nextCell = segments({ ...line, words: restWords }, CELL_GAP)[0]?.words ?? [];
  const nextIsLabel = nextCell.length > 0 && nextCell.length <= 3 && /\p{L}{2,}\.?:$/u.test(nextCell[nextCell.length - 1]!.text);
  // (The number stands in the cell right of the label: one further along belongs to a label of its own, "Bill To ‖
  // Ship To ‖ Invoice # ‖ 10457".)
  if (field.data_type === 'string' && isNameField(field) && !nextIsLabel && nextCell.some((w) => /\d{5,}/.test(w.text))) return;
  // A value glued to the label's colon ("Client:7") is that label's value, even when it is not this field's.
  if (/^\p{L}{2,}[^:]*:[^\s:]+$/u.test(lastLabel.text)) return;
  // A party label that runs on in lower case in its own cell ("delivered to the loading bay", a note under an
  // item) is words of a sentence, no heading: the line below is not its party.
  if (isPartyField(field) && !/:$/.test(lastLabel.text) && /^\p{Ll}/u.test(rest[0]?.text ?? '') && at.seg.words.includes(rest[0]!)) return;
  readBelow(at, q, label);
}

/** The first value below the label (not on a line-item row). */
function readBelow(at: SegmentAt, q: LabelQuery, label: LabelFound): void {
  const { page, li } = at;
  const { field, ctx, out } = q;
  const { m, labelBox } = label;
  for (const ws of belowOf(page.lines, li, labelBox, field)) {
    const vl = page.lines.find((l) => l.words.includes(ws[0]!));
    const vs = valuesIn(ws, field, ctx, vl ? leadOf(vl, ws, 0) : '');
    const v = vs[0];
    if (!v) continue;
    // An amount on a line-item row ("1 ‖ Widget deluxe ‖ 3,89 ‖ 3,89") belongs to a table column header.
    if (isAmount(field) && isItemRow(page.lines.find((l) => l.words.includes(v.words[0]!)))) continue;
    const conf = m.score * v.quality * meanConf(v.words) * 0.85;
    out.push(valueCandidate(page, label, v, conf, `${page.number}:${li + 1}:${v.words[0]!.x0.toFixed(0)}`));
    break;
  }
}

/** Distinct amounts read under one label column ("VAT 20%" on every item row) that make it a table column. */
const TABLE_COLUMN_MIN_VALUES = 3;
/** How far apart the labels' left edges may lie and still stand in one column, in value line heights. */
const COLUMN_X_TOLERANCE = 0.2;
/** Confidence factor of an amount read from a table column rather than from a summary line. */
const TABLE_COLUMN_FACTOR = 0.75;

/**
 * A summary amount is printed once (or repeated unchanged); a label repeated on row after row with a different
 * amount each time ("VAT 20% … 300.69" on every line item) is a table column, and ranks below a summary line.
 */
function discountTableColumns(out: Candidate[]): void {
  for (const c of out) {
    if (c.labelX === undefined) continue;
    const tolerance = COLUMN_X_TOLERANCE * (c.bbox[3] - c.bbox[1]);
    const column = out.filter((o) => o.labelX !== undefined && Math.abs(o.labelX - c.labelX!) <= tolerance);
    const values = new Set(column.map((o) => JSON.stringify(o.value)));
    if (values.size >= TABLE_COLUMN_MIN_VALUES) c.confidence *= TABLE_COLUMN_FACTOR;
  }
}
