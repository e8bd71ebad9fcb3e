import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The request id and trace context of the request that wrote an outbox row travel with its JetStream message. */
export class OutboxHeaders1797100000000 implements MigrationInterface {
  name = 'OutboxHeaders1797100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "artifact"."outbox" ADD COLUMN IF NOT EXISTS "headers" jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "artifact"."outbox" DROP COLUMN "headers"`);
  }
}
