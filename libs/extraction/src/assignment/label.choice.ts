import type { FieldDef } from '../engine.types.js';
import type { DocLayout } from '../layout/layout.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import type { FieldCandidate } from '../candidates/label.candidates.js';
import type { Candidate, Located } from '../locate/field.locator.js';
import { locateFormFields } from '../locate/form.locator.js';
import { conceptTokens } from '../locate/label.matcher.js';
import { acceptableString } from '../locate/constraints.js';
import { addresseeBlock } from '../locate/semantic.fallback.js';
import { locatedAt } from './located.js';

/** Printed-label similarity from which a form label's value overrides the concept-based candidates. */
const FORM_LABEL_MIN = 0.85;
/** An exact label match may share its printed value with another field asking for the same thing. */
const SHARED_VALUE_LABEL = 0.95;
/** Confidence of a buyer read from the unlabelled address window in place of a delivery address. */
const BILLED_CONFIDENCE = 0.4;

export interface LabelChoice {
  /** The value chosen per field key. */
  chosen: Map<string, Located>;
  /** Printed value slots already claimed (page:x:y). */
  used: Set<string>;
  /** Fields answered from their label as printed on the page (forms). */
  printedLabels: number;
}

/**
 * Each field's value from its label candidates, greedily: one printed value is claimed by the field whose label
 * matches it best ("Date:" → invoice date, not due date). Then labels printed verbatim on the page (forms: the label
 * is the question as printed) anchor their value directly, with the schema's other labels as its boundaries.
 */
export function chooseByLabels(
  doc: DocLayout,
  fields: FieldDef[],
  ctx: DocContext,
  cands: FieldCandidate[],
  isOtherLabel: (f: FieldDef, v: unknown) => boolean,
): LabelChoice {
  const used = new Set<string>();
  const chosen = new Map<string, Located>();
  for (const { f, c } of cands) {
    if (chosen.has(f.key)) continue;
    const slot = `${c.page}:${Math.round(c.bbox[0])}:${Math.round(c.bbox[1])}`;
    if (used.has(slot) && c.labelScore < SHARED_VALUE_LABEL) continue;
    // Among equally good labels, prefer the best value (first in confidence order) of the same label score.
    used.add(slot);
    chosen.set(f.key, c);
  }
  const printedLabels = choosePrintedLabels(doc, fields, ctx, chosen, isOtherLabel);
  billedNotDelivered(doc, fields, chosen);
  return { chosen, used, printedLabels };
}

/** Form fields whose label is printed verbatim; returns how many were answered that way. */
function choosePrintedLabels(
  doc: DocLayout,
  fields: FieldDef[],
  ctx: DocContext,
  chosen: Map<string, Located>,
  isOtherLabel: (f: FieldDef, v: unknown) => boolean,
): number {
  let printedLabels = 0;
  // (Not when an identifier's "answer" is other fields' labels without a figure: "Number" over a stacked
  // "Date" / "Due" column of labels.)
  const byKey = new Map(fields.map((f) => [f.key, f]));
  const labelsForId = (f: FieldDef, v: unknown) =>
    typeof v === 'string' &&
    !/\d/.test(v) &&
    conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`).some((x) => x === 'number' || x === 'id') &&
    isOtherLabel(f, v);
  for (const [key, c] of locateFormFields(doc, fields, ctx))
    if (c.labelScore >= FORM_LABEL_MIN && !labelsForId(byKey.get(key)!, c.value)) {
      chosen.set(key, c);
      printedLabels++;
    }
  return printedLabels;
}

/**
 * A buyer read under a delivery heading ("Ship to", "Lieferadresse") when the address window holds another party's
 * unlabelled block: the party billed is the window's (the delivery address is where the goods go).
 */
function billedNotDelivered(doc: DocLayout, fields: FieldDef[], chosen: Map<string, Located>): void {
  for (const f of fields) {
    const c: Candidate | undefined = chosen.get(f.key) as Candidate | undefined;
    if (!c?.delivery || typeof c.value !== 'string') continue;
    const billed = addresseeBlock(doc);
    if (!billed || billed.name === c.value || !acceptableString(f, billed.name)) continue;
    chosen.set(f.key, locatedAt(billed.words, billed.line.page, billed.name, BILLED_CONFIDENCE));
  }
}
