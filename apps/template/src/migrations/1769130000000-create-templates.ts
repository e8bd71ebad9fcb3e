import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateTemplates1769130000000 implements MigrationInterface {
  name = 'CreateTemplates1769130000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE TABLE "template"."templates" (
      "id" character varying(40) NOT NULL,
      "account_id" character varying(64) NOT NULL,
      "name" character varying(250) NOT NULL,
      "slug" character varying(250) NOT NULL,
      "description" text NOT NULL,
      "category" character varying(50) NOT NULL,
      "tags" jsonb NOT NULL,
      "status" character varying(16) NOT NULL,
      "version" integer NOT NULL,
      "is_public" boolean NOT NULL,
      "usage_count" integer NOT NULL,
      "settings" jsonb NOT NULL,
      "fields" jsonb NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      "deleted_at" TIMESTAMP WITH TIME ZONE,
      CONSTRAINT "PK_templates" PRIMARY KEY ("id"))`);
    await q.query(`CREATE UNIQUE INDEX "templates_account_slug_uq" ON "template"."templates" ("account_id", "slug")`);
    await q.query(`CREATE INDEX "templates_account_created_idx" ON "template"."templates" ("account_id", "created_at")`);
    await q.query(`CREATE TABLE "template"."template_versions" (
      "template_id" character varying(40) NOT NULL,
      "version" integer NOT NULL,
      "account_id" character varying(64) NOT NULL,
      "fields" jsonb NOT NULL,
      "created_at" TIMESTAMP WITH TIME ZONE NOT NULL,
      CONSTRAINT "PK_template_versions" PRIMARY KEY ("template_id", "version"))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "template"."template_versions"`);
    await q.query(`DROP TABLE "template"."templates"`);
  }
}
