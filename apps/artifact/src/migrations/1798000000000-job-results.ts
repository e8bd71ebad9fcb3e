import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Review workflow: result versions (the engine's reading kept, each correction a new version) and who reviewed. */
export class JobResults1798000000000 implements MigrationInterface {
  name = 'JobResults1798000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "artifact"."job_results" (
      "id" varchar(40) NOT NULL,
      "job_id" varchar(40) NOT NULL,
      "artifact_id" varchar(40) NOT NULL,
      "account_id" varchar(40) NOT NULL,
      "version" integer NOT NULL,
      "source" varchar(16) NOT NULL,
      "api_key_id" varchar(64) NULL,
      "result" jsonb NOT NULL,
      "changed_fields" jsonb NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT "PK_job_results" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "job_results_job_version_uq" ON "artifact"."job_results" ("job_id", "version")`);
    await q.query(`CREATE INDEX "job_results_account_idx" ON "artifact"."job_results" ("account_id", "job_id")`);
    await q.query(`ALTER TABLE "artifact"."jobs" ADD COLUMN "result_version" integer NOT NULL DEFAULT 1`);
    await q.query(`ALTER TABLE "artifact"."jobs" ADD COLUMN "reviewed_at" timestamptz NULL`);
    await q.query(`ALTER TABLE "artifact"."jobs" ADD COLUMN "reviewed_by" varchar(64) NULL`);
    await q.query(`CREATE INDEX "jobs_review_idx" ON "artifact"."jobs" ("account_id", "created_at") WHERE needs_review`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "artifact"."jobs_review_idx"`);
    await q.query(`ALTER TABLE "artifact"."jobs" DROP COLUMN "reviewed_by"`);
    await q.query(`ALTER TABLE "artifact"."jobs" DROP COLUMN "reviewed_at"`);
    await q.query(`ALTER TABLE "artifact"."jobs" DROP COLUMN "result_version"`);
    await q.query(`DROP TABLE "artifact"."job_results"`);
  }
}
