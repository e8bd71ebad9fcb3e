import type { FieldDef } from '../engine.types.js';
import { segments } from '../layout/layout.builder.js';
import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { findDates } from '../parsers/date.parser.js';
import type { DocContext } from '../parsers/value.parser.js';
import { findIban, findVatIds } from '../parsers/identifier.parser.js';
import { conceptTokens, fold, weightOf } from './label.matcher.js';
import type { Located } from './field.locator.js';
import { vocabularyOf } from '../document.context.js';
import type { Vocabulary } from '../locales/locale.vocabulary.js';
import { findAddressBlock } from './address.block.js';
import { addresseeBlock, returnAddressee } from './semantic.addressee.js';
import { isGrandTotalField, largestAmount, paidFromChange } from './semantic.amounts.js';
import { COMPACT_DATE_CONFIDENCE, compactDate, DUE_WORD_REACH, isPricedRow, SPECIFIC_CONCEPT_WEIGHT } from './semantic.dates.js';
import { findIssuer, withoutNoiseEdges } from './semantic.issuer.js';
import { partyName, stripRegistration } from './semantic.parties.js';
import { isTaxIdField } from './constraints.js';

export { addresseeBlock } from './semantic.addressee.js';
export { paidFromChange, paidTotal, withRounding } from './semantic.amounts.js';
export { isPricedRow } from './semantic.dates.js';
export { footerIssuer, payeeIssuer } from './semantic.footer.js';
export { findIssuer } from './semantic.issuer.js';
export { withoutBranch } from './semantic.issuer.block.js';
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
  const q: SemanticQuery = { doc, f, ctx, concepts, desc, lines, v: vocabularyOf(doc) };
  void used;
  if (concepts.has('iban')) return ibanValue(q);
  if (isTaxIdField(q.f)) return vatIdValue(q);
  return (
    titleNumber(q) ??
    currencyCode(q) ??
    firstDate(q) ??
    dueDateInSentence(q) ??
    issuerName(q) ??
    addresseeName(q) ??
    issuerAddress(q) ??
    grandTotal(q)
  );
}

/** What a fallback reads: the field and its concepts, the document's lines and its vocabulary. */
interface SemanticQuery {
  doc: DocLayout;
  f: FieldDef;
  ctx: DocContext;
  concepts: Set<string>;
  /** The field's description, lower case. */
  desc: string;
  lines: Line[];
  v: Vocabulary;
}

/** A value found on line `l`, boxed around the words `ws`. */
function locatedAt(l: Line, ws: Word[], value: unknown, confidence: number): Located {
  return {
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
  };
}

/** IBAN: its check-digit format is unambiguous wherever it is printed. */
function ibanValue({ lines }: SemanticQuery): Located | undefined {
  for (const l of lines) {
    const v = findIban(l.text);
    if (v) return locatedAt(l, l.words, v.replace(/ /g, ''), 0.6);
  }
  return undefined;
}

/** VAT id: the first EU-format VAT number not printed next to a buyer word (the seller's is in the header/footer). */
function vatIdValue({ concepts, lines }: SemanticQuery): Located | undefined {
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
  if (scored[0]) return locatedAt(scored[0].l, scored[0].l.words, scored[0].v, 0.5);
  return undefined;
}

/** Document number printed as a title ("Invoice 2024-17", "Avoir AV-2030-0012", "Rechnung Nr. 123"). */
function titleNumber({ f, concepts, lines, v }: SemanticQuery): Located | undefined {
  if (f.data_type !== 'string' || !concepts.has('number') || !concepts.has('invoice')) return undefined;
  for (const l of lines.slice(0, TITLE_SCAN_LINES)) {
    // (The title may share its line with a letterhead printed apart: "Brand ‖ INVOICE CC1187".)
    for (const cell of [l, ...segments(l)]) {
      const m = v.party.titleNumber.exec(cell.text);
      if (m) return locatedAt(l, cell.words, m[1]!, 0.5);
    }
  }
  return undefined;
}

/** A currency code field: the document's dominant currency. */
function currencyCode({ f, concepts, ctx, lines }: SemanticQuery): Located | undefined {
  if (!concepts.has('currency') || f.data_type !== 'string' || !ctx.currency) return undefined;
  return locatedAt(lines[0]!, lines[0]!.words.slice(0, 1), ctx.currency, 0.6);
}

/**
 * Generic date ("Date", "Invoice date"): the first date printed, unless the label names a specific
 * kind of date (due, delivery, birth …) that a first-date guess would get wrong.
 */
function firstDate({ f, concepts, ctx, lines }: SemanticQuery): Located | undefined {
  if (f.data_type !== 'date') return undefined;
  const specific = [...concepts].some((c) => weightOf(c) >= SPECIFIC_CONCEPT_WEIGHT);
  if (specific) return undefined;
  for (const l of lines) {
    const d = findDates(l.text, ctx.dateOrder)[0];
    // (Not a date its own label names a due date, "Payment target: 19/03/2031", nor an item's date on its priced
    // row, "14/11/2031 Site visit £1,204.80".)
    if (d && !conceptTokens(l.text.slice(0, d.index)).includes('due') && !isPricedRow(l.text, d)) return locatedAt(l, l.words, d.iso, 0.5);
  }
  // (Only when no date is printed otherwise: eight digits that make a recent date, "30032024", as some tills print.)
  for (const l of lines) {
    const d = compactDate(l.text, ctx.dateOrder);
    if (d) return locatedAt(l, l.words, d, COMPACT_DATE_CONFIDENCE);
  }
  return undefined;
}

