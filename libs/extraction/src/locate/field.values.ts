/** Reading a labelled field's value off the page: the words right of or below a label, and the values in them. */
import type { FieldDef } from '../engine.types.js';
import { CELL_GAP, segments, spaceBetween } from '../layout/layout.builder.js';
import type { Line, Word } from '../layout/layout.types.js';
import { findTyped, type DocContext } from '../parsers/value.parser.js';
import { conceptTokens, isKnownConcept, lineConcepts, weightOf } from './label.matcher.js';
import { ISO_CODES, withoutIsoCodes } from '../parsers/currency.parser.js';
import { findDates } from '../parsers/date.parser.js';
import { plausible, refine } from './field.rules.js';
import { isLabelText, isLegalFormOnly, isPartyField, notAnAmount } from './constraints.js';
import { allPacksVocabulary } from '../locales/locale.registry.js';
import { legalName } from './semantic.parties.js';

const textOf = (ws: Word[]) => ws.map((w) => w.text).join(' ');

/** The box around some words: [x0, y0, x1, y1]. */
export function box(ws: readonly Word[]): [number, number, number, number] {
  return [
    Math.min(...ws.map((w) => w.x0)),
    Math.min(...ws.map((w) => w.y0)),
    Math.max(...ws.map((w) => w.x1)),
    Math.max(...ws.map((w) => w.y1)),
  ];
}

/** Text of a word list plus each word's start offset in it, to map parsed values back to words. */
export function textWithOffsets(ws: Word[]): { text: string; starts: number[] } {
  const starts: number[] = [];
  let text = '';
  for (const [i, w] of ws.entries()) {
    // A space only where there is a visual gap, as in the line's text: PDF runs are often split mid-word
    // ("RE-20" "201121" "/50" "8" is one invoice number).
    const prev = ws[i - 1];
    if (text && (!prev || spaceBetween(prev, w))) text += ' ';
    starts.push(text.length);
    text += w.text;
  }
  return { text, starts };
}

/** The words printing characters [index, index + length) of their textWithOffsets text (all of them when none do). */
export function wordsIn(ws: Word[], starts: number[], index: number, length: number): Word[] {
  const out = ws.filter((_, i) => starts[i]! < index + length && starts[i]! + ws[i]!.text.length > index);
  return out.length ? out : ws;
}

/** The text printed on `line` before the run `ws` (before word `fallback` when the run is not the line's own words). */
export function leadOf(line: Line, ws: Word[], fallback: number): string {
  const i = ws.length ? line.words.indexOf(ws[0]!) : -1;
  return line.words
    .slice(0, i >= 0 ? i : fallback)
    .map((w) => w.text)
    .join(' ');
}

