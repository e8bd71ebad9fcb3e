import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { findDates } from '../parsers/date.parser.js';
import { conceptTokens, fold } from './label.matcher.js';
import { CELL_GAP, segments } from '../layout/layout.builder.js';
import { vocabularyOf } from '../document.context.js';
import { correctWords } from '../locales/locale.corrections.js';
import type { Vocabulary } from '../locales/locale.vocabulary.js';
import { isRegionLine, lineConf, NOISE_CONF } from './address.block.js';
import { footerIssuer, payeeIssuer } from './semantic.footer.js';
import { normName } from './constraints.parties.js';
import { nameAboveAddress } from './semantic.issuer.block.js';
import {
  addressedTo,
  BLOCK_GAP,
  cellText,
  COLUMN_ALIGN,
  inBuyerBlock,
  isAddressLine,
  isAddresseeBlock,
  isSentence,
  LARGER_PRINT,
  legalName,
  LETTERHEAD_ZONE,
  nameLike,
  RETURN_ADDRESS_PARTS,
  RETURN_ADDRESS_SEPARATOR,
  RETURN_ADDRESS_ZONE,
  sameColumn,
  stripRegistration,
  underBuyerLabel,
} from './semantic.parties.js';

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

/** A party's name and the line it is printed on. */
type Party = { line: Line; name: string };

/**
 * The issuer in the order its evidence is trusted: a legal name at the top of page 1, the footer or account holder, the
 * sender of a return address, the name over the address block or over its own address, a larger letterhead, a legal
 * name outside a buyer's block, the first line.
 */
function locateIssuer(doc: DocLayout, v: Vocabulary): Party | undefined {
  const page = doc.pages[0];
  if (!page) return undefined;
  const top = candidateLines(page, v);
  const footer = footerIssuer(doc, v);
  return (
    footerNameOnTop(footer, top) ??
    legalNameOnTop(doc, page, top, v) ??
    // The company named by the legal-registration footer ("… Sarl au capital de … – RCS … – Siret …") or as the
    // holder of the bank account to pay into is the issuer.
    footer ??
    payeeOrLetterhead(doc, page, top, v) ??
    returnAddressSender(page, v) ??
    nameAboveAddress(doc, v) ??
    nameOverOwnAddress(page, top, v) ??
    largerLetterhead(doc, page, top, v) ??
    legalNameOutsideBuyerZone(doc, v) ??
    firstContentLine(top)
  );
}

/**
 * The company the legal footer names, printed on top of page 1 as well: the footer speaks for the issuer only, so its
 * name over an address block on top is the issuer's even where another block on top prints a legal form (a French
 * hotel's invoice to a company "… SARL" whose address sits on the right).
 */
function footerNameOnTop(footer: Party | undefined, top: Line[]): Party | undefined {
  if (!footer) return undefined;
  const line = top.find((l) => l !== footer.line && normName(l.text) === normName(footer.name));
  return line ? { line, name: line.text.trim() } : undefined;
}

/** The lines of page 1's top that may print the issuer's name, at most ISSUER_WINDOW of them. */
function candidateLines(page: Page, v: Vocabulary): Line[] {
  // Candidate name lines hold a real word (OCR noise from logos gives lines of 1–2 letter fragments).
  // On scans, a logo read as letters has a low confidence, and an all-lower-case line is a handwritten or
  // stamped note (printed letterheads use capitals).
  return page.lines
    .filter(
      (l) =>
        (/\p{L}{4,}/u.test(l.text) || legalName(l.text, v)) &&
        !v.party.documentTitle.test(l.text.trim()) &&
        !v.greeting.test(l.text.trim()) &&
        !findDates(l.text).length,
    )
    .filter((l) => !page.ocr || (lineConf(l) >= NOISE_CONF && /\p{Lu}/u.test(l.text)))
    .filter((l) => {
      // (On a scan, with the OCR look-alikes undone: "ACME SDN. BHX." is a name with its legal form, not a sentence.)
      const t = page.ocr ? correctWords(l.text, v) : l.text;
      return !isSentence(t, v) && !/[:,]\s*$/.test(t) && !((LABEL_LEAD.test(t) || isAddressLine(t, v)) && !legalName(t, v));
    })
    .slice(0, ISSUER_WINDOW);
}

