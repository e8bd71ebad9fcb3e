import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { findDates } from '../parsers/date.parser.js';
import { findNumbers, type DocContext } from '../parsers/value.parser.js';
import { findIban, findVatIds } from '../parsers/identifier.parser.js';
import { conceptTokens, weightOf } from './label.matcher.js';
import { CELL_GAP, segments } from '../layout/layout.builder.js';
import type { Located } from './field.locator.js';
import { vocabularyOf } from '../document.context.js';
import { findAddressBlock } from './address.block.js';
import { addresseeBlock, RETURN_NAME_INDENT, RETURN_NAME_LINES } from './semantic.addressee.js';
import { isGrandTotalField, paidFromChange } from './semantic.amounts.js';
import { COMPACT_DATE_CONFIDENCE, compactDate, DUE_WORD_REACH, isPricedRow, SPECIFIC_CONCEPT_WEIGHT } from './semantic.dates.js';
import { findIssuer, withoutNoiseEdges } from './semantic.issuer.js';
import {
  partyName,
  RETURN_ADDRESS_PARTS,
  RETURN_ADDRESS_SEPARATOR,
  RETURN_ADDRESS_ZONE,
  stripRegistration,
  WINDOW_GAP,
} from './semantic.parties.js';

export { addresseeBlock } from './semantic.addressee.js';
export { paidFromChange, paidTotal, withRounding } from './semantic.amounts.js';
export { isPricedRow } from './semantic.dates.js';
export { footerIssuer, payeeIssuer } from './semantic.footer.js';
export { findIssuer, withoutBranch } from './semantic.issuer.js';
export { partyName, stripRegistration, withoutLegalDot } from './semantic.parties.js';

/**
 * Fallbacks when no label is printed, chosen by what the field means (its key, label and description
 * reduced to concepts) and its data type — never by document or vendor. Confidence stays low so that
 * such values push the document towards review.
 */
