import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Revoking or deleting an API key or a secret notifies channel `docket_identity_credentials` with the key's id,
 * whoever does it (the admin CLI, a gateway, plain SQL): every gateway drops its cached verifications of that key
 * as the change commits (`CredentialRevocations`).
 */
export class CredentialRevocationNotify1796100000000 implements MigrationInterface {
  name = 'CredentialRevocationNotify1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE FUNCTION "identity"."notify_credentials_revoked"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_TABLE_NAME = 'api_keys' THEN
          PERFORM pg_notify('docket_identity_credentials', COALESCE(NEW.id, OLD.id));
        ELSE
          PERFORM pg_notify('docket_identity_credentials', COALESCE(NEW.api_key_id, OLD.api_key_id));
        END IF;
        RETURN NULL;
      END $$`);
    for (const table of ['api_keys', 'key_secrets']) {
      await q.query(
        `CREATE TRIGGER "${table}_revoked" AFTER UPDATE OF "revoked_at" OR DELETE ON "identity"."${table}"
           FOR EACH ROW EXECUTE FUNCTION "identity"."notify_credentials_revoked"()`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['api_keys', 'key_secrets']) await q.query(`DROP TRIGGER "${table}_revoked" ON "identity"."${table}"`);
    await q.query(`DROP FUNCTION "identity"."notify_credentials_revoked"()`);
  }
}
