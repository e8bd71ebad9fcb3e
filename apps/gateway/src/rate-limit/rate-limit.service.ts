import { DocketError } from '@docket/errors';
import type { DataSource } from 'typeorm';
import { isApiKey, type AuthContext, type Environment } from '../identity/index.js';
import type { RateLimitSettings } from './rate-limit.config.js';
import { RateLimitStore } from './rate-limit.store.js';
import { decide, windowStart, WINDOW_MS, type RateLimitDecision } from './window.js';

export interface KeyRateLimit {
  api_key: string;
  environment: Environment;
  requests_per_minute: number;
  /** `override` when set by an admin, `default` when it comes from the environment's default. */
  source: 'override' | 'default';
}

/**
 * Per-API-key limits (spec §5.4, §8): an admin override from `identity.rate_limits`, else the
 * environment default; cached in memory for `cacheMs`. Counting goes through the shared store.
 */
export class RateLimitService {
  private readonly store: RateLimitStore;
  private readonly cache = new Map<string, { limit: number; expiresAt: number }>();

  constructor(
    private readonly ds: DataSource,
    private readonly settings: RateLimitSettings,
    private readonly now: () => number = Date.now,
  ) {
    this.store = new RateLimitStore(ds);
  }

  get enabled(): boolean {
    return this.settings.enabled;
  }

  defaultFor(environment: Environment): number {
    return environment === 'sandbox' ? this.settings.sandboxPerMinute : this.settings.livePerMinute;
  }

  /** Counts one authenticated request and says whether it may proceed. */
  async consume(auth: AuthContext): Promise<RateLimitDecision> {
    const limit = await this.limitFor(auth);
    const now = this.now();
    const count = await this.store.consume(auth.apiKeyId, windowStart(now, WINDOW_MS), limit);
    return decide(count, limit, now, WINDOW_MS);
  }

  async limitFor(auth: AuthContext): Promise<number> {
    const cached = this.cache.get(auth.apiKeyId);
    if (cached && cached.expiresAt > this.now()) return cached.limit;
    const limit = (await this.store.override(auth.apiKeyId)) ?? this.defaultFor(auth.sandbox ? 'sandbox' : 'live');
    if (this.settings.cacheMs > 0) this.cache.set(auth.apiKeyId, { limit, expiresAt: this.now() + this.settings.cacheMs });
    return limit;
  }

  /**
   * Admin: sets a key's requests per minute, or removes its override when `perMinute` is null.
   * Running gateways pick it up within their cache time.
   */
  async setLimit(apiKey: string, perMinute: number | null): Promise<KeyRateLimit> {
    if (typeof apiKey !== 'string' || !isApiKey(apiKey)) {
      throw new DocketError('validation_failed', 'api_key must look like dk_test_… or dk_live_…');
    }
    const keys: { id: string; environment: Environment }[] = await this.ds.query(
      `SELECT "id", "environment" FROM "identity"."api_keys" WHERE "api_key" = $1`,
      [apiKey],
    );
    const key = keys[0];
    if (!key) throw new DocketError('not_found', `API key ${apiKey} does not exist`);
    if (perMinute === null) {
      await this.ds.query(`DELETE FROM "identity"."rate_limits" WHERE "api_key_id" = $1`, [key.id]);
      return { api_key: apiKey, environment: key.environment, requests_per_minute: this.defaultFor(key.environment), source: 'default' };
    }
    await this.ds.query(
      `INSERT INTO "identity"."rate_limits" ("api_key_id", "requests_per_minute") VALUES ($1, $2)
       ON CONFLICT ("api_key_id") DO UPDATE SET "requests_per_minute" = EXCLUDED."requests_per_minute", "updated_at" = now()`,
      [key.id, perMinute],
    );
    this.cache.delete(key.id);
    return { api_key: apiKey, environment: key.environment, requests_per_minute: perMinute, source: 'override' };
  }
}
