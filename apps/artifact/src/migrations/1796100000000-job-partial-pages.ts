import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * ADR 0005: the template setting `partial_pages` travels with each job, and the page count the worker found before
 * reading (the hold was re-sized to it) is kept to report a partial reading.
 */
export class JobPartialPages1796100000000 implements MigrationInterface {
  name = 'JobPartialPages1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE "artifact"."jobs" ADD COLUMN "partial_pages" boolean NOT NULL DEFAULT false, ADD COLUMN "page_count" integer`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "artifact"."jobs" DROP COLUMN "partial_pages", DROP COLUMN "page_count"`);
  }
}
