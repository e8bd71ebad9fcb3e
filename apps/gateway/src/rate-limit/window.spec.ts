import { describe, expect, it } from '@jest/globals';
import { decide, rateLimitHeaders, windowStart, WINDOW_MS } from './window.js';

const T0 = Date.UTC(2026, 10, 23, 10, 0, 0); // on a minute boundary

describe('fixed-window rate-limit math', () => {
  it('aligns windows to the minute, the same on every replica', () => {
    expect(WINDOW_MS).toBe(60_000);
    expect(windowStart(T0)).toBe(T0);
    expect(windowStart(T0 + 1)).toBe(T0);
    expect(windowStart(T0 + 59_999)).toBe(T0);
    expect(windowStart(T0 + 60_000)).toBe(T0 + 60_000);
    expect(windowStart(T0 + 12_345, 10_000)).toBe(T0 + 10_000);
  });

  it('admits with the remaining quota after this request', () => {
    expect(decide(1, 60, T0 + 15_000)).toEqual({ allowed: true, limit: 60, remaining: 59, resetAt: T0 / 1000 + 60, retryAfterSeconds: 45 });
    expect(decide(60, 60, T0 + 15_000)).toMatchObject({ allowed: true, remaining: 0 });
    // A limit lowered mid-window never reports a negative remainder.
    expect(decide(80, 60, T0 + 15_000)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('refuses with Retry-After = whole seconds to the window end, at least 1', () => {
    expect(decide(null, 60, T0)).toEqual({ allowed: false, limit: 60, remaining: 0, resetAt: T0 / 1000 + 60, retryAfterSeconds: 60 });
    expect(decide(null, 60, T0 + 58_500).retryAfterSeconds).toBe(2);
    expect(decide(null, 60, T0 + 59_001).retryAfterSeconds).toBe(1);
    expect(decide(null, 60, T0 + 59_999).retryAfterSeconds).toBe(1);
  });

  it('renders the X-RateLimit headers (reset as Unix seconds)', () => {
    expect(rateLimitHeaders(decide(3, 10, T0 + 1000))).toEqual({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '7',
      'x-ratelimit-reset': String(T0 / 1000 + 60),
    });
  });
});
