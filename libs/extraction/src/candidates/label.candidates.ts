import type { FieldDef } from '../engine.types.js';
import type { DocLayout } from '../layout/layout.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import { locateByLabel, type Candidate } from '../locate/field.locator.js';
import { isLabelPiece, schemaLabels } from '../locate/form.label.js';
import { labelSpec, matchSpan, wordConcepts } from '../locate/label.matcher.js';

/** Label candidates kept per field, best first. */
const CANDIDATES_PER_FIELD = 8;

/** One field's candidate value, anchored by a printed label. */
export interface FieldCandidate {
  f: FieldDef;
  c: Candidate;
}

/**
 * Whether a string "value" is another field's label (a short run that reads like another field's label, "TESTED:
 * REPORTED:", or a string that is a whole printed label of the schema, OCR errors aside): a neighbour label, no value.
 */
export function otherLabelTest(fields: FieldDef[]): (f: FieldDef, v: unknown) => boolean {
  const specs = fields.map((f) => ({ key: f.key, spec: labelSpec(f.label, f.key) }));
  const labels = schemaLabels(fields);
  return (f, v) =>
    typeof v === 'string' &&
    ((v.split(/\s+/).length <= 4 &&
      specs.some((o) => o.key !== f.key && (matchSpan(wordConcepts(v.split(/\s+/)), o.spec)?.score ?? 0) >= 0.9)) ||
      (f.data_type === 'string' && isLabelPiece(v, labels, f.label, false)));
}

/**
 * The candidates stage: every scalar field's label-anchored values, in the order the choice takes them — label score,
 * then confidence, then (equal amount labels) the later printing, the document's summary after section subtotals.
 */
export function labelCandidates(doc: DocLayout, fields: FieldDef[], ctx: DocContext): FieldCandidate[] {
  const isOtherLabel = otherLabelTest(fields);
  const cands = fields
    .filter((f) => f.data_type !== 'table')
    .flatMap((f) =>
      locateByLabel(doc, f, ctx)
        .filter((c) => !isOtherLabel(f, c.value))
        .slice(0, CANDIDATES_PER_FIELD)
        .map((c) => ({ f, c })),
    );
  const later = (a: FieldCandidate, b: FieldCandidate) =>
    a.f.data_type === 'number' || a.f.data_type === 'currency' ? b.c.page - a.c.page || b.c.bbox[1] - a.c.bbox[1] : 0;
  return cands.sort(
    (a, b) =>
      b.c.labelScore - a.c.labelScore || (Math.abs(b.c.confidence - a.c.confidence) > 1e-6 ? b.c.confidence - a.c.confidence : later(a, b)),
  );
}
