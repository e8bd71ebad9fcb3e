import type { FieldDef, FieldMeta } from '../engine.types.js';
import { findDates } from '../parsers/date.parser.js';
import { findIban, findVatIds } from '../parsers/identifier.parser.js';
import { conceptTokens, isKnownConcept, weightOf } from './label.matcher.js';
import type { Located } from './field.locator.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';

/**
 * Constraints every extraction must respect, whatever the document: shape checks on single values (an amount is not
 * a year, postcode, phone number or identifier; a label or a bare legal form is not a name; a code line under an item
 * is not its description) and consistency checks across fields (net + tax = total, Σ line items = net, due date ≥
 * invoice date, seller ≠ buyer).
 */

// ---- Vocabulary: the locale packs' (locales/<id>.json: yearWords, phoneWords, postcodePrefixes, itemCodeLabels,
// legalForms). These checks see no document, so every shipped pack applies.
const VOCAB = allPacksVocabulary();

// ---- Thresholds --------------------------------------------------------------------------------------------------

/** Years an amount-less integer is read as (a bare 1900 … 2099 after a year word is a year). */
const YEAR_MIN = 1900;
/** (see YEAR_MIN) */
const YEAR_MAX = 2099;
/** Tolerance of the sums net + tax = total and Σ line items = net: one cent plus rounding noise. */
const SUM_TOLERANCE = 0.011;
/** Label candidates per summary field considered when looking for a consistent net/tax/total triple. */
const MAX_ALTERNATIVES = 6;
/** A re-picked alternative keeps at least this share of its label-anchored confidence. */
const REPICK_CONFIDENCE = 0.9;

// ---- Shape checks --------------------------------------------------------------------------------------------------

/**
 * Is the number found at `index` (length `length`) in `text` something other than an amount: a year, a postcode, a
 * phone number, or part of an identifier (IBAN, VAT id, a number after "No." / "ID")? `text` is the cell the value
 * was read from, `lead` the line's text before that cell (the label); `idsOk` when the field itself asks for a number.
 */
export function notAnAmount(text: string, index: number, length: number, lead = '', idsOk = false): boolean {
  const raw = text.slice(index, index + length).trim();
  const before = `${lead} ${text.slice(0, index)}`;
  const after = text.slice(index + length);
  const bare = /^\d+$/.test(raw);
  // (Printed cents make an amount: the identifier and phone shapes below are integers or digit groups.)
  const cents = /[.,]\d{1,2}\)?-?$/.test(raw);
  // Part of an IBAN or a VAT id printed in the same cell.
  const iban = findIban(text);
  if (iban) {
    const at = text.toUpperCase().indexOf(iban);
    if (at >= 0 && at < index + length && index < at + iban.length) return true;
  }
  if (findVatIds(text.toUpperCase()).some((v) => v.index < index + length && index < v.index + v.value.length)) return true;
  if (cents) return false;
  // An identifier: the number follows "No.", "Nr", "#", "ID" (an order, customer or invoice number).
  const lastWords = before.trim().split(/\s+/).slice(-2).join(' ');
  if (
    !idsOk &&
    lastWords &&
    conceptTokens(lastWords)
      .slice(-1)
      .some((c) => c === 'number' || c === 'id' || c === 'iban')
  )
    return true;
  // A phone number: after a phone word, an international prefix ("+49 …"), or digit groups with a leading zero ("040 123 456").
  if (VOCAB.phoneWord.test(before)) return true;
  // A statute's article or section ("TVA non applicable, art. 293 B du CGI", "gemäß § 19 UStG").
  if (VOCAB.lawReference.test(before)) return true;
  if (/^\+\d/.test(raw) || /\+\s?$/.test(before)) return true;
  if (/^0\d/.test(raw.replace(/^[(\-−–]+/, ''))) return true;
  if (!bare) return false;
  const n = Number(raw);
  // A year after a year word or a copyright sign.
  if (raw.length === 4 && n >= YEAR_MIN && n <= YEAR_MAX && VOCAB.yearWord.test(before)) return true;
  // A postcode: four or five bare digits before a place name ("20095 Hamburg"), or after a country prefix ("D-20095").
  if ((raw.length === 4 || raw.length === 5) && (/^,?\s+\p{Lu}\p{Ll}{2,}/u.test(after) || VOCAB.postcodePrefix.test(before))) return true;
  // A date printed next to it is no amount either (the date parser already keeps its parts out of the numbers).
  return findDates(text).some((d) => d.index < index + length && index < d.index + d.length);
}

