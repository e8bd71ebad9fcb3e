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
export const SUM_TOLERANCE = 0.011;
/** Label candidates per summary field considered when looking for a consistent net/tax/total triple. */
export const MAX_ALTERNATIVES = 6;
/** A re-picked alternative keeps at least this share of its label-anchored confidence. */
export const REPICK_CONFIDENCE = 0.9;

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
  if (isTaxIdField(field) && !taxIdShaped(value)) return false;
  if (isPartyField(field)) {
    if (letters && isLabelText(letters)) return false;
    if (isLegalFormOnly(value)) return false;
    // (A label and its colon opening the value, "Reg. No. : 1234-X", is a detail printed after the name's label.)
    if (LABEL_OPENING.test(value)) return false;
    // (Nor the heading word of a party's block alone: "From", "Von", "To", "An".)
    if (isPartyHeading(value)) return false;
    // (Nor a date: "Due Date October 17, 2022" printed beside the "To:" label is the next cell, not a party.)
    if (findDates(value).length) return false;
    // (Nor a party's contact: an e-mail or web address, a phone number, an IBAN.)
    if (isContactValue(value)) return false;
  }
  return true;
}

/**
 * Digits a tax identifier has at least (EU VAT numbers 8–12 after the country code, Ireland's 7 and a letter; US EINs 9,
 * GST numbers more): fewer digits are an amount or a rate read beside a "VAT" label.
 */
const MIN_TAX_ID_DIGITS = 7;

/**
 * A value a tax identifier can be: enough digits, and no word of running text — identifiers are capitals and figures
 * ("DE 123 456 789", "ATU12345678", "CHE-123.456.789 MWST"), so "Invoice 2025-7396" read after the "Tax" of a "Tax
 * Invoice" title is none.
 */
function taxIdShaped(value: string): boolean {
  return value.replace(/\D/g, '').length >= MIN_TAX_ID_DIGITS && !/\p{Lu}?\p{Ll}{3,}/u.test(value);
}

/** A field asking for a tax identifier ("Seller VAT ID", "Tax number"), not a tax amount. */
export function isTaxIdField(field: FieldDef): boolean {
  const c = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  return field.data_type === 'string' && c.includes('tax') && (c.includes('id') || c.includes('number'));
}

/** Digits a phone number has at least. */
const PHONE_MIN_DIGITS = 7;
/** An e-mail address, a web address, an IBAN or a phone number (digits and separators, few letters): a contact, no name. */
export function isContactValue(value: string): boolean {
  const t = value.trim();
  if (/\S@\S+\.\p{L}{2,}/u.test(t) || /^(?:https?:\/\/|www\.)\S+$/i.test(t) || findIban(t)) return true;
  const digits = t.replace(/\D/g, '').length;
  return digits >= PHONE_MIN_DIGITS && /^[+(]?[\d\s()./-]+$/.test(t.replace(/^\p{L}{1,4}\.?:?\s*/u, ''));
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
// The checks are in constraints.fields.ts (entry: enforceConstraints), constraints.totals.ts and constraints.parties.ts;
// what they share is here.

export function conceptsOfField(f: FieldDef): Set<string> {
  return new Set(conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`));
}

export function amountOf(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (v && typeof v === 'object' && typeof (v as { value?: unknown }).value === 'number') return (v as { value: number }).value;
  return undefined;
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export function place(
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  f: FieldDef,
  c: Located,
  confidence = c.confidence,
): void {
  result[f.key] = c.value;
  meta[f.key] = { confidence: round3(confidence), page: c.page, bbox: c.bbox.map(round3) as FieldMeta['bbox'], errors: [] };
}

export const slotOf = (c: Located) => `${c.page}:${Math.round(c.bbox[0])}:${Math.round(c.bbox[1])}`;
