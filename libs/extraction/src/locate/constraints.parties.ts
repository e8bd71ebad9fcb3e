import type { FieldDef, FieldMeta } from '../engine.types.js';
import type { Located } from './field.locator.js';
import { acceptableString, conceptsOfField, place, REPICK_CONFIDENCE } from './constraints.js';

// Seller ≠ buyer, and each party's tax id in its own block.

/** Party names compared without case, punctuation or spacing. */
export const normName = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/** Shortest name (normalised) that counts as a party when one name ends with the other. */
const MIN_PARTY_CHARS = 4;

/** Two names of one party: equal, or one is the other with a label printed before it ("Customer: Acme GmbH"). */
function sameParty(a: string, b: string): boolean {
  const [x, y] = [normName(a), normName(b)];
  if (!x || !y) return false;
  const [short, long] = x.length <= y.length ? [x, y] : [y, x];
  return short === long || (short.length >= MIN_PARTY_CHARS && long.endsWith(short));
}

/**
 * Seller and buyer are different parties: when both resolve to the same name, the one with the weaker evidence
 * (lower confidence) is re-picked from its other label candidates or from `repick` (e.g. the issuer found elsewhere
 * on the page), else dropped.
 */
export function sellerNotBuyer(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  repick: (f: FieldDef, not: string) => Located | undefined,
): void {
  const strings = fields.filter((f) => f.data_type === 'string');
  const seller = strings.find((f) => conceptsOfField(f).has('seller') && !conceptsOfField(f).has('address'));
  const buyer = strings.find((f) => conceptsOfField(f).has('buyer') && !conceptsOfField(f).has('address'));
  if (!seller || !buyer) return;
  const [s, b] = [result[seller.key], result[buyer.key]];
  if (typeof s !== 'string' || typeof b !== 'string' || !sameParty(s, b)) return;
  const weaker = (meta[seller.key]?.confidence ?? 0) < (meta[buyer.key]?.confidence ?? 0) ? seller : buyer;
  const other = normName(weaker === seller ? b : s);
  const alt =
    (alternatives.get(weaker.key) ?? []).find(
      (c) => typeof c.value === 'string' && !sameParty(c.value, other) && acceptableString(weaker, c.value),
    ) ?? repick(weaker, other);
  if (alt && typeof alt.value === 'string' && !sameParty(alt.value, other)) {
    place(result, meta, weaker, alt, alt.confidence * REPICK_CONFIDENCE);
    return;
  }
  delete result[weaker.key];
  delete meta[weaker.key];
}

/** A party's own details stand under its name within this many of its line heights. */
const PARTY_BLOCK_LINES = 10;
/** A detail line of a block starts under the name, or at most this many line heights left of it. */
const PARTY_ALIGN_LINES = 1;

/** The schema's seller name, buyer name and seller tax id fields, when it asks for all three. */
function partyFields(fields: FieldDef[]): { seller: FieldDef; buyer: FieldDef; taxId: FieldDef } | undefined {
  const strings = fields.filter((f) => f.data_type === 'string');
  const has = (f: FieldDef, c: string) => conceptsOfField(f).has(c);
  const named = (role: string) => strings.find((f) => has(f, role) && !has(f, 'address') && !has(f, 'id') && !has(f, 'number'));
  const [seller, buyer] = [named('seller'), named('buyer')];
  const taxId = strings.find((f) => has(f, 'tax') && (has(f, 'id') || has(f, 'number')) && !has(f, 'buyer'));
  return seller && buyer && taxId ? { seller, buyer, taxId } : undefined;
}

/**
 * The seller's tax id stands in the seller's block: when neither party was read by a label and the tax id printed
 * under the name taken as the buyer's (the nearest name above it, in its column), the two names were read the wrong
 * way round ("client block first, then ours" letterheads) and change places — unless the seller is the company the
 * legal footer names (`footerIssuer`): then the tax id is the buyer's own.
 */
export function sellerHoldsTaxId(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  footerIssuer?: () => string | undefined,
): void {
  const parties = partyFields(fields);
  if (!parties) return;
  const { seller, buyer, taxId } = parties;
  const [ms, mb, mt] = [meta[seller.key], meta[buyer.key], meta[taxId.key]];
  if (!ms?.bbox || !mb?.bbox || !mt?.bbox || ms.page !== mt.page || mb.page !== mt.page) return;
  const labelled = (f: FieldDef) => (alternatives.get(f.key) ?? []).some((c) => c.value === result[f.key]);
  if (labelled(seller) || labelled(buyer)) return;
  const [gs, gb] = [gapUnder(ms.bbox, mt.bbox), gapUnder(mb.bbox, mt.bbox)];
  if (gb === undefined || (gs !== undefined && gs <= gb)) return;
  const [sellerName, footerName] = [result[seller.key], footerIssuer?.()];
  if (footerName && typeof sellerName === 'string' && sameParty(sellerName, footerName)) return;
  [result[seller.key], result[buyer.key]] = [result[buyer.key], result[seller.key]];
  [meta[seller.key], meta[buyer.key]] = [mb, ms];
}

/** How far under a party's name (`name`) a detail (`box`) stands, when it stands in that name's block. */
function gapUnder(name: [number, number, number, number], box: [number, number, number, number]): number | undefined {
  const lh = Math.max(1, name[3] - name[1]);
  const gap = box[1] - name[3];
  const inColumn = box[0] >= name[0] - lh * PARTY_ALIGN_LINES && box[0] <= name[2];
  return gap >= 0 && gap <= lh * PARTY_BLOCK_LINES && inColumn ? gap : undefined;
}

/** The block a detail stands in: the nearest party name above it in its column. */
function ownerOf(box: [number, number, number, number], names: [number, number, number, number][]): number | undefined {
  let best: { i: number; gap: number } | undefined;
  names.forEach((n, i) => {
    const gap = gapUnder(n, box);
    if (gap !== undefined && (!best || gap < best.gap)) best = { i, gap };
  });
  return best?.i;
}

/**
 * Both parties print a tax id: the seller's is the one in the seller's block. A chosen tax id that stands in the
 * buyer's block gives way to the label candidate standing in the seller's, else to a tax id printed in no party's
 * block (`printed`: the legal footer's "… – VAT …").
 */
export function taxIdOfSeller(
  fields: FieldDef[],
  alternatives: Map<string, Located[]>,
  result: Record<string, unknown>,
  meta: Record<string, FieldMeta>,
  printed: () => Located[] = () => [],
): void {
  const parties = partyFields(fields);
  if (!parties) return;
  const { seller, buyer, taxId } = parties;
  const [ms, mb, mt] = [meta[seller.key], meta[buyer.key], meta[taxId.key]];
  if (!ms?.bbox || !mb?.bbox || !mt?.bbox || ms.page !== mb.page || mt.page !== ms.page) return;
  const names = [ms.bbox, mb.bbox];
  if (ownerOf(mt.bbox, names) !== 1) return;
  const own =
    (alternatives.get(taxId.key) ?? []).find((c) => c.page === ms.page && ownerOf(c.bbox, names) === 0) ??
    printed().find((c) => c.value !== result[taxId.key] && (c.page !== ms.page || ownerOf(c.bbox, names) === undefined));
  if (own) place(result, meta, taxId, own, own.confidence * REPICK_CONFIDENCE);
}
