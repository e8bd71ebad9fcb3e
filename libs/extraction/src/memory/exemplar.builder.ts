import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Line, Page, Word } from '../layout/layout.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import { labelSpec, matchSpan, wordConcepts } from '../locate/label.matcher.js';
import { fingerprintOf } from './fingerprint.js';
import { textDigest, valueDigest } from './value.recall.js';
import type { FieldAnchor, LayoutExemplarData, PageBox } from './memory.types.js';
import { spanWords, squash, valueSpans, wordsText, type ValueSpan } from './value.spans.js';

/** Most words of a label remembered ("Invoice number (please quote)" is cut to its first words next to the value). */
export const LABEL_MAX_WORDS = 4;
/** A word further than this many word heights from the next one is not part of the same label. */
const LABEL_GAP_HEIGHTS = 3;
/** Words further apart than this many word heights belong to different values. */
export const PHRASE_GAP_HEIGHTS = 1.5;
/** A label above its value stands within this many value heights over it. */
const ABOVE_MAX_HEIGHTS = 3;

/** What a document teaches once a person said what its values are: its fingerprint and each field's anchor. */
export function learnFromLayout(
  doc: DocLayout,
  fields: readonly FieldDef[],
  values: Record<string, unknown>,
  ctx: DocContext,
): LayoutExemplarData {
  const anchors: FieldAnchor[] = [];
  for (const f of fields) {
    const anchor = anchorOf(doc, f, values[f.key], ctx);
    if (anchor) anchors.push(anchor);
  }
  return { fingerprint: fingerprintOf(doc), anchors };
}

/** Where the value of `f` is printed, with the label next to it; amounts: the last labelled printing (the summary). */
export function anchorOf(doc: DocLayout, f: FieldDef, value: unknown, ctx: DocContext): FieldAnchor | undefined {
  const spans = valueSpans(doc, f.data_type, value, ctx);
  if (!spans.length) return undefined;
  const spec = labelSpec(f.label, f.key);
  const labelled = spans.map((s) => {
    const label = labelOf(s);
    return { s, label, score: label ? (matchSpan(wordConcepts(label.text.split(/\s+/)), spec)?.score ?? 0) + 1 : 0 };
  });
  // The printing whose label reads most like the field's (a due date equal to the delivery date is under "Due"),
  // then for amounts the last (the summary), else the first.
  const amount = f.data_type === 'number' || f.data_type === 'currency';
  const order = amount ? [...labelled].reverse() : labelled;
  const { s, label } = order.reduce((best, x) => (x.score > best.score ? x : best));
  const words = spanWords(s);
  const line = s.page.lines[s.line]!.words;
  const next = line[s.to];
  const last = line[s.to - 1]!;
  const anchor: FieldAnchor = {
    key: f.key,
    page: s.page.number,
    region: toPage(s.page, words),
    words: s.to - s.from,
    lines: 1 + s.more.length,
  };
  if (!s.more.length && next && next.x0 - last.x1 <= PHRASE_GAP_HEIGHTS * height(next)) anchor.after = textDigest(squash(next.text));
  const prev = line[s.from - 1];
  if (label?.direction === 'right' && prev && line[s.from]!.x0 - prev.x1 <= PHRASE_GAP_HEIGHTS * height(prev)) anchor.adjacent = true;
  if (label)
    Object.assign(anchor, {
      label: textDigest(label.text),
      labelWords: label.words.length,
      labelBox: toPage(s.page, label.words),
      direction: label.direction,
    });
  if (f.data_type === 'string' && typeof value === 'string') anchor.value = valueDigest(value);
  return anchor;
}

interface Label {
  text: string;
  words: Word[];
  direction: 'right' | 'below';
}

/** The label left of the value on its line, else the words right above it. */
function labelOf(s: ValueSpan): Label | undefined {
  const line = s.page.lines[s.line]!;
  const left = leftWords(line.words.slice(0, s.from));
  if (left.length) return { text: labelText(left), words: left, direction: 'right' };
  const above = aboveWords(s.page, s.line, spanWords(s));
  return above.length ? { text: labelText(above), words: above, direction: 'below' } : undefined;
}

/** The words right before a value that read as a label (letters, close together), nearest last. */
function leftWords(before: readonly Word[]): Word[] {
  const out: Word[] = [];
  for (let i = before.length - 1; i >= 0 && out.length < LABEL_MAX_WORDS; i--) {
    const w = before[i]!;
    if (!/\p{L}{2}/u.test(w.text)) break;
    const next = out[0];
    if (next && next.x0 - w.x1 > LABEL_GAP_HEIGHTS * height(w)) break;
    out.unshift(w);
  }
  return out;
}

/** The words of the nearest line above the value that overlap it horizontally. */
function aboveWords(page: Page, index: number, value: readonly Word[]): Word[] {
  const top = Math.min(...value.map((w) => w.y0));
  const x0 = Math.min(...value.map((w) => w.x0));
  const x1 = Math.max(...value.map((w) => w.x1));
  const reach = ABOVE_MAX_HEIGHTS * height(value[0]!);
  for (let j = index - 1; j >= 0; j--) {
    const l: Line = page.lines[j]!;
    if (l.y1 > top) continue;
    if (top - l.y1 > reach) return [];
    const over = l.words.filter((w) => w.x1 >= x0 && w.x0 <= x1 && /\p{L}{2}/u.test(w.text));
    if (over.length) return over.slice(0, LABEL_MAX_WORDS);
  }
  return [];
}

/** A label as compared: lower-case words, without the colon or dots that close it. */
export function labelText(ws: readonly Word[]): string {
  return wordsText(ws)
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s:.#-]+$/u, '')
    .trim();
}

export const height = (w: Word) => Math.max(1, w.y1 - w.y0);

/** The box around some words as fractions of their page. */
export function toPage(page: Page, ws: readonly Word[]): PageBox {
  const w = page.width || 1;
  const h = page.height || 1;
  return [
    Math.min(...ws.map((x) => x.x0)) / w,
    Math.min(...ws.map((x) => x.y0)) / h,
    Math.max(...ws.map((x) => x.x1)) / w,
    Math.max(...ws.map((x) => x.y1)) / h,
  ].map((n) => Math.round(n * 10000) / 10000) as PageBox;
}