/** The first candidate line printing a legal name that is not a buyer's, joined with a wrapped part of it. */
function legalNameOnTop(doc: DocLayout, page: Page, top: Line[], v: Vocabulary): Party | undefined {
  for (const [i, l] of top.entries()) {
    const labelled = legalNameAt(page, l, v);
    if (!labelled) continue;
    // (A name after a label, "Customer: ACME GmbH", is that role's party: a buyer label's name is no issuer, any
    // other label is dropped from the name.)
    const lead = LABEL_LEAD.exec(labelled)?.[0];
    if (lead && conceptTokens(lead).includes('buyer')) continue;
    const name = lead ? labelled.slice(lead.length).trim() : labelled;
    // (A name over "Herrn …" / "Attn: …" heads the addressee's block, never the letterhead; nor is a name printed
    // under a buyer label, "Factuur aan" / "Bill to", the issuer.)
    if (addressedTo(page, l, v) || underBuyerLabel(page, l)) continue;
    return letterheadBeforeContact(doc, page, top, i, v) ?? joinedWithLineAbove(top, i, name, v) ?? withLegalFormBelow(page, l, name, v);
  }
  return undefined;
}

/** The legal name printed on line `l`, or the line's name completed by a legal form printed alone under it. */
function legalNameAt(page: Page, l: Line, v: Vocabulary): string | undefined {
  const labelled = legalName(cellText(l), v);
  if (labelled) return labelled;
  // (On a scan, a legal form read with a look-alike letter, "SDN. BHX.", is that legal form: the name as read.)
  const read = page.ocr ? legalName(correctWords(cellText(l), v), v) : undefined;
  if (read) return read;
  // (A legal form printed alone on the next line, "Feinkost Albrecht & Töchter" / "GmbH", completes the name.)
  const under = page.lines[page.lines.indexOf(l) + 1];
  if (
    under &&
    nameLike(l.text, v) &&
    under.y0 - l.y1 < (l.y1 - l.y0) * LEGAL_WRAP_GAP &&
    sameColumn(l, under) &&
    v.legalFormOnly.test(under.text.trim())
  )
    return `${l.text.trim()} ${under.text.trim()}`;
  return undefined;
}

/** The first candidate line as the letterhead, when the legal name `top[i]` is printed after contact details. */
function letterheadBeforeContact(doc: DocLayout, page: Page, top: Line[], i: number, v: Vocabulary): Party | undefined {
  const l = top[i]!;
  // The issuer's name comes before its own contact details: a legal name printed after a phone, e-mail or
  // tax-registration line is someone else (a customer, "sold by" note), and the first line is the letterhead.
  // (A labelled line, "Customer: …", is no letterhead; nor is a line of the block under a buyer label.)
  const first = top.find((t) => !LABEL_LEAD.test(t.text) && !inBuyerBlock(page, t));
  const between = page.lines.slice(0, page.lines.indexOf(l));
  if (first && first !== l && top.indexOf(first) < i && !/\d/.test(first.text) && between.some((b) => v.party.contact.test(b.text)))
    return legalNameOf(doc, first.text.trim(), v) ?? { line: first, name: first.text.trim() };
  return undefined;
}

/** The legal name `name` of line `top[i]` joined with the candidate line above, when it is the wrapped tail of a name. */
function joinedWithLineAbove(top: Line[], i: number, name: string, v: Vocabulary): Party | undefined {
  const l = top[i]!;
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
  return undefined;
}

