import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Accounts, API keys and their hashed secrets (spec §5, ADR 0002). Generated from the entities, then reviewed. */
export class IdentityInit1795396541522 implements MigrationInterface {
  name = 'IdentityInit1795396541522';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "identity"."accounts" (
      "id" character varying(40) NOT NULL,
      "name" character varying(200) NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      CONSTRAINT "accounts_pkey" PRIMARY KEY ("id"))`);
    await q.query(`CREATE TABLE "identity"."api_keys" (
      "id" character varying(40) NOT NULL,
      "account_id" character varying(40) NOT NULL,
      "api_key" character varying(64) NOT NULL,
      "environment" character varying(10) NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "revoked_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "api_keys_environment_check" CHECK ("environment" IN ('sandbox', 'live')),
      CONSTRAINT "api_keys_pkey" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "api_keys_api_key_key" ON "identity"."api_keys" ("api_key")`);
    await q.query(`CREATE INDEX "api_keys_account_id_idx" ON "identity"."api_keys" ("account_id")`);
    await q.query(`CREATE TABLE "identity"."key_secrets" (
      "id" character varying(40) NOT NULL,
      "api_key_id" character varying(40) NOT NULL,
      "secret_hash" character(64) NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
      "revoked_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "key_secrets_pkey" PRIMARY KEY ("id"))`);
    await q.query(`CREATE INDEX "key_secrets_api_key_id_idx" ON "identity"."key_secrets" ("api_key_id")`);
    await q.query(`ALTER TABLE "identity"."api_keys" ADD CONSTRAINT "api_keys_account_id_fkey"
      FOREIGN KEY ("account_id") REFERENCES "identity"."accounts"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
    await q.query(`ALTER TABLE "identity"."key_secrets" ADD CONSTRAINT "key_secrets_api_key_id_fkey"
      FOREIGN KEY ("api_key_id") REFERENCES "identity"."api_keys"("id") ON DELETE NO ACTION ON UPDATE NO ACTION`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "identity"."key_secrets"`);
    await q.query(`DROP TABLE "identity"."api_keys"`);
    await q.query(`DROP TABLE "identity"."accounts"`);
  }
}
