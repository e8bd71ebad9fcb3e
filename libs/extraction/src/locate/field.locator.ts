import type { FieldDef } from '../engine.types.js';
import { CELL_GAP, segments, spaceBetween } from '../layout/layout.builder.js';
import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { conceptTokens, fold, isKnownConcept, labelSpec, lineConcepts, matchSpan, weightOf } from './label.matcher.js';
import { findIban, findVatIds } from '../parsers/identifier.parser.js';
import { ISO_CODES } from '../parsers/currency.parser.js';
import { findDates } from '../parsers/date.parser.js';
import { partyName, withoutLegalDot } from './semantic.fallback.js';
import { acceptableString, isLabelText, isLegalFormOnly, isPartyField, notAnAmount } from './constraints.js';

const textOf = (ws: Word[]) => ws.map((w) => w.text).join(' ');
import { allPacksVocabulary, vocabularyOrAll } from '../locales/locale.registry.js';

export interface Located {
  value: unknown;
  confidence: number;
  page: number;
  bbox: [number, number, number, number];
  /** Identity of the value's position, so two fields do not claim the same value. */
  slot: string;
}

const MIN_LABEL_SCORE = 0.6;
/** A tax id without an EU VAT shape ("GST Reg No: 001234567890", "Steuernummer 12/345/67890") is a few tokens at most. */
const MAX_BARE_TAX_ID_WORDS = 4;
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
function textWithOffsets(ws: Word[]): { text: string; starts: number[] } {
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

function wordsIn(ws: Word[], starts: number[], index: number, length: number): Word[] {
  const out = ws.filter((_, i) => starts[i]! < index + length && starts[i]! + ws[i]!.text.length > index);
  return out.length ? out : ws;
}

/** The text printed on `line` before the run `ws` (before word `fallback` when the run is not the line's own words). */
function leadOf(line: Line, ws: Word[], fallback: number): string {
  const i = ws.length ? line.words.indexOf(ws[0]!) : -1;
  return line.words
    .slice(0, i >= 0 ? i : fallback)
    .map((w) => w.text)
    .join(' ');
}

/** Candidate values for `field` in one run of words; best first. */
function valuesIn(ws: Word[], field: FieldDef, ctx: DocContext, lead = ''): { value: unknown; quality: number; words: Word[] }[] {
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

function meanConf(ws: Word[]): number {
  return ws.length ? ws.reduce((s, w) => s + w.conf, 0) / ws.length : 0;
}

/** Words of the line right after the label, up to the next wide gap (a new column) for strings. */
function rightOf(line: Line, end: number, field: FieldDef): Word[] {
  let ws = line.words.slice(end);
  // Skip separators printed between label and value.
  while (ws.length && /^[:#\-–—.|]+$/.test(ws[0]!.text)) ws = ws.slice(1);
  if (!ws.length) return [];
  // A short cell ending with a colon right of the label is the next label ("Bill To: ‖ Ship To:").
  const firstCell = segments({ ...line, words: ws }, CELL_GAP)[0]?.words ?? [];
  // (Abbreviated labels too: "Seller: ‖ Invoice No.: …".)
  if (field.data_type === 'string' && firstCell.length <= 3 && /\p{L}{2,}\.?:$/u.test(firstCell[firstCell.length - 1]?.text ?? ''))
    return [];
  // A row of labels ("Invoice number ‖ Date of issue ‖ Date due", "Bill To ‖ Ship To") prints the values under them:
  // the next cell is the neighbouring label, not this one's value.
  if (field.data_type === 'string' && isLabelRow(line, end)) return [];
  // The value ends where the next label ("Date:") starts.
  let next = ws.findIndex((w, i) => i > 0 && /\p{L}{2,}:$/u.test(w.text));
  // … unless the label goes on up to that colon, in the same cell and before any figure: "Total Inclusive GST:
  // 36.00", "Total Amt Payable: RM 30.00", "Date of issue: 12.03.2020" (a label ending in ":" is complete).
  if (field.data_type !== 'string' && next > 0 && next <= 3 && !/:$/.test(line.words[end - 1]?.text ?? ':')) {
    const cell = segments({ ...line, words: line.words.slice(end - 1) }, CELL_GAP)[0]?.words ?? [];
    if (cell.includes(ws[next]!) && !ws.slice(0, next + 1).some((w) => /\d/.test(w.text))) {
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
  const out: Word[] = [...(segs[0]?.words ?? [])];
  for (const seg of segs.slice(1)) {
    // (A date field's cell may spell its month: "Fällig am: ‖ 29. März 2024" is a value, not the next label.)
    const spelledDate = field.data_type === 'date' && findDates(seg.text).length > 0;
    if (!spelledDate && seg.words.some((w) => /\p{L}{3,}/u.test(w.text) && !ISO_CODES.has(w.text.replace(/\W/g, '')))) break;
    out.push(...seg.words);
  }
  return out;
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
function belowOf(lines: Line[], li: number, labelBox: [number, number, number, number], field: FieldDef): Word[][] {
  const out: Word[][] = [];
  const label = lines[li]!;
  const h = Math.max(1, label.y1 - label.y0);
  for (let k = li + 1; k < lines.length && out.length < 2; k++) {
    const l = lines[k]!;
    if (l.y0 - label.y1 > h * 3.5) break;
    let salutation = false;
    for (const seg of segments(l, 1.5)) {
      // A parenthesised line under a label is a note ("(not to be used for payment)"), not the value.
      if (/^\(.*\)$/.test(seg.text.trim())) continue;
      const overlap = Math.min(seg.x1, labelBox[2] + h * 4) - Math.max(seg.x0, labelBox[0] - h);
      if (overlap > 0) {
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
  return out;
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

/** Identifier fields keep only the identifier out of the cell text ("IBAN: DE31 …  BIC …" → the IBAN). */
export function refine(field: FieldDef, value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const concepts = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  // (An IBAN is returned in its electronic format, without the print format's spaces.)
  if (concepts.includes('iban')) return findIban(value)?.replace(/ /g, '') ?? value;
  // (A tax id first: "Seller VAT ID" names a party too, but asks for the identifier.)
  if (concepts.includes('tax') && (concepts.includes('id') || concepts.includes('number')))
    return findVatIds(value.toUpperCase())[0]?.value ?? value;
  // A party's name ends where another party is introduced ("Shop B.V. iov Brand.com", "… c/o …").
  if (concepts.some((c) => c === 'seller' || c === 'buyer' || c === 'company')) return partyName(value);
  // Document numbers are codes: "RE-2019/507 issued at 2019-06-10" ends before the first plain word.
  if (concepts.some((c) => c === 'number' || c === 'id' || c === 'code')) {
    const toks = value.split(/\s+/);
    const end = toks.findIndex((t, i) => i > 0 && /^\p{L}{2,}$/u.test(t) && /\p{Ll}/u.test(t));
    if (end > 0) return cleanString(toks.slice(0, end).join(' '));
  }
  return value;
}

/** Identifier-like fields (numbers, ids, codes, IBAN) must contain a digit; any string a letter or digit. */
export function plausible(field: FieldDef, value: unknown): boolean {
  if (typeof value !== 'string') return true;
  if (!/[\p{L}\d]/u.test(value)) return false;
  // A printed label is never a value ("Customer number", "Invoice date:"); a legal form alone names no party.
  if (!acceptableString(field, value)) return false;
  const concepts = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  if (concepts.includes('iban')) return findIban(value) !== undefined;
  // (Without an EU VAT shape, a short cell of digits — never a line of prose or a bank account: "Paiement par
  // virement : IBAN FR13 …" under "TVA non applicable" is no VAT id.)
  if (concepts.includes('tax') && (concepts.includes('id') || concepts.includes('number')))
    return (
      findVatIds(value.toUpperCase()).length > 0 ||
      (/\d{6,}/.test(value.replace(/[\s.\-]/g, '')) && !findIban(value) && value.trim().split(/\s+/).length <= MAX_BARE_TAX_ID_WORDS)
    );
  if (concepts.some((c) => c === 'number' || c === 'id' || c === 'code')) {
    // An identifier is not a date ("du 14 Juillet 2019" after "Facture n° …").
    const d = findDates(value)[0];
    if (d && d.length >= value.replace(/^\p{L}{1,3}\s+/u, '').length - 2) return false;
    return /\d/.test(value);
  }
  // Names are words, not codes or amounts.
  if (isNameField(field)) {
    // … and do not open with a registration number ("Company 198718 …" on a receipt is its company number).
    if (/^\W*\d{5,}\b/.test(value)) return false;
    const letters = (value.match(/\p{L}/gu) ?? []).length;
    // A run of lower-case words is prose ("was sent to the address on file …"), not a name.
    if (!/\p{Lu}/u.test(value) && value.trim().split(/\s+/).length >= 3) return false;
    // A party (seller, buyer, company) is named in a few words, not a sentence ("Les montants … à payer.").
    if (concepts.some((c) => c === 'seller' || c === 'buyer' || c === 'company')) {
      const words = value.trim().split(/\s+/);
      if (
        words.length > 8 ||
        (words.length >= 5 && /\p{Ll}{2}[.!?]$/u.test(withoutLegalDot(value.trim()))) ||
        !/\p{Lu}|\d/u.test(value) ||
        /^\p{L}[\p{L} ]*:/u.test(value)
      )
        return false;
    }
    return letters >= 2 && letters >= (value.match(/\d/g) ?? []).length;
  }
  return true;
}

function isNameField(field: FieldDef): boolean {
  const c = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  return c.some((x) => ['name', 'seller', 'buyer', 'company'].includes(x));
}

/** Free text (comments, descriptions, addresses) may wrap; names, identifiers, codes and amounts do not. */
function isFreeText(field: FieldDef): boolean {
  const c = conceptTokens(`${field.key.replace(/_/g, ' ')} ${field.label ?? ''}`);
  return !c.some((x) =>
    ['name', 'seller', 'buyer', 'company', 'number', 'id', 'iban', 'code', 'currency', 'tax', 'phone', 'date'].includes(x),
  );
}

/**
 * Lines continuing a running-text value that filled its line to the end: tightly spaced, starting where
 * the value started, a single cell, and without a label of their own ("Word:").
 */
function wrappedLines(lines: Line[], li: number, valueWords: Word[]): Line[] {
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
function totalsRowBelow(lines: Line[], li: number, header: [number, number, number, number]): Word[] | undefined {
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
    const overlap = (s: Line) => Math.min(s.x1, header[2]) - Math.max(s.x0, header[0]);
    const cell = segs
      .slice(1)
      .filter((s) => /\d/.test(s.text) && overlap(s) > -h * 1.2)
      .sort((a, b) => overlap(b) - overlap(a))[0];
    return cell?.words;
  }
  return undefined;
}

/**
 * A VAT breakdown table ("BTW % ‖ Grondslag ‖ BTW bedrag ‖ Totaal", then one line per rate and a line of sums
 * without a label): a summary amount named in its header is the figure under that header on the block's last line
 * (the sums, or the only rate). Only for headers that name a tax: other tables' columns hold line values.
 */
function taxTableBottom(lines: Line[], li: number, header: [number, number, number, number]): Word[] | undefined {
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
  const overlap = (s: Line) => Math.min(s.x1, header[2]) - Math.max(s.x0, header[0]);
  const cell = segments(last, 1.5)
    .filter((s) => overlap(s) > -h * 1.2)
    .sort((a, b) => overlap(b) - overlap(a))[0];
  return cell?.words;
}

/**
 * A cell that is just the subject of an identifier field ("Factuur" over "VF2040117788" in a header grid
 * next to "Factuur datum", "Order" over the order number) names that identifier, weakly: any real
 * "Invoice No." label wins over it.
 */
function bareSubjectLabel(
  segConcepts: string[][],
  spec: ReturnType<typeof labelSpec>,
): { start: number; end: number; score: number } | undefined {
  const words = segConcepts.filter((c) => c.some((x) => weightOf(x) > 0));
  if (words.length !== 1 || words[0]!.length !== 1) return undefined;
  for (const v of spec.variants) {
    if (!v.includes('number') && !v.includes('id')) continue;
    const subject = v.filter((c) => c !== 'number' && c !== 'id' && weightOf(c) > 0);
    if (subject.length === 1 && subject[0] === words[0]![0]) {
      const start = segConcepts.indexOf(words[0]!);
      return { start, end: start + 1, score: 0.62 };
    }
  }
  return undefined;
}

/** A table body row: three or more cells, one of them running text (a description), not a summary line. */
export function isItemRow(line: Line | undefined): boolean {
  if (!line) return false;
  const segs = segments(line, 1.5);
  return segs.length >= 3 && segs.some((s) => s.words.filter((w) => /\p{L}{2,}/u.test(w.text)).length >= 2);
}

export interface Candidate extends Located {
  labelScore: number;
  /** Left edge of the label the value was read by. */
  labelX?: number;
  /** Read under or beside a delivery heading ("Ship to", "Lieferadresse"): the party delivered to, maybe not billed. */
  delivery?: boolean;
}

/** All label-anchored candidates for a field across the document, best first. */
/** Concepts that name a total as the amount to pay rather than another amount. */
const TOTAL_COMPANIONS = new Set(['due', 'payment', 'amount']);
/** Label-score bonus of a total label that names the amount to pay. */
const PAY_BONUS = 0.05;

export function locateByLabel(doc: DocLayout, field: FieldDef, ctx: DocContext): Candidate[] {
  const spec = labelSpec(field.label, field.key);
  // Headings of a delivery address (folded): ship to, Lieferadresse, livré à … (the active packs' `deliveryLabels`).
  const deliveryLabel = vocabularyOrAll(ctx.locales).deliveryLabel;
  const out: Candidate[] = [];
  for (const page of doc.pages) {
    page.lines.forEach((line, li) => {
      const concepts = lineConcepts(line);
      // A line may hold several label/value pairs side by side: match each segment separately.
      let offset = 0;
      for (const seg of segments(line, CELL_GAP)) {
        const segConcepts = concepts.slice(offset, offset + seg.words.length);
        const direct = matchSpan(segConcepts, spec, !page.ocr);
        const m = direct && direct.score >= MIN_LABEL_SCORE ? direct : (bareSubjectLabel(segConcepts, spec) ?? direct);
        const segStart = offset;
        offset += seg.words.length;
        if (!m) continue;
        // Labels open a cell; a match in the middle of running text ("Greetings from …") is prose.
        // ("Total taxes" still opens with its label: a leading "total" is part of an amount's label.)
        const amountField = field.data_type === 'number' || field.data_type === 'currency';
        const pre = segConcepts.slice(0, m.start).flat();
        // (Nor does a rate printed before an amount's label: "zzgl. 7 % USt. auf 238,00 €".)
        const openingOk = pre.every((c) => weightOf(c) === 0 || (amountField && (c === 'total' || /^\d{1,2}$/.test(c))));
        if (m.start > 0 && !openingOk) m.score *= seg.words.length > 6 ? 0.6 : 0.85;
        if (seg.words.length - m.end > 8 && !/[:#]$/.test(seg.words[m.end - 1]!.text)) m.score *= 0.8;
        // A label cell that also names another known concept ("Total HT" for "Total": net) is a different field.
        const specConcepts = new Set(spec.variants.flat());
        // ("total" is exempt for amounts: "Total taxes" is the tax amount.)
        const numeric = field.data_type === 'number' || field.data_type === 'currency';
        // For amounts the words just before the match count too: "Net total" is the net amount, "VAT total" the tax.
        // … and past filler words after it: "Date of delivery" is a delivery date.
        let after = m.end;
        while (after < segConcepts.length && segConcepts[after]!.every((c) => weightOf(c) === 0)) after++;
        // (Nor, for a total, the words that say it is the amount to pay: "Total payable", "Total amount due".)
        const companion = (c: string) => numeric && (c === 'total' || (specConcepts.has('total') && TOTAL_COMPANIONS.has(c)));
        const foreign = segConcepts
          .slice(numeric ? Math.max(0, m.start - 2) : m.start, after + 1)
          .flat()
          .some((c) => isKnownConcept(c) && weightOf(c) >= 1 && !specConcepts.has(c) && !companion(c));
        if (foreign) m.score *= 0.6;
        // An amount is not read from an identifier's label ("Steuer-Nr.", "VAT ID", "NIP") unless the field asks for one.
        if (
          numeric &&
          !specConcepts.has('number') &&
          !specConcepts.has('id') &&
          segConcepts
            .slice(m.start, after + 1)
            .flat()
            .some((c) => c === 'number' || c === 'id')
        )
          continue;
        // … nor a party's name from its identifier's label ("Customer ID", "Kundennummer" name no customer).
        if (
          isPartyField(field) &&
          segConcepts
            .slice(m.start, after + 1)
            .flat()
            .some((c) => c === 'number' || c === 'id')
        )
          continue;
        if (m.score < MIN_LABEL_SCORE) continue;
        // The rest of a phrase resolved onto its first word ("Delivery ‹address›") belongs to the label.
        while (m.end < segConcepts.length && segConcepts[m.end]!.length === 0) m.end++;
        const labelWords = seg.words.slice(m.start, m.end);
        const labelBox = box(labelWords);
        // The customer is who is billed: a delivery address ("Ship to", "Lieferadresse", "Livré à") names the buyer
        // only when no billing heading does, so it ranks just below one.
        const delivery = specConcepts.has('buyer') && deliveryLabel.test(fold(labelWords.map((w) => w.text).join(' ')));
        if (delivery) m.score *= 0.97;
        // Value right of the label: rest of this segment, else the next segment of the line.
        let rest = rightOf(line, segStart + m.end, field);
        // A value glued to its label ("n°731905522", "No.123", "#A-17"): split the last label word.
        const lastLabel = seg.words[m.end - 1]!;
        const glued = /^(.*?(?:n[°º]|#|no\.|nr\.|:))([A-Z0-9][\w\-/.]*\d[\w\-/.]*)$/i.exec(lastLabel.text);
        if (glued && glued[1]) {
          const per = (lastLabel.x1 - lastLabel.x0) / lastLabel.text.length;
          rest = [{ ...lastLabel, text: glued[2]!, x0: lastLabel.x0 + glued[1].length * per }, ...rest];
        }
        let placed = false;
        let vals = valuesIn(rest, field, ctx, leadOf(line, rest, segStart + m.end));
        // Summary lines print base then amount ("VAT 20% 100.00 20.00"): the rightmost amount is the value.
        if (field.data_type === 'number' || field.data_type === 'currency')
          vals = vals.sort((a, b) => b.quality - a.quality || b.words[0]!.x0 - a.words[0]!.x0);
        // Summary amounts on documents are totals: a label that also says "total" is the stronger anchor.
        const totalBonus =
          (field.data_type === 'number' || field.data_type === 'currency') &&
          !specConcepts.has('total') &&
          segConcepts.some((c) => c.includes('total'))
            ? 0.08
            : 0;
        // … and a total that says it is the amount to pay ("Total payable", "Total due") beats other totals.
        const payBonus =
          numeric && specConcepts.has('total') && segConcepts.flat().some((c) => c === 'due' || c === 'payment') ? PAY_BONUS : 0;
        m.score = Math.min(1, m.score + totalBonus) + payBonus;
        for (const [i, v] of vals.entries()) {
          const conf = m.score * v.quality * meanConf(v.words) * (i === 0 ? 1 : 0.9);
          if (field.data_type === 'string' && v.words.length >= 3 && isFreeText(field)) {
            const more = wrappedLines(page.lines, li, v.words);
            if (more.length) {
              const words = [...v.words, ...more.flatMap((l) => l.words)];
              out.push({
                labelX: labelBox[0],
                value: cleanString(words.map((w) => w.text).join(' ')),
                confidence: conf * 0.9,
                labelScore: m.score,
                page: page.number,
                bbox: box(words),
                slot: '',
                delivery,
              });
              placed = true;
              break;
            }
          }
          out.push({
            labelX: labelBox[0],
            value: v.value,
            confidence: conf,
            labelScore: m.score,
            page: page.number,
            bbox: box(v.words),
            slot: `${page.number}:${li}:${line.words.indexOf(v.words[0]!)}`,
            delivery,
          });
          placed = true;
          if (field.data_type !== 'number' && field.data_type !== 'currency') break;
        }
        if (placed) continue;
        // An amount's label followed on its line by an identifier ("VAT: <id>", "Tax no.: <number>") names
        // that identifier: the label is answered there, and the line below is no amount of it (a street number).
        const restFirst = rest[0]?.text ?? '';
        if (amountField && /\p{L}/u.test(restFirst) && /\d/.test(restFirst) && !valuesIn([rest[0]!], field, ctx).length) continue;
        // An amount under a table column header ("Total" over line totals) is a row value, not the field;
        // the column's figure on the table's totals row ("Razem: ‖ 257,59 ‖ 59,24") is the summary amount.
        if ((field.data_type === 'number' || field.data_type === 'currency') && segments(line, 1.5).length >= 3) {
          const ws = totalsRowBelow(page.lines, li, labelBox) ?? taxTableBottom(page.lines, li, labelBox);
          const v = ws ? valuesIn(ws, field, ctx)[0] : undefined;
          if (v)
            out.push({
              labelX: labelBox[0],
              value: v.value,
              confidence: m.score * v.quality * meanConf(v.words) * 0.8,
              labelScore: m.score * 0.95,
              page: page.number,
              bbox: box(v.words),
              slot: `${page.number}:totals:${v.words[0]!.x0.toFixed(0)}`,
            });
          continue;
        }
        // A name label followed on its line by a long number ("Company 198718 …", "Company No: 1234567-X") is a
        // registration-number label.
        // (Not a number that follows another label of its own further along the line: "Seller: ‖ Invoice No.: LH2025…".)
        const restWords = line.words.slice(segStart + m.end);
        const nextCell = segments({ ...line, words: restWords }, CELL_GAP)[0]?.words ?? [];
        const nextIsLabel = nextCell.length > 0 && nextCell.length <= 3 && /\p{L}{2,}\.?:$/u.test(nextCell[nextCell.length - 1]!.text);
        if (field.data_type === 'string' && isNameField(field) && !nextIsLabel && restWords.some((w) => /\d{5,}/.test(w.text))) continue;
        // A value glued to the label's colon ("Customer:2") is that label's value, even when it is not this field's.
        if (/^\p{L}{2,}[^:]*:[^\s:]+$/u.test(lastLabel.text)) continue;
        for (const ws of belowOf(page.lines, li, labelBox, field)) {
          const vl = page.lines.find((l) => l.words.includes(ws[0]!));
          const vs = valuesIn(ws, field, ctx, vl ? leadOf(vl, ws, 0) : '');
          const v = vs[0];
          if (!v) continue;
          // An amount on a line-item row ("1 ‖ Widget deluxe ‖ 3,89 ‖ 3,89") belongs to a table column header.
          if (
            (field.data_type === 'number' || field.data_type === 'currency') &&
            isItemRow(page.lines.find((l) => l.words.includes(v.words[0]!)))
          )
            continue;
          const conf = m.score * v.quality * meanConf(v.words) * 0.85;
          out.push({
            labelX: labelBox[0],
            value: v.value,
            confidence: conf,
            labelScore: m.score,
            page: page.number,
            bbox: box(v.words),
            slot: `${page.number}:${li + 1}:${v.words[0]!.x0.toFixed(0)}`,
            delivery,
          });
          break;
        }
      }
    });
  }
  if (field.data_type === 'number' || field.data_type === 'currency') discountTableColumns(out);
  out.sort((a, b) => b.confidence - a.confidence);
  return out;
}

/** Distinct amounts read under one label column ("VAT 20%" on every item row) that make it a table column. */
const TABLE_COLUMN_MIN_VALUES = 3;
/** How far apart the labels' left edges may lie and still stand in one column, in value line heights. */
const COLUMN_X_TOLERANCE = 0.2;
/** Confidence factor of an amount read from a table column rather than from a summary line. */
const TABLE_COLUMN_FACTOR = 0.75;

/**
 * A summary amount is printed once (or repeated unchanged); a label repeated on row after row with a different
 * amount each time ("VAT 20% … 300.69" on every line item) is a table column, and ranks below a summary line.
 */
function discountTableColumns(out: Candidate[]): void {
  for (const c of out) {
    if (c.labelX === undefined) continue;
    const tolerance = COLUMN_X_TOLERANCE * (c.bbox[3] - c.bbox[1]);
    const column = out.filter((o) => o.labelX !== undefined && Math.abs(o.labelX - c.labelX!) <= tolerance);
    const values = new Set(column.map((o) => JSON.stringify(o.value)));
    if (values.size >= TABLE_COLUMN_MIN_VALUES) c.confidence *= TABLE_COLUMN_FACTOR;
  }
}
