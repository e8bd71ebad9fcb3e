import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An attempt is claimed (inserted) before it is sent and completed after the answer: `finished_at` tells the two
 * apart, so the read side never shows an attempt still in flight as a failure. Rows from before are all finished.
 */
export class AttemptFinishedAt1799000000000 implements MigrationInterface {
  name = 'AttemptFinishedAt1799000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook"."delivery_attempts" ADD COLUMN "finished_at" TIMESTAMP WITH TIME ZONE`);
    await q.query(`UPDATE "webhook"."delivery_attempts" SET "finished_at" = "attempted_at"`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook"."delivery_attempts" DROP COLUMN "finished_at"`);
  }
}
