import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import { box, plausible, refine, type Located } from '../locate/field.locator.js';
import { cleanString, findTyped, type DocContext } from '../parsers/value.parser.js';
import { height, LABEL_MAX_WORDS, labelText, PHRASE_GAP_HEIGHTS } from './exemplar.builder.js';
import { squash } from './value.spans.js';
import { textDigest } from './value.recall.js';
import type { FieldAnchor, LayoutExemplar, PageBox } from './memory.types.js';

/** Confidence of a value found at a remembered anchor (a person confirmed this layout's value stood there). */
export const MEMORY_CONFIDENCE = 0.95;
/** Confidence of a value read from a remembered region without its label. */
export const REGION_CONFIDENCE = 0.85;
/** How far (share of the page's diagonal) a label may have moved from where the exemplar printed it. */
const LABEL_DRIFT = 0.3;
/** How far (share of the page's width or height) a value may stand from where its label's offset puts it. */
const VALUE_DRIFT = 0.12;
/** Words a string value may have beyond twice the remembered count (names differ in length between documents). */
const STRING_EXTRA_WORDS = 2;
/** Least fingerprint similarity at which a value is read from a remembered region that has no label. */
export const REGION_MIN_SIMILARITY = 0.8;
/** Slack around a remembered region, as a share of the page. */
const REGION_SLACK = 0.01;
/** Least parser quality of a value read at an anchor. */
const MIN_QUALITY = 0.7;

/** Values of the schema's scalar fields read where the exemplar's anchors say they stand. */
export function replayAnchors(
  doc: DocLayout,
  ex: LayoutExemplar,
  fields: readonly FieldDef[],
  ctx: DocContext,
  similarity: number,
): Map<string, Located> {
  const out = new Map<string, Located>();
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const a of ex.anchors) {
    const f = byKey.get(a.key);
    if (!f || f.data_type === 'table' || f.data_type === 'boolean') continue;
    const found = a.label
      ? atLabel(doc, a, f.data_type === 'number' || f.data_type === 'currency')
      : similarity >= REGION_MIN_SIMILARITY
        ? inRegion(doc, a)
        : undefined;
    const located = found ? readValue(f, found, ctx, a.label ? MEMORY_CONFIDENCE : REGION_CONFIDENCE) : undefined;
    if (located) out.set(f.key, located);
  }
  return out;
}

/** Words of one page where a remembered value should be. */
interface Found {
  page: number;
  words: Word[];
}

function readValue(f: FieldDef, { page, words }: Found, ctx: DocContext, confidence: number): Located | undefined {
  const text = words.map((w) => w.text).join(' ');
  const typed = findTyped(text, f.data_type, ctx).find((v) => v.quality >= MIN_QUALITY);
  if (!typed) return undefined;
  const value = f.data_type === 'string' ? refine(f, cleanString(String(typed.value))) : typed.value;
  if (value === '' || !plausible(f, value)) return undefined;
  return { value, confidence, page, bbox: box(words), slot: `memory:${f.key}` };
}

/** A label counts for identifying a layout wherever it stands on its page (rows above it push it down). */
const ANYWHERE = 1.5;
/** Fewest labelled anchors for their labels alone to identify a layout. */
const MIN_LABELLED = 3;

/**
 * Share of the exemplar's labels printed near where it printed them (0 with fewer than MIN_LABELLED): documents of one
 * template filled with other data share their labels and places even when their words differ.
 */
export function labelShare(doc: DocLayout, ex: LayoutExemplar): number {
  const labelled = ex.anchors.filter((a) => a.label && a.labelBox);
  if (labelled.length < MIN_LABELLED) return 0;
  return labelled.filter((a) => findLabel(doc, a, ANYWHERE)).length / labelled.length;
}

const centre = (b: PageBox) => [(b[0] + b[2]) / 2, (b[1] + b[3]) / 2] as const;

