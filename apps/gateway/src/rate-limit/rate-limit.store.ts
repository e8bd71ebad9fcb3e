import type { DataSource } from 'typeorm';

/**
 * Per-key request counters in Postgres (`identity.rate_limit_counters`, UNLOGGED), shared by every
 * gateway replica. One statement per request admits or refuses it atomically.
 */
export class RateLimitStore {
  constructor(private readonly ds: DataSource) {}

  /**
   * Counts one request of `apiKeyId` in the window starting at `windowStartMs` if fewer than `limit`
   * were admitted there. Returns the new count, or null when the window is full (refused requests
   * are not counted, so a client that backs off for `Retry-After` gets its full quota back).
   * `ON CONFLICT DO UPDATE … WHERE` locks the row and re-checks the latest count, so concurrent
   * requests on any number of replicas never admit more than `limit`.
   */
  async consume(apiKeyId: string, windowStartMs: number, limit: number): Promise<number | null> {
    const rows: { count: number }[] = await this.ds.query(
      `INSERT INTO "identity"."rate_limit_counters" AS c ("api_key_id", "window_start", "count")
       VALUES ($1, to_timestamp($2::double precision / 1000), 1)
       ON CONFLICT ("api_key_id", "window_start") DO UPDATE SET "count" = c."count" + 1
       WHERE c."count" < $3
       RETURNING c."count"`,
      [apiKeyId, windowStartMs, limit],
    );
    const count = rows[0]?.count;
    if (count === undefined) return null;
    // First request of a new window: drop the key's older windows (one row per active key remains).
    if (count === 1) {
      await this.ds.query(
        `DELETE FROM "identity"."rate_limit_counters" WHERE "api_key_id" = $1 AND "window_start" < to_timestamp($2::double precision / 1000)`,
        [apiKeyId, windowStartMs],
      );
    }
    return count;
  }

  /** The key's per-minute override, or null when it uses its environment's default. */
  async override(apiKeyId: string): Promise<number | null> {
    const rows: { requests_per_minute: number }[] = await this.ds.query(
      `SELECT "requests_per_minute" FROM "identity"."rate_limits" WHERE "api_key_id" = $1`,
      [apiKeyId],
    );
    return rows[0]?.requests_per_minute ?? null;
  }
}
