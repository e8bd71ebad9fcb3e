import { createHash } from 'node:crypto';
import type { FieldDef } from '../engine.types.js';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { box, plausible, type Located } from '../locate/field.locator.js';
import { cleanString } from '../parsers/value.parser.js';
import type { FieldAnchor, LayoutExemplar } from './memory.types.js';
import { height, PHRASE_GAP_HEIGHTS } from './exemplar.builder.js';
import { MAX_VALUE_LINES, squash } from './value.spans.js';

/** Confidence of a confirmed value found printed again (the same issuer's name or address). */
export const RECALL_CONFIDENCE = 0.97;
/** Fewest remembered values printed on a document for them alone to match it to their exemplar. */
export const RECALL_MATCH_MIN = 2;

/** How a label is kept and compared: the digest of its normalised words. */
export function textDigest(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16);
}

/** A confirmed text value as kept: the digest of its letters and digits, and how many there are. */
export function valueDigest(value: string): { digest: string; length: number } {
  const s = squash(value);
  return { digest: textDigest(s), length: s.length };
}

/**
 * Text values of the exemplar printed again on the document, found by their digests (the exemplar keeps no text):
 * what an issuer prints on every document — its name, its address — comes out as the person confirmed it.
 */
export function recallValues(doc: DocLayout, ex: LayoutExemplar, fields: readonly FieldDef[]): Map<string, Located> {
  const out = new Map<string, Located>();
  const byKey = new Map(fields.map((f) => [f.key, f]));
  for (const a of ex.anchors) {
    const f = byKey.get(a.key);
    if (!f || f.data_type !== 'string' || !a.value) continue;
    const found = printed(doc, a);
    if (!found) continue;
    const value = cleanString(found.words.map((w) => w.text).join(' '));
    if (value && plausible(f, value))
      out.set(a.key, { value, confidence: RECALL_CONFIDENCE, page: found.page, bbox: box(found.words), slot: `recall:${a.key}` });
  }
  return out;
}

/** How many of the exemplar's remembered text values the document prints. */
export function recalledCount(doc: DocLayout, ex: LayoutExemplar): number {
  return ex.anchors.filter((a) => a.value && printed(doc, a)).length;
}

/** The first run of words (over up to MAX_VALUE_LINES lines) whose letters and digits have the anchor's value digest. */
function printed(doc: DocLayout, a: FieldAnchor): { page: number; words: Word[] } | undefined {
  const { digest, length } = a.value!;
  for (const page of doc.pages)
    for (let i = 0; i < page.lines.length; i++) {
      const run = page.lines.slice(i, i + MAX_VALUE_LINES).flatMap((l) => l.words);
      const first = page.lines[i]!.words.length;
      for (let from = 0; from < first; from++) {
        let acc = '';
        for (let to = from; to < run.length && acc.length < length; to++) {
          acc += squash(run[to]!.text);
          if (acc.length === length && valueDigest(acc).digest === digest && endsAsRemembered(run, to, a))
            return { page: page.number, words: run.slice(from, to + 1) };
        }
      }
    }
  return undefined;
}

/**
 * The run ends where the exemplar's value ended: before the same word ("Ltd" left out by the correction), or with no
 * word close after it — "Amber Fox" inside "Amber Fox Trading" is another name.
 */
function endsAsRemembered(run: readonly Word[], to: number, a: FieldAnchor): boolean {
  const last = run[to]!;
  const next = run[to + 1];
  const close = next && next.y0 < last.y1 && next.x0 > last.x0 && next.x0 - last.x1 <= PHRASE_GAP_HEIGHTS * height(next);
  if (!close) return !a.after;
  return textDigest(squash(next.text)) === a.after;
}