/** Candidate values for `field` in one run of words; best first. */
export function valuesIn(ws: Word[], field: FieldDef, ctx: DocContext, lead = ''): { value: unknown; quality: number; words: Word[] }[] {
  if (!ws.length) return [];
  const { text, starts } = textWithOffsets(ws);
  // (Identifier shapes count only for fields that do not ask for a number or id themselves.)
  const idsOk = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`).some((c) => c === 'number' || c === 'id');
  // Plausibility is judged on the refined value: "Date : 02 Juillet" must not survive as the number "Date".
  const amount = field.data_type === 'number' || field.data_type === 'currency';
  const found = findTyped(text, field.data_type, ctx)
    // An amount is never a year, postcode, phone number or part of an identifier.
    .filter((f) => !amount || !notAnAmount(text, f.index, f.length, lead, idsOk))
    .filter((f) => plausible(field, f.value))
    .map((f) => ({ ...f, value: refine(field, f.value) }))
    .filter((f) => plausible(field, f.value));
  return found.map((f) => ({ value: f.value, quality: f.quality, words: wordsIn(ws, starts, f.index, f.length) }));
}

export function meanConf(ws: Word[]): number {
  return ws.length ? ws.reduce((s, w) => s + w.conf, 0) / ws.length : 0;
}

/** Words of the line right after the label, up to the next wide gap (a new column) for strings. */
export function rightOf(line: Line, end: number, field: FieldDef): Word[] {
  let ws = line.words.slice(end);
  // Skip separators printed between label and value.
  while (ws.length && /^[:#\-–—.|]+$/.test(ws[0]!.text)) ws = ws.slice(1);
  if (!ws.length) return [];
  // A short cell ending with a colon right of the label is the next label ("Bill To: ‖ Ship To:").
  const firstCell = segments({ ...line, words: ws }, CELL_GAP)[0]?.words ?? [];
  // (Abbreviated labels too: "Seller: ‖ Invoice No.: …".)
  if (field.data_type === 'string' && firstCell.length <= 3 && /\p{L}{2,}\.?:$/u.test(firstCell[firstCell.length - 1]?.text ?? ''))
    return [];
  // A party heading right of the label ("Bill To ‖ Ship To ‖ Invoice # ‖ 10457") is the neighbouring block's label.
  if (field.data_type === 'string' && isRoleHeading(firstCell)) return [];
  // A row of labels ("Invoice number ‖ Date of issue ‖ Date due", "Bill To ‖ Ship To") prints the values under them:
  // the next cell is the neighbouring label, not this one's value.
  if (field.data_type === 'string' && isLabelRow(line, end)) return [];
  // The value ends where the next label ("Date:") starts.
  let next = ws.findIndex((w, i) => i > 0 && /\p{L}{2,}:$/u.test(w.text));
  // … unless the label goes on up to that colon, in the same cell and before any figure but a rate: "Total Inclusive
  // GST: 36.00", "Total Amt Payable: RM 30.00", "VAT 20% Tax: 201.00", "Date of issue: 12.03.2020" (a label ending in
  // ":" is complete).
  if (field.data_type !== 'string' && next > 0 && next <= 3 && !/:$/.test(line.words[end - 1]?.text ?? ':')) {
    const cell = segments({ ...line, words: line.words.slice(end - 1) }, CELL_GAP)[0]?.words ?? [];
    const figure = (w: Word, i: number) => /\d/.test(w.text) && !/%$/.test(w.text) && ws[i + 1]?.text !== '%';
    if (cell.includes(ws[next]!) && !ws.slice(0, next + 1).some(figure)) {
      ws = ws.slice(next + 1);
      next = ws.findIndex((w, i) => i > 0 && /\p{L}{2,}:$/u.test(w.text));
    }
  }
  if (next > 0) ws = ws.slice(0, next);
  if (field.data_type === 'string') {
    // A string value stops at the first wide gap (the next column) after the value starts; a cell that
    // opens with "Word:" is the next label, not a value.
    const segs = segments({ ...line, words: ws }, CELL_GAP);
    const first = segs[0]?.words ?? [];
    if (first.length && /\p{L}{2,}:$/u.test(first[0]!.text)) return [];
    return first;
  }
  // Typed values: the label's own cell, then following cells until one that holds words (another label or
  // column header, as in "Tax ‖ Base ‖ Amount ‖ Net total 2,076.76").
  const segs = segments({ ...line, words: ws }, CELL_GAP);
  const holdsWords = (seg: Line) => {
    // (A date field's cell may spell its month: "Fällig am: ‖ 29. März 2024" is a value, not the next label.)
    const spelledDate = field.data_type === 'date' && findDates(seg.text).length > 0;
    // (A currency code is no word, alone or glued to its figure: "GBP", "(EUR)", "GBP61,459.86".)
    return !spelledDate && seg.words.some((w) => /\p{L}{3,}/u.test(w.text) && !ISO_CODES.has(w.text.replace(/\P{L}/gu, '')));
  };
  // (A cell of words only, set apart from the label, is the next label: "Montant TVA ‖ Total HT ‖ 875,00", a VAT
  // breakdown's header beside the totals block.)
  const labelCell = segments({ ...line, words: line.words.slice(end - 1) }, CELL_GAP)[0]?.words ?? [];
  const apart = !labelCell.includes(ws[0]!);
  if (apart && segs[0] && !/\d/.test(segs[0].text) && holdsWords(segs[0])) return [];
  const out: Word[] = [...(segs[0]?.words ?? [])];
  for (const seg of segs.slice(1)) {
    if (holdsWords(seg)) break;
    out.push(...seg.words);
  }
  return out;
}

/** Party roles a heading names ("Ship To", "Customer", "Sold by"). */
const ROLE_CONCEPTS = new Set(['buyer', 'seller']);

/** A short cell without figures naming a party role and nothing else: a block's heading, never a party's name. */
function isRoleHeading(cell: Word[]): boolean {
  const text = cell.map((w) => w.text).join(' ');
  const concepts = conceptTokens(text);
  return cell.length > 0 && cell.length <= 3 && !/\d/.test(text) && concepts.length > 0 && concepts.every((c) => ROLE_CONCEPTS.has(c));
}

/**
 * Does the line from the label on consist of labels only: two or more cells, none with a figure, each a few words
 * of which one is a known label word (number, date, buyer …)? Such a row is the head of a grid of values.
 */
export function isLabelRow(line: Line, end: number): boolean {
  const segs = segments(line, CELL_GAP);
  const from = segs.findIndex((s) => line.words.indexOf(s.words[s.words.length - 1]!) >= end - 1);
  const cells = segs.slice(Math.max(0, from));
  if (cells.length < 2) return false;
  return cells.every((c) => {
    if (/\d/.test(c.text) || c.words.length > 4) return false;
    return lineConcepts(c).some((w) => w.some((x) => isKnownConcept(x) && weightOf(x) >= 0.3));
  });
}

/** A cell holding nothing but a salutation ("Herrn", "Mme", "Dhr."), in any shipped language. */
function soleSalutation(text: string): boolean {
  const t = text.trim();
  return !/\s/.test(t) && allPacksVocabulary().party.salutation.test(t);
}

/** The first line below the label whose words overlap the label's column. */
export function belowOf(lines: Line[], li: number, labelBox: [number, number, number, number], field: FieldDef): Word[][] {
  const out: Word[][] = [];
  const label = lines[li]!;
  const h = Math.max(1, label.y1 - label.y0);
  const own = { x0: labelBox[0], x1: labelBox[2] };
  const starts = columnStarts(label, own);
  for (let k = li + 1; k < lines.length && out.length < 2; k++) {
    const l = lines[k]!;
    if (l.y0 - label.y1 > h * 3.5) break;
    let salutation = false;
    for (const seg of segments(l, 1.5)) {
      // A parenthesised line under a label is a note ("(not to be used for payment)"), not the value.
      if (/^\(.*\)$/.test(seg.text.trim())) continue;
      if (underOwnHeader(seg, label, own, starts)) {
        // (A salutation alone over a party's name, "Ms" or "Herrn" under "Bill to:", opens the block: the name follows.)
        salutation = !out.length && isPartyField(field) && soleSalutation(seg.text);
        if (!salutation) out.push(isPartyField(field) ? [...seg.words, ...nameTail(lines, k, seg)] : seg.words);
        break;
      }
    }
    if (salutation) continue;
    // (A string value is the first line, unless that line is a labelled detail of the block: "Kunde" over
    // "Kundennummer 30418" over the customer's name.)
    if (
      field.data_type === 'string' &&
      out.length &&
      !(/\d/.test(textOf(out[out.length - 1]!)) && isLabelText(textOf(out[out.length - 1]!)))
    )
      break;
  }
  if (isPartyField(field) && out.length === 1) out[0] = firmUnderPerson(lines, out[0]!) ?? out[0]!;
  return out;
}

/**
 * A party's first line naming a person by salutation ("Ms Clara Whitfield", "Herrn Jonas Weber") over a firm's legal
 * name in the same column: the person is the attention line, the party is the firm (its cell's words).
 */
function firmUnderPerson(lines: Line[], first: Word[]): Word[] | undefined {
  const v = allPacksVocabulary();
  const text = textOf(first);
  if (!v.party.salutation.test(text) || soleSalutation(text) || legalName(text, v)) return undefined;
  const k = lines.findIndex((l) => l.words.includes(first[0]!));
  const line = lines[k];
  const next = lines[k + 1];
  if (!line || !next) return undefined;
  const h = Math.max(1, line.y1 - line.y0);
  const cell = segments(next, CELL_GAP).find((seg) => Math.abs(seg.x0 - first[0]!.x0) < h);
  return cell && next.y0 - line.y1 < h && legalName(cell.text, v) ? cell.words : undefined;
}

/** How far right of a label's end (line heights) a value under it may reach: amounts are set flush right under it. */
const BELOW_RIGHT_REACH = 4;
/** How far left of a label's start (line heights) a value under it may begin. */
const BELOW_LEFT_REACH = 1;

type Span = { x0: number; x1: number };
/** How far a value cell overlaps a header cell widened by the reaches above (negative: how far it misses it). */
function reachUnder(seg: Span, cell: Span, h: number): number {
  return Math.min(seg.x1, cell.x1 + h * BELOW_RIGHT_REACH) - Math.max(seg.x0, cell.x0 - h * BELOW_LEFT_REACH);
}

/** Where the columns of header line `head` start: its cells beside the label words `own`, and `own` itself, left to right. */
function columnStarts(head: Line, own: Span): number[] {
  const others = segments(head, 1.5).filter((c) => c.x1 < own.x0 || c.x0 > own.x1);
  return [...others.map((c) => c.x0), own.x0].sort((a, b) => a - b);
}

/** A text value may start this many line heights left of its header's start (an indent, a bullet). */
const TEXT_START_SLACK = 1;
/** The last column of a header row reaches this many line heights right of its header's end. */
const LAST_COLUMN_REACH = 6;

/**
 * Whether a value cell under header line `head` stands under the header cell `own` (a label's words). Columns run
 * from one header cell's start to the next one's: a figure belongs to the column its right edge ends in (figures are
 * set flush right, under left-aligned, centred or right-aligned headers alike: "Net | VAT | Gross"
 * over "100.00 | 19.00 | 119.00"), a text to the column it starts in and within reach of its header. A value
 * starting left of every header cell is the first header's when it reaches it; the last column reaches a few line
 * heights right of its header.
 */
export function underOwnHeader(
  seg: Span & { text: string; words?: Word[] },
  head: Line,
  own: Span,
  starts = columnStarts(head, own),
): boolean {
  const h = Math.max(1, head.y1 - head.y0);
  const figure = /\d/.test(seg.text) && !/\p{L}{3,}/u.test(withoutIsoCodes(seg.text));
  const edge = figure ? figureEdge(seg) : seg.x0 + h * TEXT_START_SLACK;
  const column = starts.filter((x) => x < edge).pop();
  if (column === undefined) return own.x0 === starts[0] && reachUnder(seg, own, h) > 0;
  if (column !== own.x0) return false;
  // (A text also reaches its header, as any value under a lone label does.)
  if (!figure) return reachUnder(seg, own, h) > 0;
  return starts.some((x) => x > own.x0) || seg.x0 < own.x1 + h * LAST_COLUMN_REACH;
}

/**
 * Where a figure ends: its last word with a digit ("632.00" of "632.00 EUR": a currency code set close after a
 * right-aligned figure may stand in the next column, "Total ‖ Curr." over "632.00 EUR").
 */
function figureEdge(seg: Span & { words?: Word[] }): number {
  const digits = seg.words?.filter((w) => /\d/.test(w.text));
  return digits?.length ? digits[digits.length - 1]!.x1 : seg.x1;
}

/** A name's wrapped tail follows it within this many line heights. */
const NAME_TAIL_GAP = 0.8;

/**
 * The rest of a party's name wrapped onto the next line of its column: a legal form alone ("Acme Tools" / "e.K.") or
 * whatever follows a name cut after "&" ("Acme GmbH &" / "Co. KG").
 */
function nameTail(lines: Line[], k: number, cell: { text: string; x0: number; x1: number; y1: number }): Word[] {
  const next = lines[k + 1];
  if (!next) return [];
  const h = Math.max(1, next.y1 - next.y0);
  if (next.y0 - cell.y1 > h * NAME_TAIL_GAP) return [];
  const seg = segments(next, 1.5).find((s) => Math.min(s.x1, cell.x1) - Math.max(s.x0, cell.x0) > 0);
  if (!seg) return [];
  return isLegalFormOnly(seg.text) || /&$/.test(cell.text.trim()) ? seg.words : [];
}

/**
 * Lines continuing a running-text value that filled its line to the end: tightly spaced, starting where
 * the value started, a single cell, and without a label of their own ("Word:").
 */
export function wrappedLines(lines: Line[], li: number, valueWords: Word[]): Line[] {
  const line = lines[li]!;
  if (line.words[line.words.length - 1] !== valueWords[valueWords.length - 1]) return [];
  const h = Math.max(1, line.y1 - line.y0);
  const vx0 = valueWords[0]!.x0;
  const out: Line[] = [];
  let prev = line;
  for (let k = li + 1; k < lines.length && out.length < 8; k++) {
    const l = lines[k]!;
    if (l.y0 - prev.y1 > h * 0.7) break;
    if (Math.abs(l.x0 - vx0) > h * 1.5) break;
    if (l.words.some((w) => /\p{L}{2,}:$/u.test(w.text)) || segments(l, CELL_GAP).length > 1) break;
    out.push(l);
    prev = l;
  }
  return out;
}

/**
 * The cell under a column header on the table's totals row: the first line below (within the table) that
 * opens with a total word ("Total", "Summe", "Razem:") and has a figure overlapping the header's column.
 */
export function totalsRowBelow(lines: Line[], li: number, header: [number, number, number, number]): Word[] | undefined {
  const h = Math.max(1, lines[li]!.y1 - lines[li]!.y0);
  let prev = lines[li]!;
  for (let k = li + 1; k < lines.length && k <= li + 40; k++) {
    const l = lines[k]!;
    if (l.y0 - prev.y1 > h * 6) return undefined;
    prev = l;
    const segs = segments(l, 1.5);
    // (The row continues the table's columns with two or more figures; a line with one amount, "Goods Total ‖
    // 441.50", belongs to the summary block under the table, where each amount has a label of its own.)
    if (
      segs.length < 2 ||
      !conceptTokens(segs[0]!.text).some((c) => c === 'total') ||
      segs.slice(1).filter((s) => /\d/.test(s.text)).length < 2
    )
      continue;
    // The cell overlapping the header most (a near miss of one character still counts: right-aligned figures
    // under left-aligned headers).
    return cellUnder(
      segs.slice(1).filter((s) => /\d/.test(s.text)),
      lines[li]!,
      header,
    )?.words;
  }
  return undefined;
}

/**
 * A VAT breakdown table ("BTW % ‖ Grondslag ‖ BTW bedrag ‖ Totaal", then one line per rate and a line of sums
 * without a label): a summary amount named in its header is the figure under that header on the block's last line
 * (the sums, or the only rate). Only for headers that name a tax: other tables' columns hold line values.
 */
export function taxTableBottom(lines: Line[], li: number, header: [number, number, number, number]): Word[] | undefined {
  const head = lines[li]!;
  if (!conceptTokens(head.text).includes('tax')) return undefined;
  const h = Math.max(1, head.y1 - head.y0);
  const figuresOnly = (l: Line) =>
    segments(l, 1.5).every((s) => /^[\s\d.,%€$£()-]+$|^[\s\d.,%()-]*(?:[A-Z]{3})?[\s\d.,%()-]*$/.test(s.text) && /\d/.test(s.text));
  const block: Line[] = [];
  let prev = head;
  for (let k = li + 1; k < lines.length && k <= li + 12; k++) {
    const l = lines[k]!;
    if (l.y0 - prev.y1 > h * 2 || !figuresOnly(l)) break;
    block.push(l);
    prev = l;
  }
  // (Several lines: the last must be the sums, printed without a rate; rate lines whose sum carries a label of
  // its own, "VAT total: 75.04", are left to that label.)
  const last = block[block.length - 1];
  if (!last || (block.length > 1 && /%/.test(last.text))) return undefined;
  return cellUnder(segments(last, 1.5), head, header)?.words;
}

/** Cells missing a header by up to this many line heights still stand under it. */
const HEADER_NEAR_MISS = 1.2;

/**
 * The cell of a row under the header words `header` of line `head`: one the header owns ({@link underOwnHeader}), else the
 * one overlapping the header most (a near miss of one character still counts: right-aligned figures under
 * left-aligned headers).
 */
function cellUnder(cells: Line[], head: Line, header: [number, number, number, number]): Line | undefined {
  const own = { x0: header[0], x1: header[2] };
  const starts = columnStarts(head, own);
  const owned = cells.filter((s) => underOwnHeader(s, head, own, starts));
  const h = Math.max(1, head.y1 - head.y0);
  const overlap = (s: Line) => Math.min(s.x1, header[2]) - Math.max(s.x0, header[0]);
  const pool = owned.length ? owned : cells.filter((s) => overlap(s) > -h * HEADER_NEAR_MISS);
  return pool.sort((a, b) => overlap(b) - overlap(a))[0];
}

/** A table body row: three or more cells, one of them running text (a description), not a summary line. */
export function isItemRow(line: Line | undefined): boolean {
  if (!line) return false;
  const segs = segments(line, 1.5);
  return segs.length >= 3 && segs.some((s) => s.words.filter((w) => /\p{L}{2,}/u.test(w.text)).length >= 2);
}
