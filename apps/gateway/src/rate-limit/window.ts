/**
 * Fixed-window arithmetic (pure, unit-tested). A key may make `limit` requests per window; the
 * window is aligned to the epoch (every minute on the minute), so all gateway replicas agree on it.
 */
export const WINDOW_MS = 60_000;

export function windowStart(nowMs: number, windowMs = WINDOW_MS): number {
  return Math.floor(nowMs / windowMs) * windowMs;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  /** Requests left in this window after this one (0 when refused). */
  remaining: number;
  /** Unix time (seconds) when the window ends and the count starts again. */
  resetAt: number;
  /** Whole seconds until the window ends, at least 1: the `Retry-After` of a refusal. */
  retryAfterSeconds: number;
}

/**
 * @param count the key's count in this window after this request was admitted, or null when the
 *   store refused it (the window is already full).
 */
export function decide(count: number | null, limit: number, nowMs: number, windowMs = WINDOW_MS): RateLimitDecision {
  const end = windowStart(nowMs, windowMs) + windowMs;
  const retryAfterSeconds = Math.max(1, Math.ceil((end - nowMs) / 1000));
  const resetAt = Math.ceil(end / 1000);
  if (count === null) return { allowed: false, limit, remaining: 0, resetAt, retryAfterSeconds };
  return { allowed: true, limit, remaining: Math.max(0, limit - count), resetAt, retryAfterSeconds };
}

/** The headers every authenticated response carries. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  return {
    'x-ratelimit-limit': String(d.limit),
    'x-ratelimit-remaining': String(d.remaining),
    'x-ratelimit-reset': String(d.resetAt),
  };
}
