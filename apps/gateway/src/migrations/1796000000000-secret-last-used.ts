import type { MigrationInterface, QueryRunner } from 'typeorm';

/** When each secret of an API key was last used, so the admin can see which secret a client still sends before revoking it (spec §5.5). */
export class SecretLastUsed1796000000000 implements MigrationInterface {
  name = 'SecretLastUsed1796000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "identity"."key_secrets" ADD "last_used_at" TIMESTAMP WITH TIME ZONE`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "identity"."key_secrets" DROP COLUMN "last_used_at"`);
  }
}
