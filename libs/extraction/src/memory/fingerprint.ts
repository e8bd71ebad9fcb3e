import { createHash } from 'node:crypto';
import type { DocLayout, Word } from '../layout/layout.types.js';
import { findIban, findVatIds } from '../parsers/identifier.parser.js';
import type { LayoutExemplar, LayoutFingerprint } from './memory.types.js';

/** Share of the first page's height that is its letterhead. */
const HEADER_BAND = 0.25;
/** Most word digests kept per fingerprint part (a page of prose must not make a huge row). */
const MAX_DIGESTS = 400;
/** Shortest letter-only word counted in the words part ("to", "of" say nothing about a layout). */
const MIN_WORD_LETTERS = 3;
/** Two page sizes within this share of each other are the same paper. */
const SAME_SIZE = 0.03;
/** Similarity of a document whose issuer identifiers an exemplar shares (same issuer: the same layout, almost always). */
const SHARED_ID_SIMILARITY = 0.9;
/**
 * Least text similarity for a shared identifier to count: the buyer's own VAT id or IBAN is printed on every
 * supplier's invoice to it, so an identifier alone does not tell one supplier's layout from another's.
 */
const ID_TEXT_MIN = 0.25;
/** Weight of the letterhead against the page's words in the similarity. */
const HEADER_WEIGHT = 0.4;
/** Factor on the similarity of pages of another size. */
const OTHER_SIZE_FACTOR = 0.7;
/** Least similarity at which a document is taken to be of an exemplar's layout. */
export const MATCH_MIN = 0.6;

const digest = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);
const norm = (s: string) => s.normalize('NFKC').toLowerCase();

/** The fingerprint of a read document. */
export function fingerprintOf(doc: DocLayout): LayoutFingerprint {
  const first = doc.pages[0];
  const ids = new Set<string>();
  for (const p of doc.pages)
    for (const l of p.lines) {
      const text = l.words.map((w) => w.text).join(' ');
      for (const v of findVatIds(text.toUpperCase())) ids.add(digest(v.value.replace(/[\s.-]/g, '')));
      const iban = findIban(text);
      if (iban) ids.add(digest(iban.replace(/\s/g, '')));
    }
  const words = (keep: (w: Word) => boolean) => {
    const out = new Set<string>();
    for (const l of first?.lines ?? []) for (const w of l.words) if (keep(w)) out.add(digest(norm(w.text)));
    return [...out].sort().slice(0, MAX_DIGESTS);
  };
  const height = first?.height ?? 0;
  return {
    ids: [...ids].sort(),
    header: words((w) => w.y1 <= height * HEADER_BAND && /\p{L}/u.test(w.text)),
    words: words((w) => new RegExp(`^\\p{L}{${MIN_WORD_LETTERS},}[.:]?$`, 'u').test(w.text)),
    pages: doc.pages.length,
    width: Math.round(first?.width ?? 0),
    height: Math.round(height),
  };
}

function jaccard(a: readonly string[], b: readonly string[]): number {
  if (!a.length && !b.length) return 0;
  const set = new Set(a);
  const shared = b.filter((x) => set.has(x)).length;
  return shared / (a.length + b.length - shared);
}

const sameSize = (a: number, b: number) => Math.abs(a - b) <= SAME_SIZE * Math.max(a, b, 1);

/** How alike two fingerprints are, 0..1: a shared issuer identifier, else the letterhead and the page's words. */
export function similarity(a: LayoutFingerprint, b: LayoutFingerprint): number {
  const ids = new Set(a.ids);
  const text = HEADER_WEIGHT * jaccard(a.header, b.header) + (1 - HEADER_WEIGHT) * jaccard(a.words, b.words);
  const paper = sameSize(a.width, b.width) && sameSize(a.height, b.height) ? 1 : OTHER_SIZE_FACTOR;
  const shared = text >= ID_TEXT_MIN && b.ids.some((x) => ids.has(x));
  return Math.min(1, (shared ? Math.max(SHARED_ID_SIMILARITY, text) : text) * paper);
}

/** The exemplar most like the document, when one is alike enough (ties: the one listed first, the newest). */
export function bestExemplar(
  fp: LayoutFingerprint,
  exemplars: readonly LayoutExemplar[],
): { exemplar: LayoutExemplar; similarity: number } | undefined {
  let best: { exemplar: LayoutExemplar; similarity: number } | undefined;
  for (const e of exemplars) {
    const s = similarity(fp, e.fingerprint);
    if (s >= MATCH_MIN && (!best || s > best.similarity)) best = { exemplar: e, similarity: s };
  }
  return best;
}
