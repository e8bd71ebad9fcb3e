import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { findDates, parseDate } from '../parsers/date.parser.js';
import { findNumbers, type DocContext } from '../parsers/value.parser.js';
import { findIban, findVatIds } from '../parsers/identifier.parser.js';
import { conceptTokens, isKnownConcept, weightOf, fold } from './label.matcher.js';
import { CELL_GAP, segments } from '../layout/layout.builder.js';
import type { Located } from './field.locator.js';
import { isLabelText } from './constraints.js';
import { vocabularyOf } from '../document.context.js';
import { allPacksVocabulary, correctWords, CURRENCY_MARK_SOURCE, type Vocabulary } from '../locales/locale.registry.js';
import { findAddressBlock, isPostcodeLine, isRegionLine, isRegistrationCode, lineConf, NOISE_CONF } from './address.block.js';

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
/** A figure with two decimals, as prices are printed ("1,916.37", "13,12"). */
const PRICE = /(?<![\d.,])\d{1,3}(?:[.,' ]?\d{3})*[.,]\d{2}(?![\d.,]*\d)/;

/** A dated line that also prints a price is an item's row: its date is the item's, not the document's. */
export function isPricedRow(text: string, date: { index: number; length: number }): boolean {
  return PRICE.test(text.slice(0, date.index) + ' ' + text.slice(date.index + date.length));
}

/** A label concept of at least this weight names a specific kind of value (due date, delivery date …). */
const SPECIFIC_CONCEPT_WEIGHT = 1;
/** A compact date is trusted less than a printed one. */
const COMPACT_DATE_CONFIDENCE = 0.35;
/** A compact date's year lies within this many years before the current one (or in the next): older is an id. */
const COMPACT_DATE_YEARS = 30;
/** A standalone run of eight digits read as day, month, year (or month, day, year), when that is a recent date. */
function compactDate(text: string, order: DocContext['dateOrder']): string | undefined {
  const now = new Date().getUTCFullYear();
  for (const m of text.matchAll(/(?<![\d.,/-])(\d{2})(\d{2})(\d{4})(?![\d.,/-])/g)) {
    const year = +m[3]!;
    if (year < now - COMPACT_DATE_YEARS || year > now + 1) continue;
    const [day, month] = order === 'mdy' ? [m[2]!, m[1]!] : [m[1]!, m[2]!];
    const iso = parseDate(`${day}/${month}/${m[3]}`, 'dmy');
    if (iso) return iso;
  }
  return undefined;
}
/** The deadline word of a due-date sentence is printed within this many characters before the date. */
const DUE_WORD_REACH = 24;
/** The sender's one-line return address is printed in this upper fraction of page 1. */
const RETURN_ADDRESS_ZONE = 0.4;
/** A one-line return address has at least this many parts separated by bullets or bars. */
const RETURN_ADDRESS_PARTS = 3;
/** The addressee's name is one of this many lines under the return address. */
const RETURN_NAME_LINES = 2;
/** …starting within this many line heights of the return address's left edge. */
const RETURN_NAME_INDENT = 2;
/** The parts of a window-envelope block (return address, address lines, title under it) are under this many line heights apart. */
const WINDOW_GAP = 3;
/** Lines of one block (a name, its wrapped part, a label over it) follow with a gap under this many line heights. */
const BLOCK_GAP = 1.5;
/** Lines of one column start within this many line heights of each other. */
const COLUMN_ALIGN = 1.5;
/** A letterhead or a title is printed in this upper fraction of the page. */
const LETTERHEAD_ZONE = 0.25;
/** A line printed this many times taller than the page's median line is a letterhead or title. */
const LARGER_PRINT = 1.15;
/**
 * Receipts: cash tendered less the change given is the amount paid, i.e. the total. When a line above the cash line
 * prints exactly that amount and the total chosen by its label differs, the paid amount wins (a "Total GST" or
 * "Total incl. 6% GST" line read as the total does not add up with the cash and change).
 */
export function paidTotal(doc: DocLayout, f: FieldDef, c: Located | undefined): Located | undefined {
  if (!c || !isGrandTotalField(f)) return c;
  const paid = paidFromChange(
    doc.pages.flatMap((p) => p.lines),
    vocabularyOf(doc),
  );
  const value = typeof c.value === 'number' ? c.value : (c.value as { value?: unknown } | null)?.value;
  if (!paid || (typeof value === 'number' && Math.abs(Math.abs(value) - paid.v) < PAID_TOLERANCE)) return c;
  return {
    ...c,
    value: typeof c.value === 'number' ? paid.v : { ...(c.value as object), value: paid.v },
    page: paid.l.page,
    bbox: [paid.l.x0, paid.l.y0, paid.l.x1, paid.l.y1],
  };
}
/** An amount field asking for the grand total (total, not net, not tax). */
function isGrandTotalField(f: FieldDef): boolean {
  if (f.data_type !== 'number' && f.data_type !== 'currency') return false;
  const concepts = conceptTokens(`${f.key.replace(/_/g, ' ')} ${f.label ?? ''}`);
  return concepts.includes('total') && !concepts.includes('net') && !concepts.includes('tax');
}
/** Cash less change equals the total to the cent. */
const PAID_TOLERANCE = 0.005;

// The payment and deadline words of the due-date sentence are the locale packs' (`payWords`, `dueBefore`).

// Legal forms (GmbH, Inc., SARL …) come from the active locale packs (`legalForms`), case-sensitive on purpose:
// short forms (SA, SE, AB, AG) in lower case are ordinary words.
// Greetings printed above the shop's name come from the locale packs (`greetings`).

/**
 * A trailing registration code in brackets ("ACME TRADING S/B (123456-X)") is not part of the name; the locale
 * packs' known OCR misreadings of legal forms are undone ("SDN 8HD" → "SDN BHD").
 */
export function stripRegistration(name: string, v: Vocabulary): string {
  return correctWords(name.replace(/\s*\([^)]*\d[^)]*\)\s*$/, ''), v).trim();
}

