import type { DocLayout, Line } from '../layout/layout.types.js';
import { vocabularyOf } from '../document.context.js';
import type { Vocabulary } from '../locales/locale.vocabulary.js';
import { BLOCK_GAP, cellText, legalName, nameLike, partyName } from './semantic.parties.js';

// The issuer named away from the letterhead: in the legal footer, or as the holder of the account to pay into.

// Registration details printed in an invoice's legal footer (share capital, trade register, company numbers): the
// packs' `registrationMarks`.

/** The legal footer is printed below this fraction of the page height. */
const FOOTER_ZONE = 0.6;
/** Lines of the footer block follow with a gap under this many line heights (more is a paragraph gap). */
const FOOTER_PARAGRAPH_GAP = 2.5;
/** The footer block reaches at most this many lines above and below the registration line. */
const FOOTER_REACH = 3;
/** A name printed as the footer's first cell has at most this many words. */
const FOOTER_HEAD_WORDS = 4;
/**
 * The issuer named in the legal footer: the registration lines (share capital, trade register, company
 * numbers) at the bottom of a page either carry the company's legal name themselves or sit right under a line
 * with just the name ("NETPRESSE" / "Siège social : … / Sarl au capital de … – RCS …").
 */
export function footerIssuer(doc: DocLayout, v: Vocabulary = vocabularyOf(doc)): { line: Line; name: string } | undefined {
  for (const page of doc.pages) {
    const k = page.lines.findIndex((l) => l.y0 > page.height * FOOTER_ZONE && v.party.registration.test(l.text));
    if (k < 0) continue;
    const first = page.lines[k]!;
    const h = first.y1 - first.y0;
    // The footer block: the registration line and its neighbours printed without a paragraph gap.
    let from = k;
    while (
      from > 0 &&
      first.y0 - page.lines[from - 1]!.y1 < h * FOOTER_PARAGRAPH_GAP &&
      k - from < FOOTER_REACH &&
      !nameLike(page.lines[from - 1]!.text, v)
    )
      from--;
    let to = k;
    while (to + 1 < page.lines.length && page.lines[to + 1]!.y0 - page.lines[to]!.y1 < h * BLOCK_GAP && to - k < FOOTER_REACH) to++;
    const block = page.lines.slice(from, to + 1);
    for (const l of block) {
      // (The bank named in the same footer is not the issuer: "Bankverbindung: Deutsche Bank AG".)
      for (const cell of cellText(l).split(/\s‖\s|\s[-–—|·•●]\s/)) {
        const name = legalName(cell, v);
        if (name && !v.party.registration.test(name) && !v.party.bank.test(cell)) return { line: l, name };
      }
    }
    const above = page.lines[from - 1];
    if (above && page.lines[from]!.y0 - above.y1 < h * FOOTER_PARAGRAPH_GAP && nameLike(above.text, v))
      return { line: above, name: above.text.trim() };
    // "ACME – Siège social : …": the name as the first cell of the registration line.
    const head = block[0]!.text.split(/\s[-–—|·•●]\s|\s{2,}/)[0]!.trim();
    if (head !== block[0]!.text.trim() && nameLike(head, v) && head.split(/\s+/).length <= FOOTER_HEAD_WORDS)
      return { line: block[0]!, name: head };
  }
  return undefined;
}

// "Account holder: ACME", "Kontoinhaber: ACME", "ten name van ACME": the packs' `payeeLabels`.

/** The holder of the bank account the invoice is to be paid into is the party that issued it. */
export function payeeIssuer(doc: DocLayout, v: Vocabulary = vocabularyOf(doc)): { line: Line; name: string } | undefined {
  for (const l of doc.pages.flatMap((p) => p.lines)) {
    const m = v.party.payee.exec(cellText(l));
    if (!m) continue;
    const name = m[1]!.split(/\s‖\s|\s[-–—|·•●]\s|,\s|\s(?:IBAN|BIC|SWIFT|Bank|Konto|Compte)\b/i)[0]!.trim();
    if (legalName(name, v) || nameLike(name, v)) return { line: l, name: partyName(name, v) };
  }
  return undefined;
}
