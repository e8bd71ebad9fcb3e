import type { MigrationInterface, QueryRunner } from 'typeorm';
import { outboxTableSql } from '@docket/messaging';

export class Initial1763859600000 implements MigrationInterface {
  name = 'Initial1763859600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "artifact"."artifacts" (
      "id" varchar(40) PRIMARY KEY,
      "account_id" varchar(40) NOT NULL,
      "filename" varchar(255) NOT NULL,
      "artifact_type" varchar(255) NOT NULL,
      "artifact_size" bigint NOT NULL,
      "status" varchar(32) NOT NULL,
      "retention_policy" varchar(16) NOT NULL,
      "description" text,
      "tags" jsonb NOT NULL DEFAULT '[]',
      "storage_key" text NOT NULL,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "uploaded_at" timestamptz,
      "processed_at" timestamptz,
      "status_message" text,
      "confidence" double precision,
      "needs_review" boolean NOT NULL DEFAULT false,
      "latest_job_id" varchar(40),
      "latest_result" jsonb,
      "source_purged_at" timestamptz
    )`);
    await q.query(`CREATE INDEX "artifacts_account_created_idx" ON "artifact"."artifacts" ("account_id", "created_at")`);
    await q.query(`CREATE TABLE "artifact"."jobs" (
      "id" varchar(40) PRIMARY KEY,
      "artifact_id" varchar(40) NOT NULL,
      "account_id" varchar(40) NOT NULL,
      "api_key_id" varchar(64),
      "status" varchar(32) NOT NULL,
      "sandbox" boolean NOT NULL,
      "template_id" varchar(40),
      "template_version" integer,
      "schema" jsonb NOT NULL,
      "confidence_threshold" double precision NOT NULL DEFAULT 0.7,
      "webhook_id" varchar(40),
      "batch_id" varchar(40),
      "hold_amount" double precision NOT NULL DEFAULT 0,
      "attempts" integer NOT NULL DEFAULT 0,
      "pages" integer,
      "result" jsonb,
      "fields_meta" jsonb,
      "result_key" text,
      "markdown_key" text,
      "confidence" double precision,
      "needs_review" boolean NOT NULL DEFAULT false,
      "error" text,
      "created_at" timestamptz NOT NULL DEFAULT now(),
      "upload_expires_at" timestamptz NOT NULL,
      "queued_at" timestamptz,
      "started_at" timestamptz,
      "completed_at" timestamptz
    )`);
    await q.query(`CREATE INDEX "jobs_artifact_idx" ON "artifact"."jobs" ("artifact_id")`);
    await q.query(`CREATE INDEX "jobs_status_created_idx" ON "artifact"."jobs" ("status", "created_at")`);
    for (const sql of outboxTableSql('artifact')) await q.query(sql);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "artifact"."outbox"`);
    await q.query(`DROP TABLE "artifact"."jobs"`);
    await q.query(`DROP TABLE "artifact"."artifacts"`);
  }
}
