import type { RetentionPolicy } from '@docket/contracts';

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;

/** How long the raw upload is kept after `uploaded_at` (spec §2.8). `immediate` and `never` are handled apart. */
export const RETENTION_MS: Readonly<Record<Exclude<RetentionPolicy, 'immediate' | 'never'>, number>> = {
  '3h': 3 * HOUR,
  '6h': 6 * HOUR,
  '12h': 12 * HOUR,
  '1d': DAY,
  '3d': 3 * DAY,
  '7d': 7 * DAY,
  '30d': 30 * DAY,
  '90d': 90 * DAY,
  '365d': 365 * DAY,
};

/** Per timed policy, the latest `uploaded_at` whose source is due for purging at `now`. */
export function retentionCutoffs(now: Date): { policy: string; uploadedBefore: Date }[] {
  return Object.entries(RETENTION_MS).map(([policy, ms]) => ({ policy, uploadedBefore: new Date(now.getTime() - ms) }));
}
