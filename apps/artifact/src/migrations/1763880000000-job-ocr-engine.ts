import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The template setting `ocr_engine` travels with each job to the worker, like `confidence_threshold`. */
export class JobOcrEngine1763880000000 implements MigrationInterface {
  name = 'JobOcrEngine1763880000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "artifact"."jobs" ADD COLUMN "ocr_engine" varchar(32) NOT NULL DEFAULT 'default'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "artifact"."jobs" DROP COLUMN "ocr_engine"`);
  }
}
