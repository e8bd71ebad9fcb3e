import type { FieldDef } from '../engine.types.js';
import { segments } from '../layout/layout.builder.js';
import type { DocLayout, Line, Word } from '../layout/layout.types.js';
import { findTyped, type DocContext } from '../parsers/value.parser.js';
import { conceptTokens, labelSpec, matchSpan } from './label.matcher.js';

export interface Located {
  value: unknown;
  confidence: number;
  page: number;
  bbox: [number, number, number, number];
  /** Identity of the value's position, so two fields do not claim the same value. */
  slot: string;
}

const MIN_LABEL_SCORE = 0.55;

function box(ws: Word[]): [number, number, number, number] {
  return [Math.min(...ws.map((w) => w.x0)), Math.min(...ws.map((w) => w.y0)), Math.max(...ws.map((w) => w.x1)), Math.max(...ws.map((w) => w.y1))];
}

/** Text of a word list plus each word's start offset in it, to map parsed values back to words. */
function textWithOffsets(ws: Word[]): { text: string; starts: number[] } {
  const starts: number[] = [];
  let text = '';
  for (const w of ws) {
    if (text) text += ' ';
    starts.push(text.length);
    text += w.text;
  }
  return { text, starts };
}

function wordsIn(ws: Word[], starts: number[], index: number, length: number): Word[] {
  const out = ws.filter((_, i) => starts[i]! < index + length && starts[i]! + ws[i]!.text.length > index);
  return out.length ? out : ws;
}

/** Candidate values for `field` in one run of words; best first. */
function valuesIn(ws: Word[], field: FieldDef, ctx: DocContext): { value: unknown; quality: number; words: Word[] }[] {
  if (!ws.length) return [];
  const { text, starts } = textWithOffsets(ws);
  const found = findTyped(text, field.data_type, ctx);
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
  if (field.data_type === 'string') {
    // A string value stops at the first wide gap (the next column) after the value starts.
    const segs = segments({ ...line, words: ws }, 2.5);
    return segs[0]?.words ?? [];
  }
  return ws;
}

/** The first line below the label whose words overlap the label's column. */
function belowOf(lines: Line[], li: number, labelBox: [number, number, number, number], field: FieldDef): Word[][] {
  const out: Word[][] = [];
  const label = lines[li]!;
  const h = Math.max(1, label.y1 - label.y0);
  for (let k = li + 1; k < lines.length && out.length < 2; k++) {
    const l = lines[k]!;
    if (l.y0 - label.y1 > h * 3.5) break;
    for (const seg of segments(l, 1.5)) {
      const overlap = Math.min(seg.x1, labelBox[2] + h * 4) - Math.max(seg.x0, labelBox[0] - h);
      if (overlap > 0) {
        out.push(seg.words);
        break;
      }
    }
    if (field.data_type === 'string' && out.length) break;
  }
  return out;
}

export interface Candidate extends Located {
  labelScore: number;
}

/** All label-anchored candidates for a field across the document, best first. */
export function locateByLabel(doc: DocLayout, field: FieldDef, ctx: DocContext): Candidate[] {
  const spec = labelSpec(field.label, field.key);
  const out: Candidate[] = [];
  for (const page of doc.pages) {
    page.lines.forEach((line, li) => {
      const concepts = line.words.map((w) => conceptTokens(w.text));
      // A line may hold several label/value pairs side by side: match each segment separately.
      let offset = 0;
      for (const seg of segments(line, 2.5)) {
        const segConcepts = concepts.slice(offset, offset + seg.words.length);
        const m = matchSpan(segConcepts, spec);
        const segStart = offset;
        offset += seg.words.length;
        if (!m || m.score < MIN_LABEL_SCORE) continue;
        const labelWords = seg.words.slice(m.start, m.end);
        const labelBox = box(labelWords);
        // Value right of the label: rest of this segment, else the next segment of the line.
        const rest = rightOf(line, segStart + m.end, field);
        let placed = false;
        for (const [i, v] of valuesIn(rest, field, ctx).entries()) {
          const conf = m.score * v.quality * meanConf(v.words) * (i === 0 ? 1 : 0.9);
          out.push({ value: v.value, confidence: conf, labelScore: m.score, page: page.number, bbox: box(v.words), slot: `${page.number}:${li}:${line.words.indexOf(v.words[0]!)}` });
          placed = true;
          if (field.data_type !== 'number' && field.data_type !== 'currency') break;
        }
        if (placed) continue;
        for (const ws of belowOf(page.lines, li, labelBox, field)) {
          const vs = valuesIn(ws, field, ctx);
          const v = vs[0];
          if (!v) continue;
          const conf = m.score * v.quality * meanConf(v.words) * 0.85;
          out.push({ value: v.value, confidence: conf, labelScore: m.score, page: page.number, bbox: box(v.words), slot: `${page.number}:${li + 1}:${v.words[0]!.x0.toFixed(0)}` });
          break;
        }
      }
    });
  }
  out.sort((a, b) => b.confidence - a.confidence);
  return out;
}
