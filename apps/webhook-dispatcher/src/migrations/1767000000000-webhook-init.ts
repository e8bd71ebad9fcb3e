import type { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookInit1767000000000 implements MigrationInterface {
  name = 'WebhookInit1767000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "webhook"."webhooks" (
      "id" text NOT NULL,
      "account_id" text NOT NULL,
      "url" text NOT NULL,
      "description" text NOT NULL DEFAULT '',
      "events" text array NOT NULL,
      "is_active" boolean NOT NULL DEFAULT true,
      "is_one_shot" boolean NOT NULL DEFAULT false,
      "secret_ciphertext" text NOT NULL,
      "previous_secret_ciphertext" text,
      "previous_secret_expires_at" TIMESTAMP WITH TIME ZONE,
      "deleted_at" TIMESTAMP WITH TIME ZONE,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_webhooks" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "webhooks_account_idx" ON "webhook"."webhooks" ("account_id", "created_at")`);
    await q.query(`CREATE TABLE "webhook"."delivery_attempts" (
      "id" text NOT NULL,
      "account_id" text NOT NULL,
      "webhook_id" text NOT NULL,
      "job_id" text NOT NULL,
      "event_type" text NOT NULL,
      "attempt_number" integer NOT NULL,
      "url" text NOT NULL,
      "request_headers" jsonb NOT NULL,
      "response_status_code" integer NOT NULL,
      "response_body" text NOT NULL,
      "is_success" boolean NOT NULL,
      "duration_ms" integer NOT NULL,
      "attempted_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_delivery_attempts" PRIMARY KEY ("id"))`);
    await q.query(
      `CREATE UNIQUE INDEX "delivery_attempts_attempt_uq" ON "webhook"."delivery_attempts" ("job_id", "event_type", "attempt_number", "webhook_id")`,
    );
    await q.query(`CREATE INDEX "delivery_attempts_account_job_idx" ON "webhook"."delivery_attempts" ("account_id", "job_id")`);
    await q.query(`CREATE INDEX "delivery_attempts_webhook_time_idx" ON "webhook"."delivery_attempts" ("webhook_id", "attempted_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "webhook"."delivery_attempts"`);
    await q.query(`DROP TABLE "webhook"."webhooks"`);
  }
}