/** Two lines of one block share some horizontal extent: a name wraps within its column, never into the next one. */
function sameColumn(a: Line, b: Line): boolean {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;
}

function legalName(text: string, v: Vocabulary): string | undefined {
  for (const seg of text.split(/\s{2,}| - | \| | ● | ‖ /)) {
    // (A bank named after its label, "Bankverbindung: Musterbank AG", is where the money goes, not who is paid.)
    if (v.party.bankLabel.test(seg)) continue;
    const m = v.legalForm.exec(seg.trim().replace(v.party.partyPrefix, ''));
    if (m && !/\d{3}/.test(m[1]!) && /\p{L}{2}/u.test(m[1]!)) return m[1]!.trim();
  }
  return undefined;
}

/** A legal-form line of at most this many words is a name's tail ("CO. (M) SDN BHD") wrapped from the line above. */
const LEGAL_TAIL_WORDS = 2;
/** A name's own postal address is looked for in this many lines under it… */
const ADDRESS_BELOW_LINES = 3;
/** …at most this many line heights below it… */
const ADDRESS_BELOW_GAP = 4;
/** …and has at least this many lines (a street, a postcode line). */
const MIN_ADDRESS_BELOW = 2;
/** A legal name printed within this many lines after a buyer label is the buyer's. */
const BUYER_ZONE_LINES = 3;
const issuers = new WeakMap<DocLayout, { v: Vocabulary; found: { line: Line; name: string } | undefined }>();

/**
 * The issuer of a document (see locateIssuer), memoised per document and vocabulary: the company, address, buyer and
 * seller ≠ buyer steps each ask for it, and it scores address blocks to answer.
 */
export function findIssuer(doc: DocLayout): { line: Line; name: string } | undefined {
  const v = vocabularyOf(doc);
  const known = issuers.get(doc);
  if (known?.v === v) return known.found;
  const found = locateIssuer(doc, v);
  issuers.set(doc, { v, found });
  return found;
}