/** Do the words of `value` (figures and punctuation aside) all reduce to label vocabulary ("Customer number", "Invoice date:")? */
export function isLabelText(value: string): boolean {
  const words = value.split(/\s+/).filter((w) => /\p{L}/u.test(w));
  if (!words.length) return false;
  const concepts = words.map((w) => conceptTokens(w));
  if (concepts.some((c) => c.length === 0)) return false;
  if (!concepts.every((c) => c.every((x) => isKnownConcept(x) || weightOf(x) === 0))) return false;
  // (A lone abbreviation is no label: "No", "N/A" answer a question. A label names a specific concept, or is a
  // phrase of known words, or ends with its colon.)
  const known = concepts.filter((c) => c.some((x) => isKnownConcept(x))).length;
  return concepts.some((c) => c.some((x) => isKnownConcept(x) && weightOf(x) >= 1)) || known >= 2 || (known >= 1 && /:\s*$/.test(value));
}

/** A legal form printed alone ("GmbH", "Ltd.", "S.A."): no party name. */
export function isLegalFormOnly(value: string): boolean {
  return VOCAB.legalFormOnly.test(value.trim().replace(/[,;]+$/, ''));
}

/** Fields naming a party (seller, buyer, company) or a name — not a party's identifier ("Seller VAT ID", "Customer number"). */
export function isPartyField(field: FieldDef): boolean {
  const c = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  if (c.some((x) => x === 'id' || x === 'number' || x === 'iban' || x === 'code' || x === 'address')) return false;
  return c.some((x) => x === 'name' || x === 'seller' || x === 'buyer' || x === 'company');
}

/**
 * Can `value` stand as the value of string field `field`? Never a printed label (text that reduces to label concepts
 * only); for names, not a label followed by a figure ("Customer number 100234") nor a legal form alone.
 */
/** A short label and a colon at the start of a text: "Reg. No. :", "Tel:". */
const LABEL_OPENING = /^[^:\d]{1,20}:\s*\S/u;

/** A party block's heading word alone ("From", "Von", "To:", "An"): the packs' `partyPrefixes` and `addresseeCells`. */
function isPartyHeading(value: string): boolean {
  const bare = value.trim().replace(/:$/, '');
  return VOCAB.addresseeHeading.test(bare) || `${bare} x`.replace(VOCAB.party.partyPrefix, '') === 'x';
}

export function acceptableString(field: FieldDef, value: string): boolean {
  const letters = value.replace(/[^\p{L}\s]/gu, ' ').trim();
  if (!/\d/.test(value) && isLabelText(value)) return false;
  if (isPartyField(field)) {
    if (letters && isLabelText(letters)) return false;
    if (isLegalFormOnly(value)) return false;
    // (A label and its colon opening the value, "Reg. No. : 1234-X", is a detail printed after the name's label.)
    if (LABEL_OPENING.test(value)) return false;
    // (Nor the heading word of a party's block alone: "From", "Von", "To", "An".)
    if (isPartyHeading(value)) return false;
    // (Nor a date: "Due Date October 17, 2022" printed beside the "To:" label is the next cell, not a party.)
    if (findDates(value).length) return false;
  }
  return true;
}

