import { describe, expect, it } from '@jest/globals';
import { RETENTION_POLICIES } from '@docket/contracts';
import { RETENTION_MS, retentionCutoffs } from './retention.js';

describe('retention cutoffs', () => {
  it('covers every timed policy and none of immediate / never', () => {
    expect(Object.keys(RETENTION_MS).sort()).toEqual(RETENTION_POLICIES.filter((p) => p !== 'immediate' && p !== 'never').sort());
  });

  it('subtracts the policy duration from now', () => {
    const now = new Date('2026-11-23T12:00:00.000Z');
    const byPolicy = Object.fromEntries(retentionCutoffs(now).map((c) => [c.policy, c.uploadedBefore.toISOString()]));
    expect(byPolicy['3h']).toBe('2026-11-23T09:00:00.000Z');
    expect(byPolicy['1d']).toBe('2026-11-22T12:00:00.000Z');
    expect(byPolicy['30d']).toBe('2026-10-24T12:00:00.000Z');
    expect(byPolicy['365d']).toBe('2025-11-23T12:00:00.000Z');
  });
});
