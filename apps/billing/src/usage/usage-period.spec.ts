import { describe, expect, it } from '@jest/globals';
import { usageWindow } from './usage-period.js';

describe('usageWindow', () => {
  it('is a rolling window of N days ending now', () => {
    const now = new Date('2026-11-23T12:00:00.000Z');
    expect(usageWindow('7d', now)).toEqual({ start: new Date('2026-11-16T12:00:00.000Z'), end: now });
    expect(usageWindow('30d', now).start.toISOString()).toBe('2026-10-24T12:00:00.000Z');
    expect(usageWindow('90d', now).start.toISOString()).toBe('2026-08-25T12:00:00.000Z');
  });
});