/** A line under a line item that prints one of its codes ("GTIN: 4006381333931", "S/N 7Q44-1188-20"): no description text. */
export function isItemCodeLine(text: string): boolean {
  const t = text.trim();
  const m = VOCAB.itemCodeLabel.exec(t);
  if (!m) return false;
  const rest = t.slice(m[0].length).replace(/^[\s:#.]+/, '');
  // The code: one or a few tokens with a digit, no lower-case words.
  return /\d/.test(rest) && rest.split(/\s+/).length <= 3 && !/\b\p{Ll}{3,}\b/u.test(rest);
}

// ---- Consistency checks --------------------------------------------------------------------------------------------

type Role = 'total' | 'net' | 'tax';

function conceptsOfField(f: FieldDef): Set<string> {
  return new Set(conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`));
}

function roleOf(f: FieldDef): Role | undefined {
  if (f.data_type !== 'number' && f.data_type !== 'currency') return undefined;
  const c = conceptsOfField(f);
  if (['id', 'number', 'rate', 'price', 'quantity', 'unit'].some((x) => c.has(x))) return undefined;
  if (c.has('net')) return 'net';
  if (c.has('tax')) return 'tax';
  if (c.has('total')) return 'total';
  return undefined;
}

function amountOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'number') return (v as { value: number }).value;
  return undefined;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

function place(result: Record<string, unknown>, meta: Record<string, FieldMeta>, f: FieldDef, c: Located, confidence = c.confidence): void {
  result[f.key] = c.value;
  meta[f.key] = { confidence: round3(confidence), page: c.page, bbox: c.bbox.map(round3) as FieldMeta['bbox'], errors: [] };
}

const slotOf = (c: Located) => `${c.page}:${Math.round(c.bbox[0])}:${Math.round(c.bbox[1])}`;

/** The line-item amounts' sum of the first table field with an amount/total column, if it has rows. */
function lineItemsSum(fields: FieldDef[], result: Record<string, unknown>): number | undefined {
  for (const f of fields) {
    if (f.data_type !== 'table' || !Array.isArray(result[f.key]) || !(result[f.key] as unknown[]).length) continue;
    const col = (f.fields ?? []).find((s) => {
      if (s.data_type !== 'number' && s.data_type !== 'currency') return false;
      const c = conceptsOfField(s);
      return (c.has('amount') || c.has('total')) && !c.has('price') && !c.has('quantity') && !c.has('unit') && !c.has('tax');
    });
    if (!col) continue;
    let sum = 0;
    for (const r of result[f.key] as Record<string, unknown>[]) {
      const v = amountOf(r[col.key]);
      if (v === undefined) return undefined;
      sum += v;
    }
    return Math.round(sum * 100) / 100;
  }
  return undefined;
}

/**
 * Net + tax = total decides between competing summary amounts: when the chosen three do not add up and the label
 * candidates hold a triple that does, that triple is taken (changing as few of the chosen fields as possible, then
 * by label strength). Without such a triple, Σ line items = net decides between competing net amounts (never against
 * a chosen triple that adds up).
 */
function reconcileTotals(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  printed: PageLookups['amount'],
): void {
  const byRole: Partial<Record<Role, FieldDef>> = {};
  for (const f of fields) {
    const r = roleOf(f);
    if (r && !byRole[r]) byRole[r] = f;
  }
  const { net, tax, total } = byRole;
  const current = (f: FieldDef | undefined) => (f ? amountOf(result[f.key]) : undefined);
  const pool = (f: FieldDef) => (alternatives.get(f.key) ?? []).filter((c) => amountOf(c.value) !== undefined).slice(0, MAX_ALTERNATIVES);
  if (net && tax && total) {
    const [n, x, t] = [current(net), current(tax), current(total)];
    const consistent = n !== undefined && x !== undefined && t !== undefined && Math.abs(n + x - t) <= SUM_TOLERANCE;
    // Chosen amounts that add up stand: line items priced with tax (a shop's gross prices) sum to a gross
    // subtotal, which must not replace a net amount that net + tax = total confirms.
    if (consistent) return;
    {
      // Each field's label candidates, marked when they print the value already chosen.
      const opts = (f: FieldDef) => {
        const cur = current(f);
        return pool(f).map((c) => ({
          c,
          v: amountOf(c.value)!,
          kept: cur !== undefined && Math.abs(amountOf(c.value)! - cur) <= SUM_TOLERANCE,
        }));
      };
      const [on, ox, ot] = [opts(net), opts(tax), opts(total)];
      let best: { n: (typeof on)[number]; x: (typeof on)[number]; t: (typeof on)[number]; score: number } | undefined;
      for (const a of on)
        for (const b of ox)
          for (const c of ot) {
            if (Math.abs(a.v + b.v - c.v) > SUM_TOLERANCE || c.v <= 0 || b.v < 0) continue;
            const slots = new Set([slotOf(a.c), slotOf(b.c), slotOf(c.c)]);
            if (slots.size < 3) continue;
            const kept = [a, b, c].filter((o) => o.kept).length;
            // Two of the three chosen values must stand: one chosen amount plus two re-picked ones add up by chance too often.
            if (kept < 2) continue;
            const score = kept * 10 + a.c.confidence + b.c.confidence + c.c.confidence;
            if (!best || score > best.score) best = { n: a, x: b, t: c, score };
          }
      if (best) {
        for (const [f, o] of [
          [net, best.n],
          [tax, best.x],
          [total, best.t],
        ] as const)
          if (!o.kept) place(result, meta, f, o.c, o.c.confidence * REPICK_CONFIDENCE);
        return;
      }
    }
    // No label candidate completes the sum, and the chosen total is missing or less than net + tax (a total line whose
    // label the vocabulary does not know as a total, "Amount due", left the net amount or nothing): the amount net +
    // tax printed on the document is the total.
    if (n !== undefined && x !== undefined && x > 0 && (t === undefined || t < n + x - SUM_TOLERANCE)) {
      const hit = printed(total, Math.round((n + x) * 100) / 100);
      if (hit) {
        place(result, meta, total, hit, hit.confidence);
        return;
      }
    }
  }
  // Σ line items = net (or the total when the schema asks for no net amount and no tax was printed).
  const sum = lineItemsSum(fields, result);
  const target = net ?? (tax && current(tax) ? undefined : total);
  if (sum === undefined || !target) return;
  const cur = current(target);
  if (cur !== undefined && Math.abs(cur - sum) <= SUM_TOLERANCE) return;
  const hit = pool(target).find((c) => Math.abs(amountOf(c.value)! - sum) <= SUM_TOLERANCE);
  if (hit && cur !== undefined) place(result, meta, target, hit, hit.confidence * REPICK_CONFIDENCE);
}

/** The issue date field (a date naming the invoice or just "Date") and the due date field of a schema. */
function dateFields(fields: FieldDef[]): { issue?: FieldDef; due?: FieldDef } {
  const dates = fields.filter((f) => f.data_type === 'date');
  const due = dates.find((f) => conceptsOfField(f).has('due'));
  const issue = dates.find((f) => {
    const c = conceptsOfField(f);
    return (
      f !== due &&
      !c.has('due') &&
      !c.has('delivery') &&
      !c.has('order') &&
      !c.has('payment') &&
      (c.has('invoice') || [...c].every((x) => x === 'date' || weightOf(x) < 1))
    );
  });
  return { issue, due };
}

/** A due date is never before the issue date: a due date earlier than it is replaced by a later alternative, else dropped. */
function dueNotBeforeIssue(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  used: Set<string>,
): void {
  const { issue, due } = dateFields(fields);
  if (!issue || !due) return;
  const i = result[issue.key];
  const d = result[due.key];
  if (typeof i !== 'string' || typeof d !== 'string' || d >= i) return;
  const alt = (alternatives.get(due.key) ?? []).find((c) => typeof c.value === 'string' && c.value >= i && !used.has(slotOf(c)));
  if (alt) {
    place(result, meta, due, alt, alt.confidence * REPICK_CONFIDENCE);
    return;
  }
  delete result[due.key];
  delete meta[due.key];
}

/** Party names compared without case, punctuation or spacing. */
const normName = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Shortest name (normalised) that counts as a party when one name ends with the other. */
const MIN_PARTY_CHARS = 4;

/** Two names of one party: equal, or one is the other with a label printed before it ("Customer: Acme GmbH"). */
function sameParty(a: string, b: string): boolean {
  const [x, y] = [normName(a), normName(b)];
  if (!x || !y) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short === long || (short.length >= MIN_PARTY_CHARS && long.endsWith(short));
}

/**
 * Seller and buyer are different parties: when both resolve to the same name, the one with the weaker evidence
 * (lower confidence) is re-picked from its other label candidates or from `repick` (e.g. the issuer found elsewhere
 * on the page), else dropped.
 */
function sellerNotBuyer(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  repick: (f: FieldDef, not: string) => Located | undefined,
): void {
  const strings = fields.filter((f) => f.data_type === 'string');
  const seller = strings.find((f) => conceptsOfField(f).has('seller') && !conceptsOfField(f).has('address'));
  const buyer = strings.find((f) => conceptsOfField(f).has('buyer') && !conceptsOfField(f).has('address'));
  if (!seller || !buyer) return;
  const [s, b] = [result[seller.key], result[buyer.key]];
  if (typeof s !== 'string' || typeof b !== 'string' || !sameParty(s, b)) return;
  const weaker = (meta[seller.key]?.confidence ?? 0) < (meta[buyer.key]?.confidence ?? 0) ? seller : buyer;
  const other = normName(weaker === seller ? b : s);
  const alt =
    (alternatives.get(weaker.key) ?? []).find(
      (c) => typeof c.value === 'string' && !sameParty(c.value, other) && acceptableString(weaker, c.value),
    ) ?? repick(weaker, other);
  if (alt && typeof alt.value === 'string' && !sameParty(alt.value, other)) {
    place(result, meta, weaker, alt, alt.confidence * REPICK_CONFIDENCE);
    return;
  }
  delete result[weaker.key];
  delete meta[weaker.key];
}

/** A party's own details stand under its name within this many of its line heights. */
const PARTY_BLOCK_LINES = 10;
/** A detail line of a block starts under the name, or at most this many line heights left of it. */
const PARTY_ALIGN_LINES = 1;

/** The schema's seller name, buyer name and seller tax id fields, when it asks for all three. */
function partyFields(fields: FieldDef[]): { seller: FieldDef; buyer: FieldDef; taxId: FieldDef } | undefined {
  const strings = fields.filter((f) => f.data_type === 'string');
  const has = (f: FieldDef, c: string) => conceptsOfField(f).has(c);
  const named = (role: string) => strings.find((f) => has(f, role) && !has(f, 'address') && !has(f, 'id') && !has(f, 'number'));
  const [seller, buyer] = [named('seller'), named('buyer')];
  const taxId = strings.find((f) => has(f, 'tax') && (has(f, 'id') || has(f, 'number')) && !has(f, 'buyer'));
  return seller && buyer && taxId ? { seller, buyer, taxId } : undefined;
}

/**
 * The seller's tax id stands in the seller's block: when neither party was read by a label and the tax id printed
 * under the name taken as the buyer's (the nearest name above it, in its column), the two names were read the wrong
 * way round ("client block first, then ours" letterheads) and change places.
 */
function sellerHoldsTaxId(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
): void {
  const parties = partyFields(fields);
  if (!parties) return;
  const { seller, buyer, taxId } = parties;
  const [ms, mb, mt] = [meta[seller.key], meta[buyer.key], meta[taxId.key]];
  if (!ms?.bbox || !mb?.bbox || !mt?.bbox || ms.page !== mt.page || mb.page !== mt.page) return;
  const labelled = (f: FieldDef) => (alternatives.get(f.key) ?? []).some((c) => c.value === result[f.key]);
  if (labelled(seller) || labelled(buyer)) return;
  const [gs, gb] = [gapUnder(ms.bbox, mt.bbox), gapUnder(mb.bbox, mt.bbox)];
  if (gb === undefined || (gs !== undefined && gs <= gb)) return;
  [result[seller.key], result[buyer.key]] = [result[buyer.key], result[seller.key]];
  [meta[seller.key], meta[buyer.key]] = [mb, ms];
}

/** How far under a party's name (`name`) a detail (`box`) stands, when it stands in that name's block. */
function gapUnder(name: [number, number, number, number], box: [number, number, number, number]): number | undefined {
  const lh = Math.max(1, name[3] - name[1]);
  const gap = box[1] - name[3];
  const inColumn = box[0] >= name[0] - lh * PARTY_ALIGN_LINES && box[0] <= name[2];
  return gap >= 0 && gap <= lh * PARTY_BLOCK_LINES && inColumn ? gap : undefined;
}

/** The block a detail stands in: the nearest party name above it in its column. */
function ownerOf(box: [number, number, number, number], names: [number, number, number, number][]): number | undefined {
  let best: { i: number; gap: number } | undefined;
  names.forEach((n, i) => {
    const gap = gapUnder(n, box);
    if (gap !== undefined && (!best || gap < best.gap)) best = { i, gap };
  });
  return best?.i;
}

/**
 * Both parties print a tax id: the seller's is the one in the seller's block. A chosen tax id that stands in the
 * buyer's block gives way to the label candidate standing in the seller's.
 */
function taxIdOfSeller(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
): void {
  const parties = partyFields(fields);
  if (!parties) return;
  const { seller, buyer, taxId } = parties;
  const [ms, mb, mt] = [meta[seller.key], meta[buyer.key], meta[taxId.key]];
  if (!ms?.bbox || !mb?.bbox || !mt?.bbox || ms.page !== mb.page || mt.page !== ms.page) return;
  const names = [ms.bbox, mb.bbox];
  if (ownerOf(mt.bbox, names) !== 1) return;
  const own = (alternatives.get(taxId.key) ?? []).find((c) => c.page === ms.page && ownerOf(c.bbox, names) === 0);
  if (own) place(result, meta, taxId, own, own.confidence * REPICK_CONFIDENCE);
}

/**
 * The cross-field constraints, applied to the chosen values once every field (tables included) is located.
 * `alternatives` holds each field's label candidates best first; `used` the slots other fields claimed.
 */
export function enforceConstraints(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  used: Set<string>,
  page: PageLookups,
): void {
  reconcileTotals(fields, alternatives, result, meta, page.amount);
  dueNotBeforeIssue(fields, alternatives, result, meta, used);
  sellerNotBuyer(fields, alternatives, result, meta, page.party);
  sellerHoldsTaxId(fields, alternatives, result, meta);
  taxIdOfSeller(fields, alternatives, result, meta);
}

/** What the constraints may look up on the document itself when no label candidate satisfies them. */
export interface PageLookups {
  /** Another party's name for field `f` than `not` (normalised), from the page's layout. */
  party: (f: FieldDef, not: string) => Located | undefined;
  /** The amount `value` as printed on the document (its last printing), typed for field `f`. */
  amount: (f: FieldDef, value: number) => Located | undefined;
}
