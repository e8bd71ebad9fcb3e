import type { DocLayout, Line } from '../layout/layout.types.js';
import { conceptTokens } from './label.matcher.js';
import { CELL_GAP, segments } from '../layout/layout.builder.js';
import { isLabelText } from './constraints.js';
import { correctWords } from '../locales/locale.corrections.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';
import type { Vocabulary } from '../locales/locale.vocabulary.js';
import { isPostcodeLine, isRegionLine } from './address.block.js';

// Party names and the blocks they head, shared by the issuer and addressee searches (semantic.issuer.ts,
// semantic.addressee.ts): legal forms, name-like lines, columns, buyer labels and window-envelope blocks.

/** The sender's one-line return address is printed in this upper fraction of page 1. */
export const RETURN_ADDRESS_ZONE = 0.4;
/** A one-line return address has at least this many parts separated by bullets or bars. */
export const RETURN_ADDRESS_PARTS = 3;

/** The parts of a window-envelope block (return address, address lines, title under it) are under this many line heights apart. */
export const WINDOW_GAP = 3;
/** Lines of one block (a name, its wrapped part, a label over it) follow with a gap under this many line heights. */
export const BLOCK_GAP = 1.5;
/** Lines of one column start within this many line heights of each other. */
export const COLUMN_ALIGN = 1.5;
/** A letterhead or a title is printed in this upper fraction of the page. */
export const LETTERHEAD_ZONE = 0.25;
/** A line printed this many times taller than the page's median line is a letterhead or title. */
export const LARGER_PRINT = 1.15;

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
export function sameColumn(a: Line, b: Line): boolean {
  return Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > 0;
}

export function legalName(text: string, v: Vocabulary): string | undefined {
  const segs = text.split(/\s{2,}| - | \| | ● | ‖ /);
  for (const [i, cell] of segs.entries()) {
    // (A bank named after its label, "Bankverbindung: Musterbank AG", is where the money goes, not who is paid.)
    if (v.party.bankLabel.test(cell)) continue;
    const seg = withLegalFormCell(cell, segs[i + 1], v);
    const m = v.legalForm.exec(seg.trim().replace(v.party.partyPrefix, ''));
    if (m && !/\d{3}/.test(m[1]!) && /\p{L}{2}/u.test(m[1]!)) return m[1]!.trim();
  }
  return undefined;
}

/**
 * A cell followed by a cell holding only a legal form ("ACME TRADING ‖ SDN BHD": OCR set the form apart at a wide gap)
 * is the name with that form, a speck of one or two marks or figures read between them left out ("ACME 9 ‖ SDN BHD").
 */
function withLegalFormCell(cell: string, next: string | undefined, v: Vocabulary): string {
  const form = next?.trim();
  if (!form || !v.legalFormOnly.test(form) || v.legalFormOnly.test(cell.trim())) return cell;
  return `${cell.trim().replace(/\s+[^\p{L}\s]{1,2}$/u, '')} ${form}`;
}

/** The separators between the parts of a one-line return address. */
export const RETURN_ADDRESS_SEPARATOR = /\s[●•·|]\s/;

/** A sentence has at least this many words. */
const SENTENCE_WORDS = 3;
/** Sentences (three words or more ending in a full stop or exclamation mark) are notes, not names. */
export function isSentence(t: string, v: Vocabulary): boolean {
  const s = withoutLegalDot(t.trim(), v);
  return s.split(/\s+/).length >= SENTENCE_WORDS && /[.!]$/.test(s) && !v.legalForm.test(t.trim());
}
/**
 * A line with a street or building word, a postcode line or a region line is part of an address, never a name
 * (a name with its legal form is let through by the callers: "Plaza Hotels Ltd").
 */
export function isAddressLine(t: string, v: Vocabulary): boolean {
  const c = correctWords(t, v);
  return v.addressWord.test(c) || isPostcodeLine(c, v) || isRegionLine(c, v);
}

// A line naming a person to the attention of whom a letter is addressed: the packs' `salutations`.

