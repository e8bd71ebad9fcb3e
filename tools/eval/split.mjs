// The tune/check split of every evaluation dataset: a document belongs to `tune` or `check` by a hash of its id
// (sha256, first byte even → tune), so the split is the same on every machine, needs no list, and a new document
// falls into a half without moving the others. Read failures only on `tune`; `check` is for measuring.
import { createHash } from 'node:crypto';

export const SPLITS = ['tune', 'check'];

export function splitOf(id) {
  return createHash('sha256').update(String(id)).digest()[0] % 2 === 0 ? 'tune' : 'check';
}

/** An anchored regex (for score.mjs --only) that matches exactly these ids. */
export function idsRegex(ids) {
  return `^(?:${ids.map((id) => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
}
