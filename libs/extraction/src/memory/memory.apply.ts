import type { FieldDef, FieldMeta } from '../engine.types.js';
import type { DocLayout } from '../layout/layout.types.js';
import type { DocContext } from '../parsers/value.parser.js';
import { replayAnchors } from './anchor.replay.js';
import { bestExemplar, fingerprintOf } from './fingerprint.js';
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
  const match = bestExemplar(fingerprintOf(doc), exemplars);
  if (!match) return undefined;
  const found = replayAnchors(doc, match.exemplar, fields, ctx, match.similarity);
  if (!found.size) return undefined;
  for (const [key, c] of found) {
    result[key] = c.value;
    meta[key] = { confidence: c.confidence, page: c.page, bbox: c.bbox, errors: [], provenance: 'memory' };
  }
  return { exemplar_id: match.exemplar.id, similarity: Math.round(match.similarity * 1000) / 1000, fields: [...found.keys()] };
}