/** The name of line `l`, ended by a legal form printed alone on the next line. */
function withLegalFormBelow(page: Page, l: Line, name: string, v: Vocabulary): Party {
  const h = l.y1 - l.y0;
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

/** The holder of the account to pay into, or the larger letterhead that holds that holder's name. */
function payeeOrLetterhead(doc: DocLayout, page: Page, top: Line[], v: Vocabulary): Party | undefined {
  const payee = payeeIssuer(doc, v);
  // (An account holder named inside a letterhead printed larger, "Praxis für Physiotherapie Anke Vogt" over
  // "Kontoinhaberin: Anke Vogt", is the same issuer: the letterhead is the fuller name.)
  if (payee && top[0] && top[0].y0 < page.height * LETTERHEAD_ZONE && isLarger(page, top[0])) {
    const head = (segments(top[0], CELL_GAP)[0]?.text ?? top[0].text).trim();
    if (head !== payee.name && head.includes(payee.name)) return { line: top[0], name: head };
  }
  return payee;
}

/** The name opening the sender's one-line return address. */
function returnAddressSender(page: Page, v: Vocabulary): Party | undefined {
  // The sender's one-line return address over a window envelope's address block ("Schreinerei Vogt · Talstraße 2 ·
  // 72070 Tübingen") opens with the issuer's name.
  const sender = returnAddress(page);
  const senderName = sender?.cell.text.split(RETURN_ADDRESS_SEPARATOR)[0]?.trim();
  if (sender && senderName && nameLike(senderName, v)) return { line: sender.line, name: senderName };
  return undefined;
}

/** A candidate line (not the first) right above its own postal address, from the first line of its block. */
function nameOverOwnAddress(page: Page, top: Line[], v: Vocabulary): Party | undefined {
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
  if (!withAddress || withAddress === top[0]) return undefined;
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

/** The first candidate line as the letterhead when it is printed larger near the top, or the legal name of its brand. */
function largerLetterhead(doc: DocLayout, page: Page, top: Line[], v: Vocabulary): Party | undefined {
  // A first line printed larger than the body text is the letterhead (receipts rarely print a legal form).
  const heights = page.lines.map((l) => l.y1 - l.y0).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  // (Only its first cell: a title printed on the same line, "Factura Nº: 2024-0456", is not part of the name.)
  if (top[0] && top[0].y1 - top[0].y0 >= median * LARGER_PRINT && top[0].y0 < page.height * LETTERHEAD_ZONE) {
    const head = (segments(top[0], CELL_GAP)[0]?.text ?? top[0].text).trim();
    return legalNameOf(doc, head, v) ?? { line: top[0], name: head };
  }
  return undefined;
}

/** The first legal name of the document not printed within BUYER_ZONE_LINES after a buyer word. */
function legalNameOutsideBuyerZone(doc: DocLayout, v: Vocabulary): Party | undefined {
  const lines = doc.pages.flatMap((p) => p.lines);
  let buyerZone = -10;
  for (const [i, l] of lines.entries()) {
    if (conceptTokens(l.text).includes('buyer')) buyerZone = i;
    if (i - buyerZone <= BUYER_ZONE_LINES) continue;
    const name = legalName(cellText(l), v);
    if (name) return { line: l, name };
  }
  return undefined;
}

/** The first candidate line that is not contact data. */
function firstContentLine(top: Line[]): Party | undefined {
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
  // (Any page: a footer may be printed on the last page only. Cell by cell, and never the bank's: a footer row
  // "ACME ‖ Bank details: Example Bank N.V." names the bank beside the issuer, not a legal name of the brand.)
  for (const l of doc.pages.flatMap((p) => p.lines))
    for (const part of cellText(l)
      .split(/\s‖\s/)
      .flatMap((c) => c.split(RETURN_ADDRESS_SEPARATOR))) {
      if (v.party.bank.test(part)) continue;
      const name = legalName(part.replace(/^\s*©\s*\d{4}\s*/, ''), v);
      if (name && words(name).startsWith(`${want} `)) return { line: l, name };
    }
  return undefined;
}

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
export function withoutNoiseEdges(line: Line, name: string): string {
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

/** A legal form printed alone under a name belongs to it when the gap is under this many line heights. */
const LEGAL_WRAP_GAP = 1.2;
/** A line printed at least 15 % taller than the page's median line: a letterhead or title. */
function isLarger(page: DocLayout['pages'][number], l: Line): boolean {
  const heights = page.lines.map((x) => x.y1 - x.y0).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  return l.y1 - l.y0 >= median * LARGER_PRINT;
}