function locateIssuer(doc: DocLayout, v: Vocabulary): { line: Line; name: string } | undefined {
  const page = doc.pages[0];
  if (!page) return undefined;
  // Candidate name lines hold a real word (OCR noise from logos gives lines of 1–2 letter fragments).
  // On scans, a logo read as letters has a low confidence, and an all-lower-case line is a handwritten or
  // stamped note (printed letterheads use capitals).
  const top = page.lines
    .filter(
      (l) =>
        (/\p{L}{4,}/u.test(l.text) || legalName(l.text, v)) &&
        !v.party.documentTitle.test(l.text.trim()) &&
        !v.greeting.test(l.text.trim()) &&
        !findDates(l.text).length,
    )
    .filter((l) => !page.ocr || (lineConf(l) >= NOISE_CONF && /\p{Lu}/u.test(l.text)))
    .filter(
      (l) =>
        !isSentence(l.text, v) &&
        !/[:,]\s*$/.test(l.text) &&
        !((LABEL_LEAD.test(l.text) || isAddressLine(l.text, v)) && !legalName(l.text, v)),
    )
    .slice(0, ISSUER_WINDOW);
  for (const [i, l] of top.entries()) {
    let labelled = legalName(l.text, v);
    // (A legal form printed alone on the next line, "Feinkost Albrecht & Töchter" / "GmbH", completes the name.)
    const under = page.lines[page.lines.indexOf(l) + 1];
    if (
      !labelled &&
      under &&
      nameLike(l.text, v) &&
      under.y0 - l.y1 < (l.y1 - l.y0) * LEGAL_WRAP_GAP &&
      sameColumn(l, under) &&
      v.legalFormOnly.test(under.text.trim())
    )
      labelled = `${l.text.trim()} ${under.text.trim()}`;
    if (!labelled) continue;
    // (A name after a label, "Customer: ACME GmbH", is that role's party: a buyer label's name is no issuer, any
    // other label is dropped from the name.)
    const lead = LABEL_LEAD.exec(labelled)?.[0];
    if (lead && conceptTokens(lead).includes('buyer')) continue;
    const name = lead ? labelled.slice(lead.length).trim() : labelled;
    // (A name over "Herrn …" / "Attn: …" heads the addressee's block, never the letterhead; nor is a name printed
    // under a buyer label, "Factuur aan" / "Bill to", the issuer.)
    if (addressedTo(page, l, v) || underBuyerLabel(page, l)) continue;
    // The issuer's name comes before its own contact details: a legal name printed after a phone, e-mail or
    // tax-registration line is someone else (a customer, "sold by" note), and the first line is the letterhead.
    // (A labelled line, "Customer: …", is no letterhead; nor is a line of the block under a buyer label.)
    const first = top.find((t) => !LABEL_LEAD.test(t.text) && !inBuyerBlock(page, t));
    const between = page.lines.slice(0, page.lines.indexOf(l));
    if (first && first !== l && top.indexOf(first) < i && !/\d/.test(first.text) && between.some((b) => v.party.contact.test(b.text)))
      return legalNameOf(doc, first.text.trim(), v) ?? { line: first, name: first.text.trim() };
    const prev = top[i - 1];
    const h = l.y1 - l.y0;
    // (Only when the legal-form line is a tail like "CO. (M) SDN BHD": a full name under a brand line stands alone.)
    const words = (v.legalForm.exec(name)?.[1] ?? name).replace(/\([^)]*\)/g, ' ').match(/\p{L}{3,}/gu) ?? [];
    const tail = words.length <= LEGAL_TAIL_WORDS;
    // (A name whose bracket opened on the line above, "… (NORTH" / "BRANCH) SDN BHD", continues that line.)
    const opened = (name.match(/\)/g)?.length ?? 0) > (name.match(/\(/g)?.length ?? 0);
    if (
      prev &&
      (tail || opened) &&
      name === l.text.trim() &&
      l.y0 - prev.y1 < h * BLOCK_GAP &&
      sameColumn(prev, l) &&
      !/\d/.test(prev.text) &&
      (opened || !legalName(prev.text, v))
    )
      return { line: prev, name: `${prev.text.trim()} ${name}` };
    // (A legal form printed alone on the next line, "ACME TRADING" / "SDN BHD", ends the name.)
    const next = page.lines[page.lines.indexOf(l) + 1];
    const nextText = next ? stripRegistration(next.text, v) : '';
    if (
      next &&
      name === l.text.trim() &&
      next.y0 - l.y1 < h * LEGAL_WRAP_GAP &&
      sameColumn(l, next) &&
      v.legalForm.exec(`XX ${nextText}`)?.[1] === `XX ${nextText}`
    )
      return { line: l, name: `${name} ${nextText}` };
    return { line: l, name };
  }
  // The company named by the legal-registration footer ("… Sarl au capital de … – RCS … – Siret …") or as the
  // holder of the bank account to pay into is the issuer.
  const footer = footerIssuer(doc, v);
  if (footer) return footer;
  const payee = payeeIssuer(doc, v);
  // (An account holder named inside a letterhead printed larger, "Praxis für Physiotherapie Anke Vogt" over
  // "Kontoinhaberin: Anke Vogt", is the same issuer: the letterhead is the fuller name.)
  if (payee && top[0] && top[0].y0 < page.height * LETTERHEAD_ZONE && isLarger(page, top[0])) {
    const head = (segments(top[0], CELL_GAP)[0]?.text ?? top[0].text).trim();
    if (head !== payee.name && head.includes(payee.name)) return { line: top[0], name: head };
  }
  if (payee) return payee;
  // The sender's one-line return address over a window envelope's address block ("Schreinerei Vogt · Talstraße 2 ·
  // 72070 Tübingen") opens with the issuer's name.
  const sender = returnAddress(page);
  const senderName = sender?.cell.text.split(RETURN_ADDRESS_SEPARATOR)[0]?.trim();
  if (sender && senderName && nameLike(senderName, v)) return { line: sender.line, name: senderName };
  const aboveAddress = nameAboveAddress(doc, v);
  if (aboveAddress) return aboveAddress;
  // A name directly above its own postal address (street, then a postcode line in the same column) is the
  // issuer's block; a tagline or a lone heading beside it is not, nor is the addressee's window block.
  const withAddress = top.find((l) => {
    const k = page.lines.indexOf(l);
    const h = l.y1 - l.y0;
    const below = page.lines
      .slice(k + 1, k + 1 + ADDRESS_BELOW_LINES)
      .filter((b) => Math.abs(b.x0 - l.x0) < h * COLUMN_ALIGN && b.y0 - l.y1 < h * ADDRESS_BELOW_GAP);
    // (The name is not itself a line of the address: "TAMAN CONTOH," above "12345 KOTA BETA" is not a name.)
    const t = correctWords(l.text, v);
    const addressLine = v.addressWord.test(t) || isRegionLine(t, v) || /,\s*$/.test(t);
    const ok =
      !addressLine &&
      !/\d/.test(l.text) &&
      below.length >= MIN_ADDRESS_BELOW &&
      /\d/.test(below[0]!.text) &&
      below.slice(1).some((b) => /\b\d{4,6}\b/.test(b.text) && /\p{L}{3}/u.test(b.text));
    return ok && !isAddresseeBlock(page, l, v);
  });
  if (withAddress && withAddress !== top[0]) {
    // The block starts at its first line: a company name above a contact person's name.
    let head = withAddress;
    for (let k = page.lines.indexOf(head) - 1; k >= 0; k--) {
      const p = page.lines[k]!;
      const h = head.y1 - head.y0;
      if (
        Math.abs(p.x0 - head.x0) >= h * COLUMN_ALIGN ||
        head.y0 - p.y1 > h * BLOCK_GAP ||
        /\d/.test(p.text) ||
        !/\p{L}{2}/u.test(p.text) ||
        v.greeting.test(p.text.trim()) ||
        v.party.documentTitle.test(p.text.trim())
      )
        break;
      head = p;
    }
    return { line: head, name: head.text.trim() };
  }
  // A first line printed larger than the body text is the letterhead (receipts rarely print a legal form).
  const heights = page.lines.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  // (Only its first cell: a title printed on the same line, "Factura Nº: 2024-0456", is not part of the name.)
  if (top[0] && top[0].y1 - top[0].y0 >= median * LARGER_PRINT && top[0].y0 < page.height * LETTERHEAD_ZONE) {
    const head = (segments(top[0], CELL_GAP)[0]?.text ?? top[0].text).trim();
    return legalNameOf(doc, head, v) ?? { line: top[0], name: head };
  }
  const lines = doc.pages.flatMap((p) => p.lines);
  let buyerZone = -10;
  for (const [i, l] of lines.entries()) {
    if (conceptTokens(l.text).includes('buyer')) buyerZone = i;
    if (i - buyerZone <= BUYER_ZONE_LINES) continue;
    const name = legalName(l.text, v);
    if (name) return { line: l, name };
  }
  // (An e-mail or web address printed first is contact data, not the name.)
  const first = top.find((l) => !/@|www\.|https?:/i.test(l.text)) ?? top[0];
  return first ? { line: first, name: first.text.trim() } : undefined;
}