/** The value's words found from its remembered label: right of it on its line, or on the line below it. */
/** (`amount`: the value may be aligned on its right edge, as amounts are; other values start where they started.) */
function atLabel(doc: DocLayout, a: FieldAnchor, amount: boolean): Found | undefined {
  const found = findLabel(doc, a);
  if (!found) return undefined;
  const { page, line, end } = found;
  const label = line.words.slice(end - labelLength(a), end);
  const [lx0, ly0, lx1] = [label[0]!.x0 / page.width, label[0]!.y0 / page.height, label[label.length - 1]!.x1 / page.width];
  const [rx0, ry0, rx1] = a.region;
  const [bx0, by0, bx1] = a.labelBox!;
  let start: { line: Line; index: number } | undefined;
  if (a.direction === 'right')
    start =
      a.adjacent && end < line.words.length
        ? { line, index: end }
        : nearestWord(page, line, end, (rx0 - bx1 + lx1) * page.width, amount ? (rx1 - bx1 + lx1) * page.width : undefined);
  else {
    const y = (ry0 - by0 + ly0) * page.height;
    const below = page.lines.filter((l) => l.y0 >= line.y1 - 1 && Math.abs(l.y0 - y) <= VALUE_DRIFT * page.height);
    below.sort((p, q) => Math.abs(p.y0 - y) - Math.abs(q.y0 - y));
    const next = below[0];
    if (next) start = nearestWord(page, next, 0, (rx0 - bx0 + lx0) * page.width, amount ? (rx1 - bx0 + lx0) * page.width : undefined);
  }
  return start ? { page: page.number, words: phrase(page, start.line, start.index, a) } : undefined;
}

const labelLength = (a: FieldAnchor) => Math.min(LABEL_MAX_WORDS, a.labelWords ?? 1);

/** The printing of the anchor's label nearest where the exemplar had it. */
function findLabel(doc: DocLayout, a: FieldAnchor, drift = LABEL_DRIFT): { page: Page; line: Line; end: number } | undefined {
  const n = labelLength(a);
  const [cx, cy] = centre(a.labelBox!);
  let best: { page: Page; line: Line; end: number; d: number } | undefined;
  for (const page of doc.pages)
    for (const line of page.lines)
      for (let end = n; end <= line.words.length; end++) {
        const ws = line.words.slice(end - n, end);
        if (textDigest(labelText(ws)) !== a.label) continue;
        const [x, y] = centre([ws[0]!.x0 / page.width, ws[0]!.y0 / page.height, ws[n - 1]!.x1 / page.width, ws[n - 1]!.y1 / page.height]);
        const d = Math.hypot(x - cx, y - cy) + (page.number === a.page ? 0 : 1);
        if (d <= drift && (!best || d < best.d)) best = { page, line, end, d };
      }
  return best;
}

/** The word of `line` (from index `from`) whose left or right edge is nearest where the value should start or end. */
function nearestWord(page: Page, line: Line, from: number, x0: number, x1: number | undefined): { line: Line; index: number } | undefined {
  let best: { index: number; d: number } | undefined;
  for (let i = from; i < line.words.length; i++) {
    const w = line.words[i]!;
    const d = x1 === undefined ? Math.abs(w.x0 - x0) : Math.min(Math.abs(w.x0 - x0), Math.abs(w.x1 - x1));
    if (d <= VALUE_DRIFT * page.width && (!best || d < best.d)) best = { index: i, d };
  }
  return best && { line, index: best.index };
}

/** The value's words from its first: close together on the line, over as many lines as the exemplar's value had. */
function phrase(page: Page, line: Line, index: number, a: FieldAnchor): Word[] {
  const max = a.words * 2 + STRING_EXTRA_WORDS;
  const out: Word[] = [line.words[index]!];
  let ended = false;
  for (let i = index + 1; i < line.words.length && out.length < max; i++) {
    const w = line.words[i]!;
    if (w.x0 - out[out.length - 1]!.x1 > PHRASE_GAP_HEIGHTS * height(w)) break;
    if (a.after && textDigest(squash(w.text)) === a.after) {
      ended = true;
      break;
    }
    out.push(w);
  }
  // The exemplar's value was followed closely by other words: without the same word to end it, keep its length.
  if (a.after && !ended) out.splice(a.words);
  if (a.lines <= 1) return out;
  const x0 = out[0]!.x0;
  const at = page.lines.indexOf(line);
  for (const next of page.lines.slice(at + 1, at + a.lines)) {
    const ws = next.words.filter((w) => w.x1 >= x0 - height(w) && w.x0 <= out[0]!.x0 + (out[out.length - 1]!.x1 - x0));
    out.push(...ws);
  }
  return out;
}

/** The words inside the remembered region of the value (a value printed without a label: a letterhead's name). */
function inRegion(doc: DocLayout, a: FieldAnchor): Found | undefined {
  const page = doc.pages.find((p) => p.number === a.page);
  if (!page) return undefined;
  const [x0, y0, x1, y1] = a.region;
  const inside = (w: Word) => {
    const cx = (w.x0 + w.x1) / 2 / page.width;
    const cy = (w.y0 + w.y1) / 2 / page.height;
    return cx >= x0 - REGION_SLACK && cx <= x1 + REGION_SLACK && cy >= y0 - REGION_SLACK && cy <= y1 + REGION_SLACK;
  };
  const ws = page.lines.flatMap((l) => l.words.filter(inside));
  return ws.length ? { page: page.number, words: ws } : undefined;
}
