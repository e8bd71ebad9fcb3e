import { describe, expect, it } from '@jest/globals';
import { decodeTime } from 'ulid';
import { pooledRandom, REQUEST_ID_ENTROPY_BYTES, requestIdFrom } from './logging.js';

const MINTED = /^req_[0-9a-hjkmnp-tv-z]{26}$/;
const MANY = 5_000;

describe('request ids', () => {
  it("reuses a caller's well-formed X-Request-Id and mints one otherwise", () => {
    expect(requestIdFrom('client-id-12345')).toBe('client-id-12345');
    expect(requestIdFrom(['first-id-0001', 'second-id-0002'])).toBe('first-id-0001');
    for (const bad of [undefined, '', 'short', 'has space in it', 'x'.repeat(129)]) expect(requestIdFrom(bad)).toMatch(MINTED);
  });

  it('mints distinct ULIDs carrying the current time', () => {
    const before = Date.now();
    const ids = Array.from({ length: MANY }, () => requestIdFrom(undefined));
    expect(new Set(ids).size).toBe(MANY);
    const time = decodeTime(ids[0].slice(4).toUpperCase());
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(Date.now());
  });

  it('draws its randomness from refilled blocks: values in [0, 1), every byte value reachable, across refills', () => {
    const values = Array.from({ length: 3 * REQUEST_ID_ENTROPY_BYTES }, pooledRandom);
    expect(Math.min(...values)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...values)).toBeLessThan(1);
    const seen = new Set(values.map((v) => v * 256));
    // 12,288 uniform bytes miss one of the 256 values with probability ~256·e^-48: never, unless the pool repeats a constant.
    expect(seen.size).toBe(256);
  });
});