/**
 * A letterhead printing a brand ("ACME") whose legal name is printed elsewhere in the document ("Acme Print Ltd" in the
 * footer, after "©" or in the registration line): that legal name, which opens with the brand's words.
 */
function legalNameOf(doc: DocLayout, brand: string, v: Vocabulary): { line: Line; name: string } | undefined {
  const words = (t: string) =>
    fold(t)
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim();
  const want = words(brand);
  if (!want || legalName(brand, v)) return undefined;
  // (Any page: a footer may be printed on the last page only.)
  for (const l of doc.pages.flatMap((p) => p.lines))
    for (const part of l.text.split(RETURN_ADDRESS_SEPARATOR)) {
      const name = legalName(part.replace(/^\s*©\s*\d{4}\s*/, ''), v);
      if (name && words(name).startsWith(`${want} `)) return { line: l, name };
    }
  return undefined;
}

/** The separators between the parts of a one-line return address. */
const RETURN_ADDRESS_SEPARATOR = /\s[●•·|]\s/;
/**
 * The first line of the page's upper part printed as a return address: three or more parts, one of them a postcode
 * and town ("72070 Tübingen", "D-72070 Tübingen", "8011 PG Zwolle"), none of them contact details.
 */
function returnAddress(page: DocLayout['pages'][number]): { line: Line; cell: Line } | undefined {
  for (const l of page.lines) {
    if (l.y0 > page.height * RETURN_ADDRESS_ZONE) break;
    const first = segments(l, CELL_GAP)[0];
    const parts = first?.text.split(RETURN_ADDRESS_SEPARATOR).map((p) => p.trim()) ?? [];
    if (parts.length < RETURN_ADDRESS_PARTS || parts.some((p) => /@|www\.|https?:|^\+?\d[\d\s/()-]{6,}$/i.test(p))) continue;
    if (parts.some((p) => /^(?:[A-Z]{1,2}-)?\d{4,5}(?:\s[A-Z]{2})?\s+\p{L}/u.test(p))) return { line: l, cell: first! };
  }
  return undefined;
}

/** Marks of at most this many characters read with low confidence at either end of a name are OCR noise. */
const NOISE_MARK_LENGTH = 2;
/** The name without a doubtful one- or two-character mark at its start or end ("5 ACME TRADING" read off a smudge). */
function withoutNoiseEdges(line: Line, name: string): string {
  const noise = (w: Word | undefined) => !!w && w.text.length <= NOISE_MARK_LENGTH && w.conf < NOISE_CONF;
  let out = name;
  const [first, last] = [line.words[0], line.words[line.words.length - 1]];
  if (noise(first) && out.startsWith(`${first!.text} `)) out = out.slice(first!.text.length + 1);
  if (noise(last) && line.words.length > 1 && out.endsWith(` ${last!.text}`)) out = out.slice(0, -last!.text.length - 1);
  return out;
}

/** The issuer's name is looked for among this many candidate lines at the top of page 1. */
const ISSUER_WINDOW = 6;
/** A line that opens with a short label and a colon ("Reg. No. :", "Date:") is a detail, not a name. */
const LABEL_LEAD = /^[^:]{1,25}:/;
/** A sentence has at least this many words. */
const SENTENCE_WORDS = 3;
/** Sentences (three words or more ending in a full stop or exclamation mark) are notes, not names. */
function isSentence(t: string, v: Vocabulary): boolean {
  const s = withoutLegalDot(t.trim(), v);
  return s.split(/\s+/).length >= SENTENCE_WORDS && /[.!]$/.test(s) && !v.legalForm.test(t.trim());
}
/**
 * A line with a street or building word, a postcode line or a region line is part of an address, never a name
 * (a name with its legal form is let through by the callers: "Plaza Hotels Ltd").
 */
function isAddressLine(t: string, v: Vocabulary): boolean {
  const c = correctWords(t, v);
  return v.addressWord.test(c) || isPostcodeLine(c, v) || isRegionLine(c, v);
}

/** Lines between an issuer's name and its address block (a registration code, a branch line, a smudge) at most. */
const MAX_NAME_TO_ADDRESS = 3;

/**
 * The name printed right above the page's address block (address.block.ts), registration codes and OCR noise in
 * between skipped, is the issuer's; a name wrapped over two lines is joined.
 */
function nameAboveAddress(doc: DocLayout, v: Vocabulary): { line: Line; name: string } | undefined {
  const page = doc.pages[0]!;
  const block = findAddressBlock(doc, v);
  if (!block) return undefined;
  const k = page.lines.indexOf(block.lines[0]!);
  const [x0, x1] = [Math.min(...block.words.map((w) => w.x0)), Math.max(...block.words.map((w) => w.x1))];
  // (Only the cell above the block: a title printed beside the name on the same line is not part of it.)
  const cellOver = (l: Line) => segments(l, CELL_GAP).find((c) => c.x1 > x0 && c.x0 < x1);
  for (let j = k - 1; j >= Math.max(0, k - 1 - MAX_NAME_TO_ADDRESS); j--) {
    const l = page.lines[j]!;
    const cell = cellOver(l);
    if (!cell) continue;
    const printed = cell.text.trim();
    // (A name line repeating its branch or mall, "ACME CAFE KOTA BETA" over "… KOTA BETA, 12345 …", is whole.)
    const t = withoutBranch(printed, block.text, v);
    if (/^\(.*\)$/.test(t) || isRegistrationCode(t) || (page.ocr && lineConf(l) < NOISE_CONF)) continue;
    if (t !== printed && nameLike(t, v)) return { line: l, name: t };
    if (!nameLike(t, v) || isLabelOnly(t) || addressedTo(page, l, v) || inBuyerBlock(page, l) || isAddresseeBlock(page, l, v))
      return undefined;
    const prev = page.lines[j - 1];
    const above = prev && cellOver(prev);
    const h = l.y1 - l.y0;
    const wrapped =
      above &&
      l.y0 - prev.y1 < h * WRAP_GAP &&
      nameLike(above.text, v) &&
      !isLabelOnly(above.text) &&
      !legalName(above.text, v) &&
      (!page.ocr || lineConf(prev) >= NOISE_CONF);
    // (A name printed much larger right above is the letterhead and this line its tagline: "Camille Roussel" over
    // "Graphiste – Entrepreneur individuel".)
    if (wrapped && prev.y1 - prev.y0 >= h * TAGLINE_RATIO) return { line: prev, name: above.text.trim() };
    return wrapped ? { line: prev, name: `${above.text.trim()} ${t}` } : { line: l, name: t };
  }
  return undefined;
}
/** A branch or mall named after a shop's name has at least this many words ("KOTA BETA", "THE CONTOH MALL")… */
const MIN_BRANCH_WORDS = 2;
/** …and leaves a name of at least this many words. */
const MIN_NAME_WORDS = 2;
/** Letters and figures only, for comparing a name line with the address (OCR spacing and punctuation ignored). */
function squeezed(t: string): string {
  return t.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}