/** A column's next line follows with a gap under this many line heights (more is a paragraph gap). */
const COLUMN_LINE_GAP = 1.2;
/** A line with nothing in the column ends it unless it is under this many line heights below (a line beside it). */
const COLUMN_SKIP_GAP = 0.3;
/** A salutation or attention line opens the block when among this many lines under the name. */
const SALUTATION_REACH = 3;
/** The cells of the lines right under a cell, in its column, as long as they follow without a paragraph gap. */
export function columnBelow(page: DocLayout['pages'][number], k: number, cell: Line, max: number, firstGap = COLUMN_LINE_GAP): Line[] {
  const h = cell.y1 - cell.y0;
  const out: Line[] = [];
  let prev = cell;
  for (let j = k + 1; j < page.lines.length && out.length < max; j++) {
    const l = page.lines[j]!;
    if (l.y0 - prev.y1 > h * (out.length ? COLUMN_LINE_GAP : firstGap)) break;
    // (Flush left with the cell, or flush right under it: a block set against the right margin.)
    const cells = segments(l, CELL_GAP);
    const s =
      cells.find((c) => Math.abs(c.x0 - cell.x0) < h * COLUMN_ALIGN) ??
      cells.find((c) => Math.abs(c.x1 - cell.x1) < h * COLUMN_ALIGN && sameColumn(c, cell));
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
export function addressedTo(page: DocLayout['pages'][number], l: Line, v: Vocabulary): boolean {
  const k = page.lines.indexOf(l);
  const first = segments(l, CELL_GAP)[0];
  return !!first && columnBelow(page, k, first, SALUTATION_REACH).some((c) => v.party.salutation.test(c.text.trim()));
}

/** An addressee block has at most this many lines under its first one… */
export const MAX_ADDRESSEE_LINES = 5;
/** …and at least this many address lines under the name. */
export const MIN_ADDRESSEE_LINES = 2;

/** A buyer label is looked for this many lines above the name. */
const BUYER_LABEL_REACH = 2;
/** A buyer label ("Bill to", "Factuur aan") has at most this many words. */
const MAX_LABEL_WORDS = 4;
/**
 * Is line `l` one of the lines of a block under a buyer label: the line right under it, or a later line of the same
 * block (a contact or department line, "Practice Manager", between the name and the street)?
 */
export function inBuyerBlock(page: DocLayout['pages'][number], l: Line): boolean {
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
export function underBuyerLabel(page: DocLayout['pages'][number], l: Line): boolean {
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
export function cellText(l: Line): string {
  return segments(l, CELL_GAP)
    .map((s) => s.text.trim())
    .join(' ‖ ');
}

/** The text without the closing dot of a legal-form abbreviation ("Ltd.", "Lda.", "s.r.o."): that dot ends no sentence. */
export function withoutLegalDot(s: string, v: Vocabulary = allPacksVocabulary()): string {
  return s.replace(v.party.legalDot, '');
}

/** A company name has at most this many words. */
const MAX_NAME_WORDS = 6;
/** A short line that can be a company name on its own: words, no figures, not a label, a title or a sentence. */
export function nameLike(t: string, v: Vocabulary): boolean {
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
    !v.greeting.test(s) &&
    !FRAMED.test(s)
  );
}
/** A line set between decoration marks ("* FRESH DAILY *", "~ Est. by the sea ~", "-- OPEN 24 HOURS --"): a tagline. */
const FRAMED = /^[*~=#•<>-]+\s*\S.*\S\s*[*~=#•<>-]+$/u;

/** An addressee's window block starts right of this fraction of the page width. */
const WINDOW_LEFT = 0.45;
/**
 * An address block printed right of centre with the document title straight under it, or under the sender's
 * one-line return address ("Firm ● Street 1 ● 12345 Town"), is the addressee's window block.
 */
export function isAddresseeBlock(page: DocLayout['pages'][number], l: Line, v: Vocabulary): boolean {
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
