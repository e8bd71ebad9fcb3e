/** Whether a value read for a field is plausible for it, and the part of a cell text that is its identifier. */
import { isoCodesIn } from '../parsers/currency.parser.js';
import type { FieldDef } from '../engine.types.js';
import { cleanString } from '../parsers/value.parser.js';
import { conceptTokens } from './label.matcher.js';
import { findIban, findVatIds } from '../parsers/identifier.parser.js';
import { findDates } from '../parsers/date.parser.js';
import { partyName, withoutLegalDot } from './semantic.fallback.js';
import { acceptableString } from './constraints.js';

/** A tax id without an EU VAT shape ("GST Reg No: 001234567890", "Steuernummer 12/345/67890") is a few tokens at most. */
const MAX_BARE_TAX_ID_WORDS = 4;

/** Identifier fields keep only the identifier out of the cell text ("IBAN: DE31 …  BIC …" → the IBAN). */
export function refine(field: FieldDef, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const concepts = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  // (An IBAN is returned in its electronic format, without the print format's spaces.)
  if (concepts.includes('iban')) return findIban(value)?.replace(/ /g, '') ?? value;
  // (A tax id first: "Seller VAT ID" names a party too, but asks for the identifier.)
  if (concepts.includes('tax') && (concepts.includes('id') || concepts.includes('number')))
    return findVatIds(value.toUpperCase())[0]?.value ?? value;
  // (A currency is its ISO code where the cell prints one: "Euro (EUR)" → "EUR".)
  if (concepts.includes('currency')) return isoCodeIn(value) ?? value;
  // A party's name ends where another party is introduced ("Shop B.V. iov Brand.com", "… c/o …").
  if (concepts.some((c) => c === 'seller' || c === 'buyer' || c === 'company')) return partyName(value);
  // Document numbers are codes: "RE-2019/507 issued at 2019-06-10" ends before the first plain word.
  if (concepts.some((c) => c === 'number' || c === 'id' || c === 'code')) {
    const toks = value.split(/\s+/);
    const end = toks.findIndex((t, i) => i > 0 && /^\p{L}{2,}$/u.test(t) && /\p{Ll}/u.test(t));
    if (end > 0) return cleanString(toks.slice(0, end).join(' '));
  }
  return value;
}

/** Identifier-like fields (numbers, ids, codes, IBAN) must contain a digit; any string a letter or digit. */
export function plausible(field: FieldDef, value: unknown): boolean {
  if (typeof value !== 'string') return true;
  if (!/[\p{L}\d]/u.test(value)) return false;
  // A printed label is never a value ("Customer number", "Invoice date:"); a legal form alone names no party.
  if (!acceptableString(field, value)) return false;
  const concepts = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  if (concepts.includes('iban')) return findIban(value) !== undefined;
  // (Without an EU VAT shape, a short cell of digits — never a line of prose or a bank account: "Paiement par
  // virement : IBAN FR13 …" under "TVA non applicable" is no VAT id.)
  if (concepts.includes('tax') && (concepts.includes('id') || concepts.includes('number')))
    return (
      findVatIds(value.toUpperCase()).length > 0 ||
      (/\d{6,}/.test(value.replace(/[\s.\-]/g, '')) && !findIban(value) && value.trim().split(/\s+/).length <= MAX_BARE_TAX_ID_WORDS)
    );
  if (concepts.some((c) => c === 'number' || c === 'id' || c === 'code')) {
    // An identifier is not a date ("du 14 Juillet 2019" after "Facture n° …").
    const d = findDates(value)[0];
    if (d && d.length >= value.replace(/^\p{L}{1,3}\s+/u, '').length - 2) return false;
    return /\d/.test(value);
  }
  // Names are words, not codes or amounts.
  if (isNameField(field)) {
    // … and do not open with a registration number ("Company 198718 …" on a receipt is its company number).
    if (/^\W*\d{5,}\b/.test(value)) return false;
    const letters = (value.match(/\p{L}/gu) ?? []).length;
    // A run of lower-case words is prose ("was sent to the address on file …"), not a name.
    if (!/\p{Lu}/u.test(value) && value.trim().split(/\s+/).length >= 3) return false;
    // A party (seller, buyer, company) is named in a few words, not a sentence ("Les montants … à payer.").
    if (concepts.some((c) => c === 'seller' || c === 'buyer' || c === 'company')) {
      const words = value.trim().split(/\s+/);
      if (
        words.length > 8 ||
        (words.length >= 5 && /\p{Ll}{2}[.!?]$/u.test(withoutLegalDot(value.trim()))) ||
        !/\p{Lu}|\d/u.test(value) ||
        /^\p{L}[\p{L} ]*:/u.test(value)
      )
        return false;
    }
    return letters >= 2 && letters >= (value.match(/\d/g) ?? []).length;
  }
  return true;
}

export function isNameField(field: FieldDef): boolean {
  const c = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  return c.some((x) => ['name', 'seller', 'buyer', 'company'].includes(x));
}

/** Free text (comments, descriptions, addresses) may wrap; names, identifiers, codes and amounts do not. */
export function isFreeText(field: FieldDef): boolean {
  const c = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  return !c.some((x) =>
    ['name', 'seller', 'buyer', 'company', 'number', 'id', 'iban', 'code', 'currency', 'tax', 'phone', 'date'].includes(x),
  );
}

/** The ISO 4217 code a currency cell prints ("EURO (EUR)", "Devise : CHF"), when it prints exactly one. */
function isoCodeIn(value: string): string | undefined {
  const codes = new Set(isoCodesIn(value));
  return codes.size === 1 ? [...codes][0] : undefined;
}
