import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Batches (spec §4.3) and pipelines (spec §2.5, §4.7). `jobs.batch_id` existed already; now indexed. */
export class BatchesPipelines1763870000000 implements MigrationInterface {
  name = 'BatchesPipelines1763870000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "artifact"."batches" (
      "id" varchar(40) PRIMARY KEY,
      "account_id" varchar(40) NOT NULL,
      "total" integer NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "upload_expires_at" timestamptz NOT NULL
    )`);
    await q.query(`CREATE INDEX "batches_account_created_idx" ON "artifact"."batches" ("account_id", "created_at")`);
    await q.query(`CREATE INDEX "jobs_batch_idx" ON "artifact"."jobs" ("batch_id")`);
    await q.query(`CREATE TABLE "artifact"."pipelines" (
      "id" varchar(40) PRIMARY KEY,
      "account_id" varchar(40) NOT NULL,
      "name" varchar(255) NOT NULL,
      "is_active" boolean NOT NULL DEFAULT true,
      "is_default" boolean NOT NULL DEFAULT false,
      "template_id" varchar(64),
      "webhook_id" varchar(64),
      "execution_count" integer NOT NULL DEFAULT 0,
      "created_at" timestamptz NOT NULL DEFAULT now()
    )`);
    await q.query(`CREATE INDEX "pipelines_account_idx" ON "artifact"."pipelines" ("account_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "artifact"."pipelines"`);
    await q.query(`DROP INDEX "artifact"."jobs_batch_idx"`);
    await q.query(`DROP TABLE "artifact"."batches"`);
  }
}
