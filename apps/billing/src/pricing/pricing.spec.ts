import { describe, expect, it } from '@jest/globals';
import { actualCostMicro, estimatePages, holdAmountMicro, pricingFrom } from './pricing.js';

const defaults = pricingFrom({ PRICE_PER_PAGE_CREDITS: 1, HOLD_MIN_PAGES: 5, HOLD_MAX_PAGES: 500, BYTES_PER_PAGE_ESTIMATE: 100_000 });

describe('estimatePages', () => {
  it('never estimates fewer than the minimum', () => {
    expect(estimatePages(1, defaults)).toBe(5);
    expect(estimatePages(500_000, defaults)).toBe(5);
  });

  it('rounds the size estimate up', () => {
    expect(estimatePages(500_001, defaults)).toBe(6);
    expect(estimatePages(1_000_000, defaults)).toBe(10);
  });

  it('caps at the maximum', () => {
    expect(estimatePages(50_000_001, defaults)).toBe(500);
    expect(estimatePages(10_000_000_000, defaults)).toBe(500);
  });
});

describe('holdAmountMicro', () => {
  it('is price per page × estimated pages, in micro-credits', () => {
    expect(holdAmountMicro({ artifactSize: 123, sandbox: false }, defaults)).toBe(5_000_000);
    const half = pricingFrom({ PRICE_PER_PAGE_CREDITS: 0.5, HOLD_MIN_PAGES: 1, HOLD_MAX_PAGES: 10, BYTES_PER_PAGE_ESTIMATE: 1000 });
    expect(half.pricePerPageMicro).toBe(500_000);
    expect(holdAmountMicro({ artifactSize: 2500, sandbox: false }, half)).toBe(1_500_000);
  });

  it('is exact for prices that are not binary fractions', () => {
    const p = pricingFrom({ PRICE_PER_PAGE_CREDITS: 0.1, HOLD_MIN_PAGES: 3, HOLD_MAX_PAGES: 3, BYTES_PER_PAGE_ESTIMATE: 1 });
    expect(holdAmountMicro({ artifactSize: 1, sandbox: false }, p)).toBe(300_000);
  });

  it('is zero for sandbox jobs', () => {
    expect(holdAmountMicro({ artifactSize: 99_000_000, sandbox: true }, defaults)).toBe(0);
  });
});

describe('actualCostMicro', () => {
  const base = { sandbox: false, capMicro: 50_000_000, pricePerPageMicro: 1_000_000 };

  it('charges pages × price when below the hold', () => {
    expect(actualCostMicro({ ...base, pages: 2 })).toBe(2_000_000);
  });

  it('charges the real page count above the hold, up to what the wallet can give', () => {
    expect(actualCostMicro({ ...base, pages: 30 })).toBe(30_000_000);
    expect(actualCostMicro({ ...base, pages: 90 })).toBe(50_000_000);
    expect(actualCostMicro({ ...base, pages: 3, capMicro: -1 })).toBe(0);
  });

  it('charges nothing for sandbox or zero/invalid page counts', () => {
    expect(actualCostMicro({ ...base, pages: 3, sandbox: true })).toBe(0);
    expect(actualCostMicro({ ...base, pages: 0 })).toBe(0);
    expect(actualCostMicro({ ...base, pages: -4 })).toBe(0);
    expect(actualCostMicro({ ...base, pages: Number.NaN })).toBe(0);
  });
});