/**
 * The name without the branch or mall printed after it on the same line, recognised by being repeated in the
 * address block under it ("ACME CAFE KOTA BETA" over "12, Jalan Contoh, Kota Beta"): the location is the address's,
 * not part of the name. A name with a legal form is whole, so is one that would keep fewer than two words.
 */
export function withoutBranch(name: string, address: string, v: Vocabulary): string {
  if (legalName(name, v)) return name;
  const words = name.split(/\s+/);
  const where = squeezed(address);
  for (let k = MIN_NAME_WORDS; k <= words.length - MIN_BRANCH_WORDS; k++) {
    const tail = squeezed(words.slice(k).join(' '));
    if (tail && where.includes(tail)) return words.slice(0, k).join(' ');
  }
  return name;
}
/** Text made only of label words ("Sold To", "Ship To", "Customer"): a heading, not a name. */
function isLabelOnly(t: string): boolean {
  const cs = conceptTokens(t);
  return cs.length > 0 && cs.every((c) => isKnownConcept(c) || weightOf(c) === 0) && cs.some((c) => isKnownConcept(c) && weightOf(c) > 0);
}
/** A legal form printed alone under a name belongs to it when the gap is under this many line heights. */
const LEGAL_WRAP_GAP = 1.2;
/** A name continues on the next line when the gap between them is under this many line heights. */
const WRAP_GAP = 0.8;
/** A line over a name at least this many times its height is a letterhead over its tagline, not a wrapped name. */
const TAGLINE_RATIO = 1.4;

// A line naming a person to the attention of whom a letter is addressed: the packs' `salutations`.

/** A column's next line follows with a gap under this many line heights (more is a paragraph gap). */
const COLUMN_LINE_GAP = 1.2;
/** A line with nothing in the column ends it unless it is under this many line heights below (a line beside it). */
const COLUMN_SKIP_GAP = 0.3;
/** A salutation or attention line opens the block when among this many lines under the name. */
const SALUTATION_REACH = 3;
/** The cells of the lines right under a cell, in its column, as long as they follow without a paragraph gap. */
function columnBelow(page: DocLayout['pages'][number], k: number, cell: Line, max: number, firstGap = COLUMN_LINE_GAP): Line[] {
  const h = cell.y1 - cell.y0;
  const out: Line[] = [];
  let prev = cell;
  for (let j = k + 1; j < page.lines.length && out.length < max; j++) {
    const l = page.lines[j]!;
    if (l.y0 - prev.y1 > h * (out.length ? COLUMN_LINE_GAP : firstGap)) break;
    const s = segments(l, CELL_GAP).find((c) => Math.abs(c.x0 - cell.x0) < h * COLUMN_ALIGN);
    if (!s) {
      if (l.y0 - prev.y1 > h * COLUMN_SKIP_GAP) break;
      continue;
    }
    out.push(s);
    prev = s;
  }
  return out;
}

/** A name line opening a block addressed to someone: a salutation or attention line among the lines under it. */
function addressedTo(page: DocLayout['pages'][number], l: Line, v: Vocabulary): boolean {
  const k = page.lines.indexOf(l);
  const first = segments(l, CELL_GAP)[0];
  return !!first && columnBelow(page, k, first, SALUTATION_REACH).some((c) => v.party.salutation.test(c.text.trim()));
}

/** A name's first address line may follow it with a gap of up to this many line heights. */
const NAME_ADDRESS_GAP = 2;
/** The addressee's block starts in this upper fraction of page 1. */
const ADDRESSEE_ZONE = 0.45;
/** An addressee block has at most this many lines under its first one… */
const MAX_ADDRESSEE_LINES = 5;
/** …and at least this many address lines under the name. */
const MIN_ADDRESSEE_LINES = 2;
/** A cell of at least this many characters found inside the issuer's name is the issuer's block. */
const MIN_ISSUER_FRAGMENT = 4;
/**
 * The addressee's block when no label introduces it: in the upper part of page 1, a name followed in its column by
 * two to five lines of a postal address (a line with a house number, a postcode line) that is not the issuer's block.
 * A salutation line ("Herrn", "Firma") over the name is skipped.
 */
