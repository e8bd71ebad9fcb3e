import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Layout memory (ADR 0014): exemplars learned from confirmed results, the per-account setting, and the job's note. */
export class LayoutMemory1799000000000 implements MigrationInterface {
  name = 'LayoutMemory1799000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "artifact"."layout_exemplars" (
      "id" varchar(40) NOT NULL,
      "account_id" varchar(40) NOT NULL,
      "job_id" varchar(40) NOT NULL,
      "artifact_id" varchar(40) NOT NULL,
      "template_id" varchar(40) NULL,
      "source" varchar(16) NOT NULL,
      "result_version" integer NOT NULL,
      "fingerprint" jsonb NOT NULL,
      "anchors" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_layout_exemplars" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "layout_exemplars_account_idx" ON "artifact"."layout_exemplars" ("account_id", "created_at")`);
    await q.query(`CREATE UNIQUE INDEX "layout_exemplars_job_uq" ON "artifact"."layout_exemplars" ("job_id")`);
    await q.query(`CREATE INDEX "layout_exemplars_artifact_idx" ON "artifact"."layout_exemplars" ("artifact_id")`);
    await q.query(`CREATE TABLE "artifact"."account_memory" (
      "account_id" varchar(40) NOT NULL,
      "enabled" boolean NOT NULL,
      "updated_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_account_memory" PRIMARY KEY ("account_id"))`);
    await q.query(`ALTER TABLE "artifact"."jobs" ADD COLUMN "memory" jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "artifact"."jobs" DROP COLUMN "memory"`);
    await q.query(`DROP TABLE "artifact"."account_memory"`);
    await q.query(`DROP TABLE "artifact"."layout_exemplars"`);
  }
}
