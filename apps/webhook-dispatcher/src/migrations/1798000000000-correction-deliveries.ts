import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `job.corrected` deliveries: one series of attempts per result version, so the attempt key gains the version. */
export class CorrectionDeliveries1798000000000 implements MigrationInterface {
  name = 'CorrectionDeliveries1798000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "webhook"."delivery_attempts" ADD COLUMN "result_version" integer NOT NULL DEFAULT 0`);
    await q.query(`DROP INDEX "webhook"."delivery_attempts_attempt_uq"`);
    await q.query(
      `CREATE UNIQUE INDEX "delivery_attempts_attempt_uq" ON "webhook"."delivery_attempts" ("job_id", "event_type", "result_version", "attempt_number", "webhook_id")`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM "webhook"."delivery_attempts" WHERE "result_version" <> 0`);
    await q.query(`DROP INDEX "webhook"."delivery_attempts_attempt_uq"`);
    await q.query(
      `CREATE UNIQUE INDEX "delivery_attempts_attempt_uq" ON "webhook"."delivery_attempts" ("job_id", "event_type", "attempt_number", "webhook_id")`,
    );
    await q.query(`ALTER TABLE "webhook"."delivery_attempts" DROP COLUMN "result_version"`);
  }
}
