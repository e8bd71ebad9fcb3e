import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The template setting `default_currency` travels with each job to the worker, like `ocr_engine`. */
export class JobDefaultCurrency1797000000000 implements MigrationInterface {
  name = 'JobDefaultCurrency1797000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "artifact"."jobs" ADD COLUMN "default_currency" varchar(3) NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "artifact"."jobs" DROP COLUMN "default_currency"`);
  }
}