export function addresseeBlock(doc: DocLayout): { line: Line; words: Word[]; name: string } | undefined {
  const page = doc.pages[0];
  if (!page) return undefined;
  const issuer = findIssuer(doc);
  const v = vocabularyOf(doc);
  const issuerCell = issuer && issuer.line.page === page.number ? segments(issuer.line, CELL_GAP)[0] : undefined;
  const issuerBlock = issuer && issuerCell ? columnBelow(page, page.lines.indexOf(issuer.line), issuerCell, MAX_ADDRESSEE_LINES) : [];
  for (const [k, l] of page.lines.entries()) {
    if (l.y0 > page.height * ADDRESSEE_ZONE) break;
    for (const cell of segments(l, CELL_GAP)) {
      const text = cell.text.trim();
      // (A salutation alone, "Herrn" or "M.", opens the block: the name is the line under it.)
      const salutation = v.party.salutation.test(text) && text.split(/\s+/).length === 1;
      if (!salutation && (!nameLike(text, v) || /:$/.test(text) || v.party.documentTitle.test(text))) continue;
      // (A name may stand apart from its address, set in a larger or spaced line.)
      const below = columnBelow(page, k, cell, MAX_ADDRESSEE_LINES, NAME_ADDRESS_GAP);
      let rest = below;
      let name = cell;
      if (salutation && below[0]) [name, rest] = [below[0], below.slice(1)];
      if (
        rest.length < MIN_ADDRESSEE_LINES ||
        !rest.some((c) => isPostcodeLine(c.text, v)) ||
        !rest.some((c) => (/\d/.test(c.text) && !isPostcodeLine(c.text, v)) || v.addressWord.test(c.text))
      )
        continue;
      // (Only the issuer's own cell of its line: an addressee printed beside it, in the next column, is still one.)
      const issuerOwn = issuer && issuer.line === l && (!issuerCell || sameColumn(cell as Line, issuerCell as Line));
      if (
        issuer &&
        (issuerOwn ||
          [name, ...rest].some(
            (c) => c.text.includes(issuer.name) || (c.text.trim().length >= MIN_ISSUER_FRAGMENT && issuer.name.includes(c.text.trim())),
          ))
      )
        continue;
      // (Nor the lines printed right under the issuer's name in its column: a tagline over its own address.)
      if (issuerBlock.some((c) => c.y0 === cell.y0 && c.x0 === cell.x0)) continue;
      // (A heading over a block, "Hotel Details", names a kind of content, not a party; names start with a capital.)
      if (!nameLike(name.text, v) || !/^[\p{Lu}\d]/u.test(name.text.trim())) continue;
      if (!legalName(name.text, v) && conceptTokens(name.text).some((c) => isKnownConcept(c) && weightOf(c) >= SPECIFIC_CONCEPT_WEIGHT))
        continue;
      // (A contact person over the company, "Jane Roe / Acme Ltd": the party is the one with the legal form.)
      const company =
        !legalName(name.text, v) && rest[0] && legalName(rest[0].text, v) && !isAddressLine(rest[0].text, v) ? rest[0] : undefined;
      if (company) return { line: l, words: company.words, name: company.text.trim() };
      return { line: l, words: name.words, name: name.text.trim() };
    }
  }
  return undefined;
}

/** A line printed at least 15 % taller than the page's median line: a letterhead or title. */
function isLarger(page: DocLayout['pages'][number], l: Line): boolean {
  const heights = page.lines.map((x) => x.y1 - x.y0).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  return l.y1 - l.y0 >= median * LARGER_PRINT;
}

/** A buyer label is looked for this many lines above the name. */
const BUYER_LABEL_REACH = 2;
/** A buyer label ("Bill to", "Factuur aan") has at most this many words. */
const MAX_LABEL_WORDS = 4;
/**
 * Is line `l` one of the lines of a block under a buyer label: the line right under it, or a later line of the same
 * block (a contact or department line, "Practice Manager", between the name and the street)?
 */
function inBuyerBlock(page: DocLayout['pages'][number], l: Line): boolean {
  const k = page.lines.indexOf(l);
  const h = l.y1 - l.y0;
  for (let j = k; j >= Math.max(0, k - MAX_ADDRESSEE_LINES); j--) {
    const m = page.lines[j]!;
    if (j < k && (page.lines[j + 1]!.y0 - m.y1 > h * BLOCK_GAP || Math.abs(m.x0 - l.x0) >= h * COLUMN_ALIGN)) return false;
    if (underBuyerLabel(page, m)) return true;
  }
  return false;
}

/** Is the line's first cell printed right under a buyer label ("Factuur aan", "Bill to:", "Nabywca:") in its column? */
function underBuyerLabel(page: DocLayout['pages'][number], l: Line): boolean {
  const k = page.lines.indexOf(l);
  const cell = segments(l, CELL_GAP)[0];
  if (!cell || k <= 0) return false;
  const h = l.y1 - l.y0;
  // (A customer-number line between the heading and the name is the block's detail: "Kunde" / "Kundennummer 30418".)
  let [top, skipped] = [cell.y0, 0];
  for (let j = k - 1; j >= Math.max(0, k - BUYER_LABEL_REACH - skipped); j--) {
    const p = page.lines[j]!;
    if (top - p.y1 > h * BLOCK_GAP) break;
    const above = segments(p, CELL_GAP).find((s) => Math.abs(s.x0 - cell.x0) < h * COLUMN_ALIGN);
    if (above && !skipped && /\d/.test(above.text) && isLabelText(above.text)) {
      [top, skipped] = [above.y0, 1];
      continue;
    }
    if (above) return above.words.length <= MAX_LABEL_WORDS && conceptTokens(above.text).includes('buyer');
  }
  return false;
}

/** Line text as separate cells (wide gaps) joined by " ‖ ", so that a cell boundary ends a name. */
function cellText(l: Line): string {
  return segments(l, CELL_GAP)
    .map((s) => s.text.trim())
    .join(' ‖ ');
}

// Registration details printed in an invoice's legal footer (share capital, trade register, company numbers): the
// packs' `registrationMarks`.

