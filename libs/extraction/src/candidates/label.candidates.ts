import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Line } from '../layout/layout.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import { locateByLabel, type Candidate } from '../locate/field.locator.js';
import { isLabelPiece, schemaLabels } from '../locate/form.label.js';
import { conceptTokens, isKnownConcept, labelSpec, matchSpan, wordConcepts } from '../locate/label.matcher.js';
import { findDates } from '../parsers/date.parser.js';
import { isPricedRow } from '../locate/semantic.fallback.js';
import { isPartyField } from '../locate/constraints.js';
import { isAddressLine, legalName } from '../locate/semantic.parties.js';
import { vocabularyOrAll } from '../locales/locale.registry.js';
import { CELL_GAP, lineIndexAt, segments } from '../layout/layout.builder.js';

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
        .filter(
          (c) =>
            !isOtherLabel(f, c.value) &&
            !(f.data_type === 'date' && isItemRowDate(doc, c, ctx)) &&
            !(f.data_type === 'string' && isItemPosition(doc, c)) &&
            !(isPartyField(f) && (isAddressValue(c, ctx) || isLabelInsideText(doc, c))),
        )
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

/**
 * A "name" that is a line of a postal address — a street with its house number, a postcode with its town ("12 Harbour
 * Road", "40213 Townsville") — is the party's address, printed where its name was expected. (Not a name with its legal
 * form on the address line: "Acme Ltd, 12 Harbour Road".)
 */
function isAddressValue(c: Candidate, ctx: DocContext): boolean {
  if (typeof c.value !== 'string' || !/\d/.test(c.value)) return false;
  const v = vocabularyOrAll(ctx.locales);
  return isAddressLine(c.value, v) && !legalName(c.value, v);
}

/**
 * A party label read inside a run of text ("456 Buyer Street", "Germany - Buyer State"): words that are no label's
 * precede it in its cell with nothing closing them (a colon, a bar), so it is a word of that text, not a label.
 */
function isLabelInsideText(doc: DocLayout, c: Candidate): boolean {
  const page = doc.pages.find((p) => p.number === c.page);
  if (!page || c.labelX === undefined) return false;
  const line = page.lines.find((l) => l.words.some((w) => Math.abs(w.x0 - c.labelX!) < 0.5 && w.y0 < c.bbox[3] && w.y1 > c.bbox[1]));
  const cell = line && segments(line, CELL_GAP).find((s) => s.words.some((w) => Math.abs(w.x0 - c.labelX!) < 0.5));
  if (!cell) return false;
  const before = cell.words.filter((w) => w.x1 <= c.labelX! + 0.5);
  if (!before.length || /[:|]$/.test(before.at(-1)!.text)) return false;
  // (Words of the label itself may come first, "Adresse de facturation": only a figure or a word no label uses —
  // a house number, a postcode, a place — makes it text.)
  return before.some((w) => /\d/.test(w.text) || (/\p{L}{4,}/u.test(w.text) && !conceptTokens(w.text).some(isKnownConcept)));
}

/** Dated priced rows, in one column, that make a column of item dates. */
const ITEM_DATE_ROWS = 2;

/**
 * A date read under a column header ("Date" over the items) from a row that also prints a price, in a column of such
 * rows, with no date label on its own line: an item's date, not the document's. (One priced row under "Due date", the
 * payment details, is not a column of items.)
 */
function isItemRowDate(doc: DocLayout, c: Candidate, ctx: DocContext): boolean {
  const page = doc.pages.find((p) => p.number === c.page);
  const line = page?.lines[lineIndexAt(page, c.bbox)];
  if (!page || !line || conceptTokens(line.text).includes('date')) return false;
  const h = line.y1 - line.y0;
  const datedRow = (l: Line) => {
    const d = findDates(l.text, ctx.dateOrder)[0];
    if (!d || !isPricedRow(l.text, d)) return false;
    const first = l.words.find((w) => findDates(w.text, ctx.dateOrder).length || d.iso.includes(w.text));
    return !!first && Math.abs(first.x0 - c.bbox[0]) <= h;
  };
  return datedRow(line) && page.lines.filter(datedRow).length >= ITEM_DATE_ROWS;
}

/** Numbered priced rows of the document, their numbers in one column, that make a column of item positions. */
const ITEM_POSITION_ROWS = 2;
/** An item's position number: "1", "12." */
const POSITION = /^\d{1,3}\.?$/;

/**
 * A string read under a column header ("No." over the items) that begins with a row's position number, on a priced row
 * of a column of such numbered rows: the first item's position (and what follows it), not the document's number.
 */
function isItemPosition(doc: DocLayout, c: Candidate): boolean {
  if (typeof c.value !== 'string' || !POSITION.test(c.value.split(/\s+/)[0]!)) return false;
  const page = doc.pages.find((p) => p.number === c.page);
  const line = page?.lines[lineIndexAt(page, c.bbox)];
  if (!page || !line) return false;
  const h = line.y1 - line.y0;
  const numbered = (l: Line) => {
    const first = l.words[0];
    return (
      !!first &&
      POSITION.test(first.text) &&
      Math.abs(first.x0 - c.bbox[0]) <= h &&
      isPricedRow(l.text, { index: 0, length: first.text.length })
    );
  };
  // (The items may run on over pages: a page can hold a single numbered row.)
  return numbered(line) && doc.pages.flatMap((p) => p.lines).filter(numbered).length >= ITEM_POSITION_ROWS;
}
