import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { findDates } from '../parsers/date.parser.js';
import { correctWords } from '../locales/locale.corrections.js';
import { CURRENCY_MARK_SOURCE, REGISTRATION_CODE } from '../locales/locale.registry.js';
import type { Vocabulary } from '../locales/locale.vocabulary.js';

/**
 * The postal address block of a document's issuer, found by candidates and scoring rather than by walking down from
 * the name: every run of up to {@link MAX_ADDRESS_LINES} consecutive lines in the page's upper part that ends in a
 * postcode-and-town line (or a region line) is a candidate; lines that cannot be part of an address (contact details,
 * dates, titles, receipt body lines, labelled details, long identifiers) end a run; each candidate is scored by the
 * named features of {@link ADDRESS_FEATURES} and the best one wins.
 */

/** Mean OCR confidence of a line (1 for text layers). */
export function lineConf(l: Line): number {
  return l.words.length ? l.words.reduce((s, w) => s + w.conf, 0) / l.words.length : 0;
}
/** Below this mean confidence an OCR line is a logo, stamp or smudge read as letters, not printed text. */
export const NOISE_CONF = 0.35;
/** A line that is only a company registration code of a pack's shape (`registrationCodes`), possibly OCR-broken. */
export function isRegistrationCode(t: string): boolean {
  return !/\p{L}{3}/u.test(t) && REGISTRATION_CODE.test(t);
}
// Street words that mark a line as part of an address come from the locale packs (`addressWords`).
// A postcode with its town ("12345 KOTA BETA", "54321, BANDAR CONTOH", "Musterstadt 12345"); a lot or house number
// ("LOT 1234-A", "7/118B") is not one. Other shapes ("1234 AB Stad", "00-950 Miasto", "SW1A 2AA Town") are the
// locale packs' `postcodes`.
const POSTCODE = /(?:^|[\s,\-])\d{4,6}(?=[\s,]+\p{L}{3,})|\p{L}{3,},?\s+\d{4,6}\.?\s*$/u;
/** A postcode followed by a street word ("4321, JALAN CONTOH") is a lot number. */
export function isPostcodeLine(t: string, v: Vocabulary): boolean {
  for (let from = 0; from < t.length;) {
    const rest = t.slice(from);
    const m = [POSTCODE.exec(rest), v.postcode.exec(rest)].filter((x) => x !== null).sort((a, b) => a.index - b.index)[0];
    if (!m) return false;
    const end = from + m.index + m[0].length;
    const next = /^[\s,]*(\p{L}+)/u.exec(t.slice(end))?.[1] ?? '';
    if (end >= t.trimEnd().length || !v.addressWord.test(next)) return true;
    from = end;
  }
  return false;
}
/** A line of only region, state or country names (locale packs' `regions`), the last line of an address. */
export function isRegionLine(t: string, v: Vocabulary): boolean {
  // (A stray mark of one or two characters beside it, "3 ‖ SELANGOR", is OCR noise.)
  const core = t
    .split(/\s+/)
    .filter((w) => !/^[^\p{L}]{1,2}$/u.test(w))
    .join(' ');
  const ws = core.toLowerCase().match(/\p{L}+/gu) ?? [];
  return ws.length > 0 && ws.length <= MAX_REGION_WORDS && !/\d/.test(core) && ws.every((w) => v.regions.has(w));
}
/** A region line names at most this many words ("Wilayah Persekutuan Kuala Lumpur" is four). */
const MAX_REGION_WORDS = 4;

/** Weights of the address-block features (one table: tune here, nowhere else). */
export const ADDRESS_FEATURES = {
  /** The block holds a postcode-and-town line. */
  postcodeLine: 3,
  /** A state / region / country line closes the block. */
  regionLine: 1,
  /**
   * Its first line opens with a house, lot or unit number or a street word ("No. 7", "Lot 12", "Level 3", "12,"), or
   * ends in a comma that the block's next line continues ("Parking Office, Basement 2," over the street line).
   */
  startsLikeAddress: 2,
  /** Per line holding a street or building word of the active locale packs. */
  addressWordLine: 1,
  /** Per line with neither a figure nor an address word (a locality name; a tagline or a brand line). */
  bareLine: -0.5,
  /** Its first line has no figure and no address word (the block should start at the street line). */
  bareStart: -1,
  /** Per line between the issuer's name and the block's first line. */
  issuerGap: -0.3,
  /** The block is printed above the issuer's name (an issuer's address follows its name). */
  aboveIssuer: -2,
  /** Per line above the block's first line (the issuer's block comes first; an addressee's is printed lower). */
  linePosition: -0.05,
  /** Per bare line read with low OCR confidence (a logo, a smudge). */
  noisyLine: -1.5,
} as const;

