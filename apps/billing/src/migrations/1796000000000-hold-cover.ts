import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Charging on what was processed (ADR 0005): the engine's page count settles, so a charge may exceed its
 * hold; a job's hold may grow at confirm and be held again after a straggler release, so only the charge
 * stays unique per job in the ledger.
 */
export class HoldCover1796000000000 implements MigrationInterface {
  name = 'HoldCover1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "billing"."holds" DROP CONSTRAINT "holds_charge_within_hold"`);
    await q.query(`ALTER TABLE "billing"."holds" ADD CONSTRAINT "holds_charge_non_negative" CHECK ("charged_micro" >= 0)`);
    await q.query(`DROP INDEX "billing"."ledger_job_kind_uq"`);
    await q.query(
      `CREATE UNIQUE INDEX "ledger_job_charge_uq" ON "billing"."ledger_entries" ("job_id") WHERE "job_id" IS NOT NULL AND "kind" = 'charge'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "billing"."ledger_job_charge_uq"`);
    await q.query(`CREATE UNIQUE INDEX "ledger_job_kind_uq" ON "billing"."ledger_entries" ("job_id", "kind") WHERE "job_id" IS NOT NULL`);
    await q.query(`ALTER TABLE "billing"."holds" DROP CONSTRAINT "holds_charge_non_negative"`);
    await q.query(
      `ALTER TABLE "billing"."holds" ADD CONSTRAINT "holds_charge_within_hold" CHECK ("charged_micro" >= 0 AND "charged_micro" <= "amount_micro")`,
    );
  }
}
