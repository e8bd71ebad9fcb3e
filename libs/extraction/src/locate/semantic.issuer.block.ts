import type { DocLayout, Line } from '../layout/layout.types.js';
import { conceptTokens, isKnownConcept, weightOf } from './label.matcher.js';
import { CELL_GAP, segments } from '../layout/layout.builder.js';
import type { Vocabulary } from '../locales/locale.vocabulary.js';
import { findAddressBlock, isRegistrationCode, lineConf, NOISE_CONF } from './address.block.js';
import { addressedTo, inBuyerBlock, isAddressLine, isAddresseeBlock, legalName, nameLike } from './semantic.parties.js';

// The issuer's name printed over the page's address block (a shop's or a firm's name over its street and town).

/** Lines between an issuer's name and its address block (a registration code, a branch line, a smudge) at most. */
const MAX_NAME_TO_ADDRESS = 3;

/**
 * The name printed right above the page's address block (address.block.ts), registration codes and OCR noise in
 * between skipped, is the issuer's; a name wrapped over two lines is joined.
 */
export function nameAboveAddress(doc: DocLayout, v: Vocabulary): { line: Line; name: string } | undefined {
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
    // (A building or mall line over the street, "CONTOH SQUARE SHOPPING MALL", is the address's, not the name's.)
    if (isAddressLine(t, v) && !legalName(t, v)) continue;
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
/** A name continues on the next line when the gap between them is under this many line heights. */
const WRAP_GAP = 0.8;
/** A line over a name at least this many times its height is a letterhead over its tagline, not a wrapped name. */
const TAGLINE_RATIO = 1.4;