/** The text without the closing dot of a legal-form abbreviation ("Ltd.", "Lda.", "s.r.o."): that dot ends no sentence. */
export function withoutLegalDot(s: string, v: Vocabulary = allPacksVocabulary()): string {
  return s.replace(v.party.legalDot, '');
}

/** A company name has at most this many words. */
const MAX_NAME_WORDS = 6;
/** A short line that can be a company name on its own: words, no figures, not a label, a title or a sentence. */
function nameLike(t: string, v: Vocabulary): boolean {
  const s = t.trim();
  const words = s.split(/\s+/);
  return (
    words.length <= MAX_NAME_WORDS &&
    /\p{L}{2}/u.test(s) &&
    !/\d/.test(s) &&
    !/:|@|www\.|https?:/i.test(s) &&
    !/[.!?]$/.test(withoutLegalDot(s, v)) &&
    !v.party.documentTitle.test(s) &&
    !v.party.registration.test(s) &&
    !v.party.closing.test(s) &&
    !v.greeting.test(s)
  );
}

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

/** An addressee's window block starts right of this fraction of the page width. */
const WINDOW_LEFT = 0.45;
/**
 * An address block printed right of centre with the document title straight under it, or under the sender's
 * one-line return address ("Firm ● Street 1 ● 12345 Town"), is the addressee's window block.
 */
function isAddresseeBlock(page: DocLayout['pages'][number], l: Line, v: Vocabulary): boolean {
  const k = page.lines.indexOf(l);
  const h = l.y1 - l.y0;
  const prev = page.lines[k - 1];
  if (
    prev &&
    l.y0 - prev.y1 < h * WINDOW_GAP &&
    segments(prev, CELL_GAP).some((s) => s.text.split(/\s[●•·|]\s/).length >= RETURN_ADDRESS_PARTS)
  )
    return true;
  if (l.x0 < page.width * WINDOW_LEFT) return false;
  let end = k;
  while (
    end + 1 < page.lines.length &&
    page.lines[end + 1]!.y0 - page.lines[end]!.y1 < h * COLUMN_LINE_GAP &&
    Math.abs(page.lines[end + 1]!.x0 - l.x0) < h * COLUMN_ALIGN
  )
    end++;
  const next = page.lines[end + 1];
  return !!next && next.y0 - page.lines[end]!.y1 < h * WINDOW_GAP && v.party.documentTitle.test(next.text.trim());
}

/**
 * A party name ends where another party is introduced: "e-Shop B.V. iov Brand.com" (in opdracht van),
 * "Acme Ltd c/o Agent", "… on behalf of …", "… pour le compte de …", "… im Auftrag von …".
 */
export function partyName(name: string, v: Vocabulary = allPacksVocabulary()): string {
  const m = v.party.onBehalfOf.exec(name);
  return m ? m[1]!.trim() : name;
}

/** A rounding adjustment under a rounding adjustment is followed at most this many times. */
const MAX_ROUNDING_DEPTH = 2;
/** A rounding adjustment or discount is printed within this many lines under the total. */
const UNDER_TOTAL_LINES = 3;
/** A rounding adjustment (or a rounded total's difference) is less than this (ten cents). */
const ROUNDING_LIMIT = 0.1;
/**
 * Cash totals are rounded to the smallest coin after the total is printed ("Total 22.91 / Rounding Adj -0.01"):
 * when a line right under the chosen total is such an adjustment (a few cents), the amount paid is the sum, and a
 * rounded total printed there (within ten cents) is taken as it is. A rounded total chosen by its label is left
 * as it is (the adjustment then lies above it).
 */
export function withRounding(doc: DocLayout, f: FieldDef, c: Located | undefined, depth = 0): Located | undefined {
  if (!c || depth > MAX_ROUNDING_DEPTH || !isGrandTotalField(f)) return c;
  const value = typeof c.value === 'number' ? c.value : (c.value as { value?: unknown } | null)?.value;
  if (typeof value !== 'number') return c;
  const page = doc.pages.find((p) => p.number === c.page);
  if (!page) return c;
  const mid = (c.bbox[1] + c.bbox[3]) / 2;
  const k = page.lines.findIndex((l) => l.y0 <= mid && l.y1 >= mid);
  if (k < 0) return c;
  const withValue = (v: number, l?: Line): Located => ({
    ...c,
    value: typeof c.value === 'number' ? v : { ...(c.value as object), value: v },
    ...(l ? { bbox: [l.x0, l.y0, l.x1, l.y1] as Located['bbox'] } : {}),
  });
  const v = vocabularyOf(doc);
  const summary = totalAboveTaxSummary(page.lines, k, v);
  if (summary) return withRounding(doc, f, withValue(Math.sign(value || 1) * summary.v, summary.l), depth + 1);
  const net = totalAfterDiscount(page.lines, k, value, v);
  if (net) return withRounding(doc, f, withValue(net.v, net.l), depth + 1);
  for (const l of page.lines.slice(k + 1, k + 1 + UNDER_TOTAL_LINES)) {
    if (!v.party.rounding.test(l.text)) continue;
    // A rounded total printed under the exact one ("Total 22.93 / Rounded Total 22.95") is the amount paid.
    if (v.party.amountToPay.test(l.text)) {
      const t = /(\d[\d,]*)[.,](\d{2})\s*\W*$/.exec(l.text);
      const rounded = t ? Number(t[1]!.replace(/,/g, '')) + Number(t[2]) / 100 : NaN;
      if (Math.abs(rounded - Math.abs(value)) < ROUNDING_LIMIT) return withValue(Math.sign(value || 1) * rounded);
      continue;
    }
    // "Rounding", "Rounding Adj.", "Round Adjustment" (OCR: "Rour ding Adjustment"): the amount read leniently,
    // "-0.01", "-,01", "(0.02)", "0.03-".
    const m = /(\(?)(-?)\s*(\d{0,2})[.,](\d{2})(\)?)(-?)\s*\W*$/.exec(l.text);
    if (!m) return c;
    const sign = m[2] || m[6] || (m[1] && m[5]) ? -1 : 1;
    const adj = sign * (Number(m[3] || '0') + Number(m[4]) / 100);
    if (Math.abs(adj) >= ROUNDING_LIMIT || adj === 0) continue;
    return withValue(Math.round((value + adj) * 100) / 100);
  }
  return c;
}

