import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Default pipelines without a template get the built-in `auto` template (ADR 0005), as new ones do. */
export class AutoTemplateDefault1796000000000 implements MigrationInterface {
  name = 'AutoTemplateDefault1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE "artifact"."pipelines" SET "template_id" = 'auto' WHERE "is_default" AND "template_id" IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE "artifact"."pipelines" SET "template_id" = NULL WHERE "is_default" AND "template_id" = 'auto'`);
  }
}
