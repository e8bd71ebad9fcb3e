import type { FieldDef, FieldMeta } from '../engine.types.js';
import type { DocLayout } from '../layout/layout.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import { labelShare, replayAnchors } from './anchor.replay.js';
import { recallValues, recalledCount, RECALL_MATCH_MIN } from './value.recall.js';
import { fingerprintOf, MATCH_MIN, similarity } from './fingerprint.js';
import type { LayoutExemplar, MemoryNote } from './memory.types.js';

/**
 * The engine's hook: when the document matches one of the account's exemplars, the values its anchors point at are
 * preferred to the engine's own reading (a person confirmed where this layout prints them). Returns the note for
 * the result's metadata, or undefined when no exemplar matched or none of its anchors was found.
 */
export function applyMemory(
  doc: DocLayout,
  fields: readonly FieldDef[],
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  exemplars: readonly LayoutExemplar[] | undefined,
  ctx: DocContext,
): MemoryNote | undefined {
  if (!exemplars?.length) return undefined;
  const match = bestMatch(doc, exemplars);
  if (!match) return undefined;
  const found = replayAnchors(doc, match.exemplar, fields, ctx, match.similarity);
  // A confirmed text printed again is that value, wherever it stands now.
  for (const [key, c] of recallValues(doc, match.exemplar, fields)) found.set(key, c);
  if (!found.size) return undefined;
  for (const [key, c] of found) {
    result[key] = c.value;
    meta[key] = { confidence: c.confidence, page: c.page, bbox: c.bbox, errors: [], provenance: 'memory' };
  }
  return { exemplar_id: match.exemplar.id, similarity: Math.round(match.similarity * 1000) / 1000, fields: [...found.keys()] };
}

/** Least share of an exemplar's labels found in place for the labels alone to match a document to it. */
const LABEL_SHARE_MIN = 0.8;
/** Similarity given to a document that only the exemplar's labels (or its remembered texts) match (below REGION_MIN_SIMILARITY: no region reads). */
const LABEL_MATCH_SIMILARITY = 0.7;

/** The exemplar most like the document: by fingerprint, by its labels printed on the page, or by its texts printed again. */
function bestMatch(doc: DocLayout, exemplars: readonly LayoutExemplar[]): { exemplar: LayoutExemplar; similarity: number } | undefined {
  const fp = fingerprintOf(doc);
  let best: { exemplar: LayoutExemplar; similarity: number } | undefined;
  for (const exemplar of exemplars) {
    let s = similarity(fp, exemplar.fingerprint);
    if (s < MATCH_MIN && (labelShare(doc, exemplar) >= LABEL_SHARE_MIN || recalledCount(doc, exemplar) >= RECALL_MATCH_MIN))
      s = LABEL_MATCH_SIMILARITY;
    if (s >= MATCH_MIN && (!best || s > best.similarity)) best = { exemplar, similarity: s };
  }
  return best;
}
