/** IBAN with a valid ISO 13616 mod-97 check: the only reliable way to tell it from other long codes. */
export function findIban(text: string): string | undefined {
  // (Candidates may overlap: a code glued before it, "MP05 BONIFICO IT60 X054 …", must not swallow the IBAN.)
  // (Some print a space between the country and the check digits: "BE 53 1234 5678 9012".)
  for (const m of text.toUpperCase().matchAll(/\b(?=([A-Z]{2}[ ]?\d{2}(?:[ ]?[A-Z0-9]{4}){2,7}(?:[ ]?[A-Z0-9]{1,3})?)\b)/g)) {
    // The pattern also takes a short word printed after the IBAN ("… 7034 met vermelding", "… 3201 BIC"): when
    // the whole run fails the check, the run without its trailing groups is tried.
    let groups = m[1]!.trim().split(' ');
    while (groups.length >= 1) {
      const text = groups.join(' ');
      const compact = text.replace(/ /g, '');
      if (compact.length < 15) break;
      if (compact.length <= 34 && ibanValid(compact)) return text;
      if (groups.length === 1) break;
      groups = groups.slice(0, -1);
    }
  }
  return undefined;
}

export function ibanValid(iban: string): boolean {
  const s = iban.slice(4) + iban.slice(0, 4);
  let rem = 0;
  for (const ch of s) {
    const v = /\d/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem === 1;
}

const VAT_PREFIX = 'ATU|BE|BG|CHE|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|NO|PL|PT|RO|SE|SI|SK|XI';

/** The suffix of a Swiss VAT number in German, French and Italian ("CHE-123.456.789 MWST / TVA / IVA"). */
const SWISS_VAT_SUFFIX = /^(CHE.*)[ .-](?:MWST|TVA|IVA)$/;

/** EU-style VAT identifiers: country prefix then 8–12 characters, mostly digits (spaces/dots allowed when printed so). */
export function findVatIds(text: string): { value: string; index: number }[] {
  const out: { value: string; index: number }[] = [];
  // Not ending inside a word: "DIČ: CZ27123456 DIČ: …" must not give "CZ27123456 DI" (\b sees "Č" as a non-word).
  const re = new RegExp(`\\b(?:${VAT_PREFIX})[ .-]?(?:[0-9A-Z]{2,4}[ .-]?){2,5}[0-9A-Z]{0,4}(?![\\p{L}\\p{N}])`, 'gu');
  for (const m of text.matchAll(re)) {
    const v = m[0].trim();
    // (The Swiss number keeps its tax suffix, "CHE-123.456.789 MWST", which does not count towards its length.)
    const compact = v.replace(SWISS_VAT_SUFFIX, '$1').replace(/[ .-]/g, '');
    const digits = (compact.match(/\d/g) ?? []).length;
    if (compact.length < 10 || compact.length > 15 || digits < 7) continue;
    if (ibanValid(compact) && compact.length >= 15) continue;
    out.push({ value: v, index: m.index! });
  }
  return out;
}