/**
 * Due date printed inside the payment sentence: "Bitte überweisen Sie den Betrag bis zum 15.03.2024", "Please pay
 * by 3 May 2024", "à régler avant le 30/04/2024", "te betalen vóór 12-05-2024".
 */
function dueDateInSentence({ f, concepts, ctx, lines, v }: SemanticQuery): Located | undefined {
  if (f.data_type !== 'date' || !concepts.has('due')) return undefined;
  for (const [i, l] of lines.entries()) {
    // (A payment word, or a due word after the date, "… bis zum 20.07.2031 fällig"; the sentence may run on to the
    // next line, "… vóór 7 juni 2031 over" / "te maken.")
    const sentence = sentenceAt(lines, i);
    if (!v.party.payWord.test(sentence) && !v.party.dueWord.test(fold(sentence))) continue;
    for (const d of findDates(l.text, ctx.dateOrder)) {
      // (A deadline word, "by", "entro il", or a due label set in the sentence, "…, scadenza 15/12/2024".)
      const before = l.text.slice(Math.max(0, d.index - DUE_WORD_REACH), d.index);
      if (v.party.dueBefore.test(before) || v.party.dueLabel.test(fold(before))) return locatedAt(l, l.words, d.iso, 0.4);
    }
  }
  return undefined;
}

/** A sentence running on to the next line starts it within this many line heights below. */
const SENTENCE_LEAD = 0.8;

/** The text of line i, with the next line's when the sentence runs on to it (no stop ends it, the next starts under it). */
function sentenceAt(lines: readonly Line[], i: number): string {
  const [l, next] = [lines[i]!, lines[i + 1]];
  const h = l.y1 - l.y0;
  if (!next || next.page !== l.page || /[.!?:]\s*$/.test(l.text)) return l.text;
  if (next.y0 - l.y1 > h * SENTENCE_LEAD || Math.abs(next.x0 - l.x0) > h) return l.text;
  return `${l.text} ${next.text}`;
}

/**
 * Issuer name: among the first text lines of page 1, a name with a legal form (GmbH, Inc., SARL, Sdn Bhd …),
 * joined with the line above when the name wraps; else such a name anywhere outside the addressee block;
 * else the first text line.
 */
function issuerName({ doc, f, concepts, desc, v }: SemanticQuery): Located | undefined {
  if (
    f.data_type !== 'string' ||
    concepts.has('address') ||
    !(concepts.has('seller') || concepts.has('company') || conceptTokens(desc).includes('seller'))
  )
    return undefined;
  const issuer = findIssuer(doc);
  if (!issuer) return undefined;
  return locatedAt(issuer.line, issuer.line.words, partyName(stripRegistration(withoutNoiseEdges(issuer.line, issuer.name), v), v), 0.45);
}

/** Addressee without a label: the name under a one-line return address, else the addressee's window block. */
function addresseeName({ doc, f, concepts, v }: SemanticQuery): Located | undefined {
  if (f.data_type !== 'string' || !concepts.has('buyer') || concepts.has('address')) return undefined;
  const under = returnAddressee(doc.pages[0]!, v);
  if (under) return locatedAt(under.line, under.words, under.name, 0.4);
  // Else the postal block of someone other than the issuer in the page's upper part: the addressee's window block.
  const block = addresseeBlock(doc);
  if (block) return locatedAt(block.line, block.words, partyName(block.name, v), 0.35);
  return undefined;
}

/** Postal address of the issuer: the best-scoring address block of the page's upper part (address.block.ts). */
function issuerAddress({ doc, f, concepts, v }: SemanticQuery): Located | undefined {
  if (f.data_type !== 'string' || !concepts.has('address')) return undefined;
  const block = findAddressBlock(doc, v, findIssuer(doc)?.line);
  if (block) return locatedAt(block.lines[0]!, block.words, block.text, 0.4);
  return undefined;
}

/** Grand total without a readable label: the largest amount on the document. */
function grandTotal({ f, ctx, lines, v }: SemanticQuery): Located | undefined {
  if (!isGrandTotalField(f)) return undefined;
  const amount = (n: number) => (f.data_type === 'currency' ? { value: n, currency: ctx.currency ?? null } : n);
  // Cash tendered less the change given is the amount paid: the line printing that amount is the total.
  const paid = paidFromChange(lines, v);
  if (paid) return locatedAt(paid.l, paid.l.words, amount(paid.v), 0.4);
  const best = largestAmount(lines, ctx);
  if (best) return locatedAt(best.l, best.l.words, amount(best.v), 0.4);
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
