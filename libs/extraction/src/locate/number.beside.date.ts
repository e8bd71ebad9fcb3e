import type { FieldDef, FieldMeta } from '../engine.types.js';
import type { DocLayout, Line } from '../layout/layout.types.js';
import { lineIndexAt } from '../layout/layout.builder.js';
import { findDates } from '../parsers/date.parser.js';
import type { DocContext } from '../parsers/value.parser.js';
import { conceptTokens } from './label.matcher.js';

/**
 * Many designs print the document's number without a label, as the line right above or below its date in the
 * header ("F-2031-0042" over "01.02.2031"). When no labelled number was found, an identifier alone on the line next
 * to the document date, in the date's column, is taken as the number, with low confidence.
 */

/** Lines either side of the date line that may hold the number. */
const NUMBER_LINE_REACH = 1;
/** How far, in line heights, the number's left or right edge may stray from the date's. */
const NUMBER_EDGE_SLACK = 1;
/** Confidence of a number read this way: no label names it. */
const UNLABELLED_NUMBER_CONFIDENCE = 0.5;
/** An identifier: one token of letters, digits and separators, with a digit, at least this long. */
const MIN_NUMBER_LENGTH = 4;
const IDENTIFIER = /^[\p{L}\d#][\p{L}\d\-/._#]*$/u;

const concepts = (f: FieldDef) => new Set(conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`));

/** The document's number field: an identifier of the document itself, not of a party, an order or a tax. */
function documentNumberField(fields: FieldDef[]): FieldDef | undefined {
  const other = ['tax', 'vat', 'customer', 'buyer', 'seller', 'order', 'iban', 'account', 'phone', 'reference'];
  return fields.find((f) => {
    if (f.data_type !== 'string') return false;
    const c = concepts(f);
    return (c.has('number') || c.has('id')) && (c.has('invoice') || c.has('document')) && !other.some((o) => c.has(o));
  });
}

/** The document's date field: a date that is not a due, delivery or period date. */
function documentDateField(fields: FieldDef[]): FieldDef | undefined {
  return fields.find((f) => {
    if (f.data_type !== 'date') return false;
    const c = concepts(f);
    return !['due', 'delivery', 'period', 'start', 'end', 'birth'].some((o) => c.has(o));
  });
}

function isIdentifier(text: string, ctx: DocContext): boolean {
  const t = text.trim();
  if (t.length < MIN_NUMBER_LENGTH || !/\d/.test(t) || !IDENTIFIER.test(t)) return false;
  // (Not a date, a figure with decimals, or a bare count: "01.02.2031", "1.250,00", "2031".)
  if (findDates(t, ctx.dateOrder).length) return false;
  if (/^\d+([.,]\d+)*$/.test(t)) return false;
  return true;
}

function lineAt(doc: DocLayout, page: number, bbox: FieldMeta['bbox']): { lines: Line[]; k: number } | undefined {
  const p = doc.pages.find((x) => x.number === page);
  if (!p || !bbox) return undefined;
  const k = lineIndexAt(p, bbox);
  return k < 0 ? undefined : { lines: p.lines, k };
}

export function numberBesideDate(
  doc: DocLayout,
  fields: FieldDef[],
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  ctx: DocContext,
): void {
  const num = documentNumberField(fields);
  const date = documentDateField(fields);
  if (!num || !date || result[num.key] !== undefined || result[date.key] === undefined) return;
  const dm = meta[date.key];
  if (!dm?.bbox || dm.page === undefined) return;
  const at = lineAt(doc, dm.page, dm.bbox);
  if (!at) return;
  const [dx0, , dx1] = dm.bbox;
  const hits = at.lines
    .slice(Math.max(0, at.k - NUMBER_LINE_REACH), at.k + NUMBER_LINE_REACH + 1)
    .filter((l) => l !== at.lines[at.k] && l.words.length === 1 && isIdentifier(l.text, ctx))
    .filter((l) => {
      const slack = (l.y1 - l.y0) * NUMBER_EDGE_SLACK;
      return Math.abs(l.x0 - dx0) <= slack || Math.abs(l.x1 - dx1) <= slack;
    })
    .filter((l) => !Object.values(result).some((v) => typeof v === 'string' && v.includes(l.text.trim())));
  if (hits.length !== 1) return;
  const l = hits[0]!;
  result[num.key] = l.text.trim();
  meta[num.key] = { confidence: UNLABELLED_NUMBER_CONFIDENCE, page: dm.page, bbox: [l.x0, l.y0, l.x1, l.y1], errors: [] };
}
