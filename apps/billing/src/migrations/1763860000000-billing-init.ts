import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Wallets, holds (one per job) and the append-only ledger. */
export class BillingInit1763860000000 implements MigrationInterface {
  name = 'BillingInit1763860000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "billing"."wallets" (
      "account_id" character varying(64) NOT NULL,
      "balance_micro" bigint NOT NULL DEFAULT '0',
      "held_micro" bigint NOT NULL DEFAULT '0',
      "is_frozen" boolean NOT NULL DEFAULT false,
      "frozen_reason" character varying(64),
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "wallets_held_non_negative" CHECK ("held_micro" >= 0),
      CONSTRAINT "wallets_balance_covers_holds" CHECK ("balance_micro" >= "held_micro"),
      CONSTRAINT "PK_3758a15697c5d6964552b6a9d1c" PRIMARY KEY ("account_id"))`);

    await q.query(`CREATE TABLE "billing"."holds" (
      "job_id" character varying(64) NOT NULL,
      "account_id" character varying(64) NOT NULL,
      "sandbox" boolean NOT NULL,
      "amount_micro" bigint NOT NULL,
      "price_per_page_micro" bigint NOT NULL,
      "estimated_pages" integer NOT NULL,
      "artifact_size" bigint NOT NULL,
      "mime_type" character varying(255) NOT NULL,
      "state" character varying(16) NOT NULL DEFAULT 'held',
      "charged_micro" bigint NOT NULL DEFAULT '0',
      "outcome" character varying(16),
      "pages" integer,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "finished_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "holds_charge_within_hold" CHECK ("charged_micro" >= 0 AND "charged_micro" <= "amount_micro"),
      CONSTRAINT "holds_state_valid" CHECK ("state" IN ('held', 'settled', 'released')),
      CONSTRAINT "PK_5b64aae742795d6b69a2ae11f5b" PRIMARY KEY ("job_id"))`);
    await q.query(`CREATE INDEX "holds_account_created_idx" ON "billing"."holds" ("account_id", "created_at")`);

    await q.query(`CREATE TABLE "billing"."ledger_entries" (
      "id" character varying(40) NOT NULL,
      "account_id" character varying(64) NOT NULL,
      "kind" character varying(16) NOT NULL,
      "balance_change_micro" bigint NOT NULL,
      "held_change_micro" bigint NOT NULL,
      "balance_after_micro" bigint NOT NULL,
      "held_after_micro" bigint NOT NULL,
      "job_id" character varying(64),
      "reference" character varying(200),
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "PK_6efcb84411d3f08b08450ae75d5" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "ledger_job_kind_uq" ON "billing"."ledger_entries" ("job_id", "kind") WHERE "job_id" IS NOT NULL`);
    await q.query(`CREATE INDEX "ledger_account_created_idx" ON "billing"."ledger_entries" ("account_id", "created_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "billing"."ledger_entries"`);
    await q.query(`DROP TABLE "billing"."holds"`);
    await q.query(`DROP TABLE "billing"."wallets"`);
  }
}
