import type { UsagePeriod } from '@docket/contracts';

const DAYS: Record<UsagePeriod, number> = { '7d': 7, '30d': 30, '90d': 90 };

/** The rolling window of a usage period, ending now. */
export function usageWindow(period: UsagePeriod, now: Date): { start: Date; end: Date } {
  return { start: new Date(now.getTime() - DAYS[period] * 24 * 3600 * 1000), end: now };
}
