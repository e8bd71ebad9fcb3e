import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { roleClients, sqlState } from './roles.test-helper.js';
import { createTestDatabase, type TestDatabase } from '@docket/testing';
import { provisionServiceRoles, serviceRoles } from './index.js';

/**
 * One Postgres role per service (provisionServiceRoles), checked on a real server: a service's role
 * reads and writes its own schema only; only the schema's owner role changes its tables.
 */
describe('Postgres roles per service', () => {
  let db: TestDatabase;
  const { as, close } = roleClients(() => db.url);
  const billing = serviceRoles('billing');
  const artifact = serviceRoles('artifact');

  beforeAll(async () => {
    db = await createTestDatabase('docket_roles');
    await provisionServiceRoles(db.url);
    await provisionServiceRoles(db.url); // idempotent
    // A migration, as billing's owner role: the DML role gets rights on the new table by default privileges.
    const owner = await as(billing.owner);
    await owner.query(`CREATE TABLE billing.wallet (account_id text PRIMARY KEY, balance bigint NOT NULL)`);
    await owner.query(`INSERT INTO billing.wallet VALUES ('acct_a', 100)`);
    const artifactOwner = await as(artifact.owner);
    await artifactOwner.query(`CREATE TABLE artifact.job (id serial PRIMARY KEY, state text NOT NULL)`);
  });

  afterAll(async () => {
    await close();
    await db?.drop();
  });

  it("denies another service's role any read of the billing schema (42501)", async () => {
    const artifactApp = await as(artifact.app);
    expect(await sqlState(artifactApp.query('SELECT * FROM billing.wallet'))).toBe('42501');
    expect(await sqlState(artifactApp.query(`UPDATE billing.wallet SET balance = 1000000`))).toBe('42501');
    const artifactOwner = await as(artifact.owner);
    expect(await sqlState(artifactOwner.query('SELECT * FROM billing.wallet'))).toBe('42501');
  });

  it('gives the service role DML on its own schema, and nothing more', async () => {
    const billingApp = await as(billing.app);
    expect((await billingApp.query('SELECT balance FROM billing.wallet')).rows).toEqual([{ balance: '100' }]);
    expect(await sqlState(billingApp.query(`UPDATE billing.wallet SET balance = balance - 1 WHERE account_id = 'acct_a'`))).toBe('ok');
    expect(await sqlState(billingApp.query(`INSERT INTO billing.wallet VALUES ('acct_b', 0)`))).toBe('ok');
    expect(await sqlState(billingApp.query('DROP TABLE billing.wallet'))).toBe('42501');
    expect(await sqlState(billingApp.query('CREATE TABLE billing.evil (x int)'))).toBe('42501');
    expect(await sqlState(billingApp.query('CREATE TABLE public.evil (x int)'))).toBe('42501');
    const artifactApp = await as(artifact.app);
    expect(await sqlState(artifactApp.query(`INSERT INTO artifact.job (state) VALUES ('queued')`))).toBe('ok'); // sequences too
  });
});
