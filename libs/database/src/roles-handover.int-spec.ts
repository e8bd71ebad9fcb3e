import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { roleClients, sqlState } from './roles.test-helper.js';
import { createTestDatabase, type TestDatabase } from '@docket/testing';
import { provisionServiceRoles, SERVICE_SCHEMAS, serviceRoles, type DatabaseService } from './index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const SERVICES = Object.keys(SERVICE_SCHEMAS) as DatabaseService[];
const run = promisify(execFile);

/** Each service's own migration entry point (`node apps/<service>/dist/migrate.js`, built by `npm run build`). */
const migrate = (service: DatabaseService, env: Record<string, string>) =>
  run(process.execPath, [join(ROOT, 'apps', service, 'dist', 'migrate.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
  });

/**
 * The roles provisioned on a database that already holds every service's tables, created by the superuser
 * (services that ran without their roles, a database left by earlier runs): `npm start` used to fail here
 * with `cannot change owner of sequence "migrations_id_seq"` (a `serial` column's sequence cannot change
 * owner by itself) and run every service as the superuser. Each owner role must end up owning its schema's
 * objects and each service role with DML on its own schema only.
 */
describe('Postgres roles provisioned over tables the superuser migrated', () => {
  let db: TestDatabase;
  const { as, keep, close } = roleClients(() => db.url);

  /** Runs `sql` as `role` inside a transaction that is rolled back: what the role may do, without changing anything. */
  const tryAs = async (role: string, sql: string) => {
    const c = await as(role);
    await c.query('BEGIN');
    try {
      return await sqlState(c.query(sql));
    } finally {
      await c.query('ROLLBACK');
    }
  };

  beforeAll(async () => {
    for (const service of SERVICES) {
      if (!existsSync(join(ROOT, 'apps', service, 'dist', 'migrate.js'))) throw new Error(`apps/${service} is not built: npm run build`);
    }
    db = await createTestDatabase('docket_roles_migrated');
    // Every service migrated as the superuser, as when npm start fell back to DATABASE_URL.
    await Promise.all(SERVICES.map((service) => migrate(service, { DATABASE_URL: db.url })));
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    keep(admin);
    const { rows } = await admin.query<{ owner: string }>(
      `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = 'billing'::regnamespace AND relkind = 'S'`,
    );
    expect(rows).toEqual([{ owner: 'postgres' }]); // the state that used to break the hand-over
  }, 60_000);

  afterAll(async () => {
    await close();
    await db?.drop();
  });

  it('provisions the roles, again, and twice at once (idempotent)', async () => {
    await provisionServiceRoles(db.url);
    await provisionServiceRoles(db.url);
    await Promise.all([provisionServiceRoles(db.url), provisionServiceRoles(db.url)]);
  });

  it("hands every table, sequence, function and type of a service's schema to its owner role", async () => {
    const admin = new pg.Client({ connectionString: db.url });
    await admin.connect();
    keep(admin);
    for (const service of SERVICES) {
      const r = serviceRoles(service);
      const { rows } = await admin.query<{ object: string; owner: string }>(
        `SELECT relname AS object, pg_get_userbyid(relowner) AS owner FROM pg_class WHERE relnamespace = $1::text::regnamespace
         UNION ALL SELECT proname, pg_get_userbyid(proowner) FROM pg_proc WHERE pronamespace = $1::text::regnamespace
         UNION ALL SELECT typname, pg_get_userbyid(typowner) FROM pg_type WHERE typnamespace = $1::text::regnamespace
         UNION ALL SELECT nspname, pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = $1::text`,
        [r.schema],
      );
      expect(rows.length).toBeGreaterThan(3);
      expect(rows.filter((o) => o.owner !== r.owner)).toEqual([]);
    }
  });

  it('lets each owner role migrate its schema: record a migration, alter its tables, replace the trigger function', async () => {
    for (const service of SERVICES) {
      const r = serviceRoles(service);
      // What TypeORM does as the owner (MIGRATION_DATABASE_URL): read and append the migrations table (its serial sequence).
      expect(await tryAs(r.owner, `INSERT INTO ${r.schema}.migrations (timestamp, name) VALUES (1, 'Probe1')`)).toBe('ok');
      expect(await tryAs(r.owner, `ALTER TABLE ${r.schema}.migrations ADD COLUMN probe int`)).toBe('ok');
    }
    const fn = `CREATE OR REPLACE FUNCTION identity.notify_credentials_revoked() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$`;
    expect(await tryAs(serviceRoles('gateway').owner, fn)).toBe('ok');
  });

  it('gives each service role DML on its own schema (tables and sequences) and nothing more', async () => {
    for (const service of SERVICES) {
      const r = serviceRoles(service);
      expect(await tryAs(r.app, `SELECT count(*) FROM ${r.schema}.migrations`)).toBe('ok');
      expect(await tryAs(r.app, `SELECT nextval('${r.schema}.migrations_id_seq')`)).toBe('ok');
      expect(await tryAs(r.app, `DROP TABLE ${r.schema}.migrations`)).toBe('42501');
      expect(await tryAs(r.app, `CREATE TABLE ${r.schema}.evil (x int)`)).toBe('42501');
    }
    const billing = serviceRoles('billing').app;
    expect(await tryAs(billing, `INSERT INTO billing.wallets (account_id, balance_micro) VALUES ('acct_a', 5)`)).toBe('ok');
    expect(await tryAs(billing, `UPDATE billing.wallets SET balance_micro = 1`)).toBe('ok');
    expect(await tryAs(billing, `DELETE FROM billing.wallets`)).toBe('ok');
    expect(await tryAs(billing, `ALTER TABLE billing.wallets ADD COLUMN note text`)).toBe('42501');
  });

  it("denies every service role and owner role any access to another service's schema (42501)", async () => {
    const artifact = serviceRoles('artifact');
    for (const role of [artifact.app, artifact.owner]) {
      expect(await tryAs(role, 'SELECT * FROM billing.wallets')).toBe('42501');
      expect(await tryAs(role, `INSERT INTO billing.wallets (account_id) VALUES ('acct_x')`)).toBe('42501');
      expect(await tryAs(role, 'SELECT * FROM identity.api_keys')).toBe('42501');
    }
  });
});
