import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { findDates } from '../parsers/date.parser.js';
import { conceptTokens, isKnownConcept, weightOf, fold } from './label.matcher.js';
import { CELL_GAP, segments } from '../layout/layout.builder.js';
import { vocabularyOf } from '../document.context.js';
import { correctWords, type Vocabulary } from '../locales/locale.registry.js';
import { findAddressBlock, isRegionLine, isRegistrationCode, lineConf, NOISE_CONF } from './address.block.js';
import { footerIssuer, payeeIssuer } from './semantic.footer.js';
import {
  addressedTo,
  BLOCK_GAP,
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

/** A line printed at least 15 % taller than the page's median line: a letterhead or title. */
function isLarger(page: DocLayout['pages'][number], l: Line): boolean {
  const heights = page.lines.map((x) => x.y1 - x.y0).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 0;
  return l.y1 - l.y0 >= median * LARGER_PRINT;
}
