import { toMicro } from '@docket/contracts';

/** Pricing in integer micro-credits; derived once from the environment. */
export interface Pricing {
  pricePerPageMicro: number;
  minPages: number;
  maxPages: number;
  bytesPerPage: number;
}

export function pricingFrom(cfg: {
  PRICE_PER_PAGE_CREDITS: number;
  HOLD_MIN_PAGES: number;
  HOLD_MAX_PAGES: number;
  BYTES_PER_PAGE_ESTIMATE: number;
}): Pricing {
  return {
    pricePerPageMicro: toMicro(cfg.PRICE_PER_PAGE_CREDITS),
    minPages: cfg.HOLD_MIN_PAGES,
    maxPages: cfg.HOLD_MAX_PAGES,
    bytesPerPage: cfg.BYTES_PER_PAGE_ESTIMATE,
  };
}

/** max(min, ceil(size / bytesPerPage)), capped at max. */
export function estimatePages(artifactSize: number, p: Pick<Pricing, 'minPages' | 'maxPages' | 'bytesPerPage'>): number {
  const bySize = Math.ceil(Math.max(0, artifactSize) / p.bytesPerPage);
  return Math.min(p.maxPages, Math.max(p.minPages, bySize));
}

/** The hold for one job, in micro-credits. Sandbox jobs hold nothing. */
export function holdAmountMicro(input: { artifactSize: number; sandbox: boolean }, p: Pricing): number {
  if (input.sandbox) return 0;
  return estimatePages(input.artifactSize, p) * p.pricePerPageMicro;
}

/**
 * What a finished job costs: the engine's page count × the price recorded on its hold (ADR 0005:
 * the real count settles, also above the hold), never more than `capMicro` — what the wallet can
 * give for this job (its hold plus the spendable balance), so the balance never falls below the
 * other holds — and never negative. Sandbox costs 0.
 */
export function actualCostMicro(input: { pages: number; sandbox: boolean; capMicro: number; pricePerPageMicro: number }): number {
  if (input.sandbox) return 0;
  const pages = Number.isFinite(input.pages) ? Math.max(0, Math.floor(input.pages)) : 0;
  return Math.max(0, Math.min(input.capMicro, pages * input.pricePerPageMicro));
}