export function locateBySemantics(doc: DocLayout, f: FieldDef, ctx: DocContext, used: Set<string>): Located | undefined {
  const concepts = new Set(conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`));
  const desc = (f.description ?? '').toLowerCase();
  const lines = doc.pages.flatMap((p) => p.lines);
  if (!lines.length) return undefined;
  const v = vocabularyOf(doc);
  const at = (l: Line, ws: Word[], value: unknown, confidence: number): Located => ({
    value,
    confidence,
    page: l.page,
    bbox: [
      Math.min(...ws.map((w) => w.x0)),
      Math.min(...ws.map((w) => w.y0)),
      Math.max(...ws.map((w) => w.x1)),
      Math.max(...ws.map((w) => w.y1)),
    ],
    slot: '',
  });

  // IBAN: its check-digit format is unambiguous wherever it is printed.
  if (concepts.has('iban')) {
    for (const l of lines) {
      const v = findIban(l.text);
      if (v) return at(l, l.words, v.replace(/ /g, ''), 0.6);
    }
    return undefined;
  }
  // VAT id: the first EU-format VAT number not printed next to a buyer word (the seller's is in the header/footer).
  if (concepts.has('tax') && (concepts.has('id') || concepts.has('number')) && f.data_type === 'string') {
    const wantBuyer = concepts.has('buyer');
    const scored: { l: Line; v: string; s: number }[] = [];
    lines.forEach((l, i) => {
      for (const v of findVatIds(l.text)) {
        const ctxText = conceptTokens(l.text.slice(0, v.index) + ' ' + (lines[i - 1]?.text ?? ''));
        const buyerish = ctxText.includes('buyer');
        const taxish = ctxText.includes('tax');
        if (buyerish !== wantBuyer && buyerish) continue;
        scored.push({
          l,
          v: v.value,
          s: (taxish ? VAT_TAX_WORD : 0) + (buyerish === wantBuyer ? VAT_ROLE_MATCH : 0) - i / VAT_ORDER_DIVISOR,
        });
      }
    });
    scored.sort((a, b) => b.s - a.s);
    if (scored[0]) return at(scored[0].l, scored[0].l.words, scored[0].v, 0.5);
    return undefined;
  }
  // Document number printed as a title ("Invoice 2024-17", "Avoir AV-2030-0012", "Rechnung Nr. 123").
  if (f.data_type === 'string' && concepts.has('number') && concepts.has('invoice')) {
    for (const l of lines.slice(0, TITLE_SCAN_LINES)) {
      const m = v.party.titleNumber.exec(l.text);
      if (m) return at(l, l.words, m[1]!, 0.5);
    }
  }
  // A currency code field: the document's dominant currency.
  if (concepts.has('currency') && f.data_type === 'string' && ctx.currency) {
    return at(lines[0]!, lines[0]!.words.slice(0, 1), ctx.currency, 0.6);
  }
  // Generic date ("Date", "Invoice date"): the first date printed, unless the label names a specific
  // kind of date (due, delivery, birth …) that a first-date guess would get wrong.
  if (f.data_type === 'date') {
    const specific = [...concepts].some((c) => weightOf(c) >= SPECIFIC_CONCEPT_WEIGHT);
    if (!specific) {
      for (const l of lines) {
        const d = findDates(l.text, ctx.dateOrder)[0];
        // (Not a date its own label names a due date, "Payment target: 02/01/2031", nor an item's date on its priced
        // row, "02/12/2031 Site visit £1,916.37".)
        if (d && !conceptTokens(l.text.slice(0, d.index)).includes('due') && !isPricedRow(l.text, d)) return at(l, l.words, d.iso, 0.5);
      }
      // (Only when no date is printed otherwise: eight digits that make a recent date, "30032024", as some tills print.)
      for (const l of lines) {
        const d = compactDate(l.text, ctx.dateOrder);
        if (d) return at(l, l.words, d, COMPACT_DATE_CONFIDENCE);
      }
    }
  }
  // Due date printed inside the payment sentence: "Bitte überweisen Sie den Betrag bis zum 15.03.2024", "Please pay
  // by 3 May 2024", "à régler avant le 30/04/2024", "te betalen vóór 12-05-2024".
  if (f.data_type === 'date' && concepts.has('due')) {
    for (const l of lines) {
      if (!v.party.payWord.test(l.text)) continue;
      for (const d of findDates(l.text, ctx.dateOrder)) {
        if (v.party.dueBefore.test(l.text.slice(Math.max(0, d.index - DUE_WORD_REACH), d.index))) return at(l, l.words, d.iso, 0.4);
      }
    }
  }
  // Issuer name: among the first text lines of page 1, a name with a legal form (GmbH, Inc., SARL, Sdn Bhd …),
  // joined with the line above when the name wraps; else such a name anywhere outside the addressee block;
  // else the first text line.
  if (
    f.data_type === 'string' &&
    !concepts.has('address') &&
    (concepts.has('seller') || concepts.has('company') || conceptTokens(desc).includes('seller'))
  ) {
    const issuer = findIssuer(doc);
    if (issuer)
      return at(issuer.line, issuer.line.words, partyName(stripRegistration(withoutNoiseEdges(issuer.line, issuer.name), v), v), 0.45);
  }
  // Addressee without a label: the first line under the sender's one-line return address printed above a
  // window-envelope address block ("Firm ● Street 1 ● 12345 Town").
  if (f.data_type === 'string' && concepts.has('buyer') && !concepts.has('address')) {
    const page = doc.pages[0]!;
    for (const [k, l] of page.lines.entries()) {
      if (l.y0 > page.height * RETURN_ADDRESS_ZONE) break;
      const first = segments(l, CELL_GAP)[0];
      if (
        !first ||
        first.text.split(RETURN_ADDRESS_SEPARATOR).length < RETURN_ADDRESS_PARTS ||
        !(/\b\d{4,5}\b/.test(first.text) || v.postcode.test(first.text))
      )
        continue;
      const h = l.y1 - l.y0;
      let next = page.lines
        .slice(k + 1, k + 1 + RETURN_NAME_LINES)
        .find((b) => Math.abs(b.x0 - first.x0) < h * RETURN_NAME_INDENT && b.y0 - l.y1 < h * WINDOW_GAP);
      // (A salutation alone, "Frau" / "Herrn", opens the block: the name is on the line under it.)
      const lead = next && segments(next, CELL_GAP)[0]?.text.trim();
      if (next && lead && v.party.salutation.test(lead) && !/\s/.test(lead))
        next = page.lines
          .slice(page.lines.indexOf(next) + 1)
          .find((b) => Math.abs(b.x0 - first.x0) < h * RETURN_NAME_INDENT && b.y0 - next!.y1 < h * WINDOW_GAP);
      const name = next && segments(next, CELL_GAP)[0]?.text.trim();
      if (next && name && /\p{L}{2}/u.test(name) && !/\d/.test(name)) return at(next, segments(next, CELL_GAP)[0]!.words, name, 0.4);
      break;
    }
    // Else the postal block of someone other than the issuer in the page's upper part: the addressee's window block.
    const block = addresseeBlock(doc);
    if (block) return at(block.line, block.words, partyName(block.name, v), 0.35);
  }
  // Postal address of the issuer: the best-scoring address block of the page's upper part (address.block.ts).
  if (f.data_type === 'string' && concepts.has('address')) {
    const block = findAddressBlock(doc, v, findIssuer(doc)?.line);
    if (block) return at(block.lines[0]!, block.words, block.text, 0.4);
  }
  // Grand total without a readable label: the largest amount on the document.
  if (isGrandTotalField(f)) {
    // Cash tendered less the change given is the amount paid: the line printing that amount is the total.
    const paid = paidFromChange(lines, v);
    if (paid) return at(paid.l, paid.l.words, f.data_type === 'currency' ? { value: paid.v, currency: ctx.currency ?? null } : paid.v, 0.4);
    // Amounts on a summary line (total, due, amount, payment …) first: a table quantity may be larger.
    const summary = lines.filter((l) =>
      conceptTokens(l.text).some((c) => c === 'total' || c === 'due' || c === 'amount' || c === 'payment'),
    );
    let best: { l: Line; v: number } | undefined;
    for (const pool of [summary, lines]) {
      for (const l of pool)
        for (const n of findNumbers(l.text, ctx))
          if (n.quality === 1 && (!best || Math.abs(n.value as number) > Math.abs(best.v))) best = { l, v: n.value as number };
      if (best) break;
    }
    if (best) return at(best.l, best.l.words, f.data_type === 'currency' ? { value: best.v, currency: ctx.currency ?? null } : best.v, 0.4);
  }
  void used;
  return undefined;
}

/** A VAT id with a tax word before it (or on the line above) scores this much. */
const VAT_TAX_WORD = 2;
/** A VAT id whose buyer/seller side matches the field's scores this much. */
const VAT_ROLE_MATCH = 1;
/** Among equal scores the VAT id printed first wins: its line index divided by this is subtracted. */
const VAT_ORDER_DIVISOR = 1000;
/** A document number printed as a title is looked for in this many first lines. */
const TITLE_SCAN_LINES = 60;
