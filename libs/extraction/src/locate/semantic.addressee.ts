import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { conceptTokens, isKnownConcept, weightOf } from './label.matcher.js';
import { CELL_GAP, segments } from '../layout/layout.builder.js';
import { vocabularyOf } from '../document.context.js';
import type { Vocabulary } from '../locales/locale.vocabulary.js';
import { isPostcodeLine } from './address.block.js';
import { isLabelText } from './constraints.js';
import { findIssuer } from './semantic.issuer.js';
import { SPECIFIC_CONCEPT_WEIGHT } from './semantic.dates.js';
import {
  columnBelow,
  isAddressLine,
  legalName,
  MAX_ADDRESSEE_LINES,
  MIN_ADDRESSEE_LINES,
  nameLike,
  RETURN_ADDRESS_PARTS,
  RETURN_ADDRESS_SEPARATOR,
  RETURN_ADDRESS_ZONE,
  sameColumn,
  WINDOW_GAP,
} from './semantic.parties.js';

/** The addressee's name is one of this many lines under the return address. */
const RETURN_NAME_LINES = 2;
/** …starting within this many line heights of the return address's left edge. */
const RETURN_NAME_INDENT = 2;

/**
 * Addressee without a label: the first line under the sender's one-line return address printed above a
 * window-envelope address block ("Firm ● Street 1 ● 12345 Town").
 */
export function returnAddressee(page: Page, v: Vocabulary): { line: Line; words: Word[]; name: string } | undefined {
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
    // (A salutation alone, "Frau" / "Herrn", opens the block: the name is on the line under it; so does a labelled
    // number of the addressee's, "Kundennr. 30021".)
    const lead = next && segments(next, CELL_GAP)[0]?.text.trim();
    if (next && lead && ((v.party.salutation.test(lead) && !/\s/.test(lead)) || (/\d/.test(lead) && isLabelText(lead))))
      next = page.lines
        .slice(page.lines.indexOf(next) + 1)
        .find((b) => Math.abs(b.x0 - first.x0) < h * RETURN_NAME_INDENT && b.y0 - next!.y1 < h * WINDOW_GAP);
    const name = next && segments(next, CELL_GAP)[0]?.text.trim();
    if (next && name && /\p{L}{2}/u.test(name) && !/\d/.test(name)) return { line: next, words: segments(next, CELL_GAP)[0]!.words, name };
    break;
  }
  return undefined;
}

/** A name's first address line may follow it with a gap of up to this many line heights. */
const NAME_ADDRESS_GAP = 2;
/** The addressee's block starts in this upper fraction of page 1. */
const ADDRESSEE_ZONE = 0.45;

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
  const issuerColumn = issuer && issuerCell ? columnBelow(page, page.lines.indexOf(issuer.line), issuerCell, MAX_ADDRESSEE_LINES) : [];
  // (The issuer's block ends at a heading in its column, "Client:": the block under it is another party's.)
  const heading = issuerColumn.findIndex((c) => /:$/.test(c.text.trim()));
  const issuerBlock = heading < 0 ? issuerColumn : issuerColumn.slice(0, heading);
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
