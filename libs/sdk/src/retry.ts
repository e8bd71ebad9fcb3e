import { parseRetryAfterSeconds } from './errors.js';

export interface RetryOptions {
  /** Further attempts after the first (default 3). 0 turns retries off. */
  maxRetries?: number;
  /** First back-off delay in ms, doubled per attempt with ±20 % jitter (default 250). */
  baseDelayMs?: number;
  /** Longest single back-off in ms (default 8000). */
  maxDelayMs?: number;
  /** A `Retry-After` longer than this (ms) is not waited for: the 429 is returned to the caller (default 60000). */
  maxRetryAfterMs?: number;
}

const DEFAULTS: Required<RetryOptions> = { maxRetries: 3, baseDelayMs: 250, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

/**
 * POSTs that are safe to repeat after a failure that may have happened mid-request (the API documents
 * them as idempotent). Every other POST is retried only on 429, which the server sends before doing anything.
 */
const IDEMPOTENT_POSTS = [
  /\/artifacts\/[^/]+\/confirm-upload$/,
  /\/artifacts\/confirm-batch-upload\/[^/]+$/,
  /\/artifacts\/[^/]+\/cancel$/,
];

export function safeToRepeat(method: string, url: string): boolean {
  const m = method.toUpperCase();
  if (['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE'].includes(m)) return true;
  const path = new URL(url).pathname;
  return m === 'POST' && IDEMPOTENT_POSTS.some((re) => re.test(path));
}

/** Exponential back-off with ±20 % jitter: attempt 0 → ~base, 1 → ~2×base, … capped at maxDelayMs. */
export function backoffMs(attempt: number, opts: RetryOptions = {}, random = Math.random): number {
  const { baseDelayMs, maxDelayMs } = { ...DEFAULTS, ...opts };
  const raw = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return Math.round(raw * (0.8 + 0.4 * random()));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

type Fetch = (input: Request) => Promise<Response>;

/**
 * A fetch that retries: 429 always (waiting `Retry-After` when the server sent one), 502/503/504 and
 * network failures when the request is safe to repeat. The request (and its `Idempotency-Key`) is
 * cloned per attempt, so every retry sends the same bytes and the same key.
 */
export function retryingFetch(base: Fetch, options: RetryOptions = {}): Fetch {
  const opts = { ...DEFAULTS, ...options };
  return async (request) => {
    const repeatable = safeToRepeat(request.method, request.url);
    for (let attempt = 0; ; attempt++) {
      const last = attempt >= opts.maxRetries;
      let response: Response;
      try {
        response = await base(request.clone());
      } catch (err) {
        if (last || !repeatable || request.signal?.aborted) throw err;
        await sleep(backoffMs(attempt, opts), request.signal);
        continue;
      }
      const retryable = response.status === 429 || (repeatable && [502, 503, 504].includes(response.status));
      if (last || !retryable) return response;
      const after = parseRetryAfterSeconds(response.headers.get('retry-after'));
      const wait = after !== undefined ? after * 1000 : backoffMs(attempt, opts);
      if (wait > opts.maxRetryAfterMs) return response;
      await response.body?.cancel().catch(() => undefined);
      await sleep(wait, request.signal);
    }
  };
}
