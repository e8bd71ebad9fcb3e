import { expectEventually } from '@docket/testing';
import { describe, expect, it, jest } from '@jest/globals';
import { apiHelpers, basic, useE2eStack } from './stack.test-helper.js';

jest.setTimeout(180_000);

const SANDBOX_LIMIT = 5;
const WINDOW_MS = 60_000;

/** The counted requests must fall in one fixed minute window: wait out the last seconds of one. */
async function awayFromWindowEdge(marginMs = 10_000): Promise<void> {
  const left = WINDOW_MS - (Date.now() % WINDOW_MS);
  if (left < marginMs) await new Promise((r) => setTimeout(r, left + 100));
}

describe('Rate limits, all services as processes, public HTTP only', () => {
  const suite = useE2eStack('Rate limits', {
    RATE_LIMIT_SANDBOX_PER_MINUTE: String(SANDBOX_LIMIT),
    RATE_LIMIT_LIVE_PER_MINUTE: '1000',
    RATE_LIMIT_CACHE_SECONDS: '1',
  });
  const { api } = apiHelpers(suite);

  it('gives the sandbox key 429 + Retry-After after its lower limit while the live key still works; 401s and system endpoints never count', async () => {
    const wrongSecret = basic(suite.acct.sandbox.api_key, suite.acct.live.secret);
    for (let i = 0; i < 8; i++) await api().get('/wallet').set('authorization', wrongSecret).expect(401);
    for (let i = 0; i < 15; i++) await api().get('/status').expect(200);
    await api().get('/version').expect(200);

    await awayFromWindowEdge();
    for (let i = 1; i <= SANDBOX_LIMIT; i++) {
      const ok = await api().get('/wallet').set('authorization', suite.sandbox).expect(200);
      expect(ok.headers['x-ratelimit-limit']).toBe(String(SANDBOX_LIMIT));
      expect(ok.headers['x-ratelimit-remaining']).toBe(String(SANDBOX_LIMIT - i));
      expect(Number(ok.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    }
    const limited = await api().get('/wallet').set('authorization', suite.sandbox).expect(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'rate_limited',
      message: expect.stringContaining(`${SANDBOX_LIMIT} requests per minute`),
      details: { retry_after_seconds: retryAfter, limit: SANDBOX_LIMIT },
      request_id: expect.any(String),
    });
    // Any authenticated route of the limited key, not only /wallet.
    await api().get('/templates/').set('authorization', suite.sandbox).expect(429);

    const live = await api().get('/wallet').set('authorization', suite.live).expect(200);
    expect(live.headers['x-ratelimit-limit']).toBe('1000');
    // Another account's sandbox key has its own quota.
    await api().get('/wallet').set('authorization', basic(suite.other.sandbox.api_key, suite.other.sandbox.secret)).expect(200);

    for (let i = 0; i < 10; i++) {
      const status = await api().get('/status').expect(200);
      expect(status.headers['x-ratelimit-limit']).toBeUndefined();
    }
    await api().get('/version').expect(200);
    await api().get('/health').expect(200);
  });

  it('admin set-rate-limit raises a key`s limit, applied by the running gateway within its cache time', async () => {
    const key = suite.acct.sandbox.api_key;
    expect(await suite.stack.admin(['set-rate-limit', '--api-key', key, '--per-minute', '500'])).toEqual({
      api_key: key,
      environment: 'sandbox',
      requests_per_minute: 500,
      source: 'override',
    });
    await expectEventually(
      async () => {
        const ok = await api().get('/wallet').set('authorization', suite.sandbox).expect(200);
        expect(ok.headers['x-ratelimit-limit']).toBe('500');
      },
      { what: 'override applied after the limit cache expires' },
    );

    expect(await suite.stack.admin(['set-rate-limit', '--api-key', key, '--per-minute', 'default'])).toMatchObject({
      requests_per_minute: SANDBOX_LIMIT,
      source: 'default',
    });
  });
});
