import { env, z } from '@docket/config';

/** Rate-limit environment (composed into the gateway's env schema); documented in apps/gateway/README.md. */
export const rateLimitEnv = {
  /** `false` turns limiting off entirely (benchmarks, emergencies). */
  RATE_LIMIT_ENABLED: env.bool.default(true),
  /** Default requests per minute for a live (`dk_live_`) key without an override. */
  RATE_LIMIT_LIVE_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  /** Default requests per minute for a sandbox (`dk_test_`) key without an override (spec §5.4: lower). */
  RATE_LIMIT_SANDBOX_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** How long a key's limit is cached in memory; an admin change takes effect within this time. */
  RATE_LIMIT_CACHE_SECONDS: z.coerce.number().min(0).default(30),
};

export interface RateLimitSettings {
  enabled: boolean;
  livePerMinute: number;
  sandboxPerMinute: number;
  cacheMs: number;
}

export function rateLimitSettings(cfg: {
  RATE_LIMIT_ENABLED: boolean;
  RATE_LIMIT_LIVE_PER_MINUTE: number;
  RATE_LIMIT_SANDBOX_PER_MINUTE: number;
  RATE_LIMIT_CACHE_SECONDS: number;
}): RateLimitSettings {
  return {
    enabled: cfg.RATE_LIMIT_ENABLED,
    livePerMinute: cfg.RATE_LIMIT_LIVE_PER_MINUTE,
    sandboxPerMinute: cfg.RATE_LIMIT_SANDBOX_PER_MINUTE,
    cacheMs: cfg.RATE_LIMIT_CACHE_SECONDS * 1000,
  };
}