/** An address block has at most this many lines (street, building, locality, postcode line, region). */
const MAX_ADDRESS_LINES = 5;
/** Lines after the postcode line that may still belong to it (a region or a further street line). */
const MAX_AFTER_POSTCODE = 2;
/** A town line closing a street line has at most this many words. */
const MAX_TOWN_WORDS = 3;
/** The block lies in this upper share of page 1 … */
const ADDRESS_ZONE = 0.5;
/** … and within this many lines of its top. */
const MAX_SCAN_LINES = 25;
/** A run of this many digits (ignoring separators inside it) is a phone number or an identifier, not an address. */
const ID_DIGITS = 7;
/** A postcode printed last on a line ("SEKSYEN 4, BANDAR CONTOH, 12345"), its town on the next line. */
const POSTCODE_AT_END = /(?:^|[\s,])\d{4,6}[.,]?\s*$/;
/** A line ending in a comma is continued by the next line: an address part, never a name or a title. */
const CONTINUED = /,\s*$/;
/** A candidate must score at least this much (a postcode line alone, or a region line with a street line). */
const MIN_ADDRESS_SCORE = 2;

const ID_RUN = new RegExp(`\\d(?:-?\\d){${ID_DIGITS - 1}}`);
// An amount with cents (house-number lists "55,57 & 59" look alike, so one alone is not enough; see isAmountLine).
const AMOUNT = /(?<![\d.,])\d+\.\d{2}(?![\d.,])/g;
const CURRENCY_AMOUNT = new RegExp(`(?:${CURRENCY_MARK_SOURCE}|[$€£])\\s?\\d+[.,]\\d{2}\\b`, 'iu');
/** Item and total lines print two or more amounts, or one with a currency mark. */
function isAmountLine(t: string): boolean {
  return (t.match(AMOUNT) ?? []).length >= 2 || CURRENCY_AMOUNT.test(t);
}
// A labelled detail ("Site: 12", "Reg No: 4"): a label word before a colon at the start.
const LABELLED = /^\W*\p{L}[\p{L} .#]{0,20}:/u;

export interface AddressBlock {
  lines: Line[];
  words: Word[];
  text: string;
}

/**
 * The part of a line before its contact details ("12345 TOWN TEL: 01-2345"), or undefined when the line cannot be part
 * of an address: a registration code, a document title, a receipt body line (totals, cashier, items), a labelled
 * detail, a tax-registration line (the packs' `receiptBodyWords`, `documentTitles`, `registrationLabels`, `contactWords`).
 */
function addressPart(l: Line, v: Vocabulary): { words: Word[]; text: string } | undefined {
  const t = l.text.trim();
  // (A label that is a street or building word, "Lot No: 12, Level 3", opens an address line, not a detail.)
  const labelled = LABELLED.test(t) && !v.addressWord.test(/^\W*(\p{L}+)/u.exec(t)?.[1] ?? '');
  if (!t || /^\(.*\)$/.test(t) || isRegistrationCode(t) || v.party.receiptBody.test(t) || v.party.documentTitle.test(t) || labelled)
    return undefined;
  const cut = l.words.findIndex((w) => v.party.contactWord.test(w.text));
  let words = cut >= 0 ? l.words.slice(0, cut) : l.words;
  // (An identifier printed before the address on the same line, "(REG 0012345678) NO 5, JALAN CONTOH …", is cut off.)
  const lastId = words.findLastIndex((w) => ID_RUN.test(w.text));
  if (lastId >= 0) words = words.slice(lastId + 1);
  const text = words
    .map((w) => w.text)
    .join(' ')
    .replace(/^[^\p{L}\d]+/u, '')
    .trim();
  if (v.party.registrationLabel.test(text)) return undefined;
  if (!text || findDates(text).length || v.party.time.test(text) || isAmountLine(text) || ID_RUN.test(text)) return undefined;
  return { words, text };
}

/** The lines of page 1 an address block is looked for in, with what findAddressBlock's stages read of them. */
interface AddressScan {
  page: Page;
  v: Vocabulary;
  lines: Line[];
  /** Index of the issuer's name line among `lines` (-1 when unknown). */
  at: number;
  /** Each line's address part (undefined: the issuer's line, or a line no address holds). */
  parts: ({ words: Word[]; text: string } | undefined)[];
  /** Line `i`'s address part with OCR look-alikes corrected. */
  fixed: (i: number) => string;
  /** Postcode lines, and the line whose postcode at its end has its town on the next line. */
  postcodeAt: boolean[];
  /** The town line under such a postcode. */
  townAfter: boolean[];
}

/** Finds the best-scoring address block in the upper part of page 1; `issuer` is the issuer's name line, if known. */
export function findAddressBlock(doc: DocLayout, v: Vocabulary, issuer?: Line): AddressBlock | undefined {
  const page = doc.pages[0];
  if (!page) return undefined;
  const scan = addressScan(page, v, issuer);
  const best = bestBlock(scan);
  if (!best) return undefined;
  const chosen = scan.parts.slice(best.from, best.to + 1) as { words: Word[]; text: string }[];
  const text = chosen.map((p) => p.text).join(' ');
  return {
    lines: scan.lines.slice(best.from, best.to + 1),
    words: chosen.flatMap((p) => p.words),
    text: page.ocr ? correctWords(text, v) : text,
  };
}

function addressScan(page: Page, v: Vocabulary, issuer: Line | undefined): AddressScan {
  const lines = page.lines.slice(0, MAX_SCAN_LINES).filter((l) => l.y0 < page.height * ADDRESS_ZONE || !page.ocr);
  const at = issuer ? lines.indexOf(issuer) : -1;
  const parts = lines.map((l) => (l === issuer ? undefined : addressPart(l, v)));
  const fixed = (i: number) => correctWords(parts[i]!.text, v);
  const scan: AddressScan = { page, v, lines, at, parts, fixed, postcodeAt: [], townAfter: [] };
  // Postcode lines, and a postcode printed at a line's end whose town is the next line ("…, 12345" / "KOTA BETA").
  // (Read with the OCR look-alikes undone: a postcode printed "4O0O0" is one.)
  scan.postcodeAt = lines.map((_, i) => !!parts[i] && isPostcodeLine(fixed(i), v));
  scan.townAfter = lines.map((_, i) => i > 0 && !!parts[i - 1] && POSTCODE_AT_END.test(fixed(i - 1)) && isTownLine(scan, i));
  scan.townAfter.forEach((t, i) => t && (scan.postcodeAt[i - 1] = true));
  return scan;
}

/** The best-scoring block: every run of lines ending in a postcode, region or street line, from every start above it. */
function bestBlock(scan: AddressScan): { score: number; from: number; to: number } | undefined {
  const { lines, parts, postcodeAt, fixed, v } = scan;
  let best: { score: number; from: number; to: number } | undefined;
  for (let end = 0; end < lines.length; end++) {
    if (!parts[end]) continue;
    const postcode = postcodeAt[end]!;
    if (!postcode && !isRegionLine(fixed(end), v) && !v.addressWord.test(fixed(end))) continue;
    const to = blockEnd(scan, end, postcode);
    for (let start = end; start >= 0 && end - start < MAX_ADDRESS_LINES && parts[start]; start--) {
      const score = scoreBlock(scan, start, to);
      if (score >= MIN_ADDRESS_SCORE && (!best || score > best.score)) best = { score, from: start, to };
    }
  }
  return best;
}

/** The last line of a block whose postcode, region or street line is line `end`. */
function blockEnd(scan: AddressScan, end: number, postcode: boolean): number {
  const { lines, parts, townAfter, fixed, v } = scan;
  // The trailing lines a postcode line may carry: a region or another street line.
  let to = townAfter[end + 1] ? end + 1 : end;
  // (A street line without a postcode may be closed by its town: one short bare line that ends the run.)
  if (!postcode && isTownLine(scan, to + 1) && !parts[to + 2]) to++;
  while (
    postcode &&
    to + 1 < lines.length &&
    to - end < MAX_AFTER_POSTCODE + (townAfter[end + 1] ? 1 : 0) &&
    parts[to + 1] &&
    (isRegionLine(fixed(to + 1), v) || v.addressWord.test(fixed(to + 1)))
  )
    to++;
  return to;
}

function isTownLine({ parts, fixed }: AddressScan, i: number): boolean {
  const t = parts[i] ? fixed(i) : '';
  return !!t && !/\d/.test(t) && t.split(/\s+/).length <= MAX_TOWN_WORDS && t === t.toUpperCase() && /\p{L}{3}/u.test(t);
}

function scoreBlock(scan: AddressScan, start: number, to: number): number {
  const { page, lines, postcodeAt, townAfter, fixed, v, at } = scan;
  const W = ADDRESS_FEATURES;
  let s = 0;
  for (let i = start; i <= to; i++) {
    const t = fixed(i);
    if (postcodeAt[i]) s += W.postcodeLine;
    else if (townAfter[i]) continue;
    else if (isRegionLine(t, v)) s += i === to ? W.regionLine : 0;
    else if (v.addressWord.test(t)) s += W.addressWordLine;
    else if (!/\d/.test(t) && !(i === to && isTownLine(scan, i))) s += W.bareLine;
    if (page.ocr && !/\d/.test(t) && !v.addressWord.test(t) && lineConf(lines[i]!) < NOISE_CONF) s += W.noisyLine;
  }
  const first = fixed(start);
  // (A block opening with its postcode line has lost its street line: the postcode's figures are no house number.)
  const postcodeFirst = postcodeAt[start] && !v.addressWord.test(first);
  const opens = v.party.houseOpener.test(first) || v.addressWord.test(first.split(/\s+/)[0] ?? '') || (start < to && CONTINUED.test(first));
  if (!postcodeFirst && opens) s += W.startsLikeAddress;
  else if (!/\d/.test(first) && !v.addressWord.test(first)) s += W.bareStart;
  if (at >= 0) s += start > at ? W.issuerGap * (start - at - 1) : W.aboveIssuer;
  s += W.linePosition * start;
  return s;
}
