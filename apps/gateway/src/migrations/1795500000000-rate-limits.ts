import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Rate limits (spec §5.4, §8; ADR 0003): per-key overrides set by the admin CLI, and the shared
 * fixed-window counters. Both are read and written with plain SQL by `src/rate-limit` (no entities).
 * The counters are UNLOGGED: no WAL per request; a Postgres crash only resets the current windows.
 */
export class RateLimits1795500000000 implements MigrationInterface {
  name = 'RateLimits1795500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "identity"."rate_limits" (
      "api_key_id" character varying(40) NOT NULL,
      "requests_per_minute" integer NOT NULL,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "rate_limits_requests_per_minute_check" CHECK ("requests_per_minute" > 0),
      CONSTRAINT "rate_limits_pkey" PRIMARY KEY ("api_key_id"),
      CONSTRAINT "rate_limits_api_key_id_fkey" FOREIGN KEY ("api_key_id") REFERENCES "identity"."api_keys"("id") ON DELETE CASCADE)`);
    await q.query(`CREATE UNLOGGED TABLE "identity"."rate_limit_counters" (
      "api_key_id" character varying(40) NOT NULL,
      "window_start" TIMESTAMP WITH TIME ZONE NOT NULL,
      "count" integer NOT NULL,
      CONSTRAINT "rate_limit_counters_pkey" PRIMARY KEY ("api_key_id", "window_start"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "identity"."rate_limit_counters"`);
    await q.query(`DROP TABLE "identity"."rate_limits"`);
  }
}