/** An amount ending a line, with an optional currency mark before it (sign, integer part, cents captured). */
const TRAILING_AMOUNT = new RegExp(`(-?)\\s*(?:${CURRENCY_MARK_SOURCE}|[$€£])?\\s*(-?)(\\d[\\d,]*)[.,](\\d{2})\\s*-?\\W{0,2}$`, 'iu');

/** The amount ending a line ("TOTAL (RM) 36.00", "RM 24.50", "-0.70", "(1.20)"), if it ends with one. */
function trailingAmount(t: string): number | undefined {
  const m = TRAILING_AMOUNT.exec(t.trim());
  if (!m) return undefined;
  const v = Number(m[3]!.replace(/,/g, '')) + Number(m[4]) / 100;
  return m[1] || m[2] ? -v : v;
}

// A tax breakdown table's header ("GST Summary  Amount(RM)  Tax(RM)", "VAT analysis", "Tax Code"): the packs' tax and
// summary words.

/** A tax breakdown's header is looked for within this many lines above the chosen total. */
const TAX_SUMMARY_REACH = 5;
/** The document's total is looked for within this many lines above a tax breakdown or a cash line. */
const TOTAL_REACH = 12;
/**
 * The total row of a tax breakdown printed under the receipt ("GST Summary / SR @ 6% 33.96 2.04 / TOTAL 33.96
 * 2.04") sums base and tax, not the amount paid: the last total line above that table is the document's total.
 */
function totalAboveTaxSummary(lines: Line[], k: number, vocab: Vocabulary): { l: Line; v: number } | undefined {
  const header = lines
    .slice(Math.max(0, k - TAX_SUMMARY_REACH), k)
    .reverse()
    .findIndex((l) => vocab.party.taxSummary.test(l.text));
  if (header < 0) return undefined;
  const h = k - 1 - header;
  for (let j = h - 1; j >= Math.max(0, h - TOTAL_REACH); j--) {
    const t = lines[j]!.text;
    const cs = conceptTokens(t.replace(/[\d.,]+/g, ' '));
    if (!cs.includes('total') && !cs.includes('due')) continue;
    if (cs.some((x) => x === 'net' || x === 'tax' || x === 'quantity' || x === 'description' || x === 'discount')) continue;
    const v = trailingAmount(t);
    if (v !== undefined && v > 0) return { l: lines[j]!, v };
  }
  return undefined;
}

/** The total after a discount is printed within this many lines under the discount. */
const NET_TOTAL_REACH = 2;
/** The total after a discount equals the total less the discount to the cent (with float slack). */
const DISCOUNT_TOLERANCE = 0.011;
/**
 * A discount printed under the total, then a total line again ("TOTAL 7.00 / DISCOUNT 0.70 / NETT TOTAL 6.30"):
 * the amount paid is that later line, when it is the total less the discount.
 */
function totalAfterDiscount(lines: Line[], k: number, value: number, vocab: Vocabulary): { l: Line; v: number } | undefined {
  for (let j = k + 1; j < Math.min(lines.length, k + 1 + UNDER_TOTAL_LINES); j++) {
    if (!vocab.party.discountLine.test(lines[j]!.text)) continue;
    // A deposit or prepayment deducted after the total ("Less deposit received") leaves the total as it is: the
    // balance below it is what remains to pay, not the document's total.
    if (vocab.party.depositWord.test(lines[j]!.text)) return undefined;
    const d = trailingAmount(lines[j]!.text);
    if (d === undefined || d === 0) return undefined;
    for (const l of lines.slice(j + 1, j + 1 + NET_TOTAL_REACH)) {
      if (!vocab.party.amountToPay.test(l.text)) continue;
      const v = trailingAmount(l.text);
      if (v !== undefined && Math.abs(v - (value - Math.abs(d))) < DISCOUNT_TOLERANCE) return { l, v };
    }
    return undefined;
  }
  return undefined;
}

// The cash-tendered and change lines' words come from the locale packs (`tendered`, `change`).

/** The change line is printed within this many lines under the cash line. */
const CHANGE_REACH = 2;
/**
 * "CASH 50.00 / CHANGE 33.04": the amount paid is 16.96; the last line above the cash line printing exactly that
 * amount is the total, whatever its label reads (an OCR-garbled "T otal").
 */
export function paidFromChange(lines: Line[], vocab: Vocabulary): { l: Line; v: number } | undefined {
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!vocab.tendered.test(lines[i]!.text)) continue;
    const cash = trailingAmount(lines[i]!.text);
    const ch = lines.slice(i + 1, i + 1 + CHANGE_REACH).find((l) => vocab.change.test(l.text));
    const change = ch ? trailingAmount(ch.text) : undefined;
    if (cash === undefined || change === undefined || change < 0 || change >= cash) continue;
    const v = Math.round((cash - change) * 100) / 100;
    for (let j = i - 1; j >= Math.max(0, i - TOTAL_REACH); j--) {
      const a = trailingAmount(lines[j]!.text);
      if (a !== undefined && Math.abs(a - v) < PAID_TOLERANCE) return { l: lines[j]!, v };
    }
  }
  return undefined;
}
