import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createServiceDataSource, initAndMigrate } from '@docket/database';
import { createTestDatabase, expectEventually, testLogger, type TestDatabase } from '@docket/testing';
import type { DataSource } from 'typeorm';
import { gatewayMigrations } from '../migrations/index.js';
import { CredentialCache, CredentialRevocations, IDENTITY_SCHEMA, IdentityService, identityEntities } from './index.js';

const TTL_MS = 60_000;

describe('the credential cache against a real Postgres: revocations by another process reach it as they commit', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let admin: DataSource;
  let cache: CredentialCache;
  let revocations: CredentialRevocations;
  let gateway: IdentityService;
  /** Another process's view (the admin CLI): no cache, its own connections. */
  let cli: IdentityService;

  beforeAll(async () => {
    db = await createTestDatabase();
    const open = () =>
      createServiceDataSource({
        url: db.url,
        schema: IDENTITY_SCHEMA,
        entities: identityEntities,
        migrations: gatewayMigrations,
        poolSize: 2,
      });
    ds = await initAndMigrate(open(), IDENTITY_SCHEMA);
    admin = await open().initialize();
    cache = new CredentialCache(TTL_MS);
    revocations = new CredentialRevocations(db.url, cache, testLogger());
    await revocations.start();
    gateway = new IdentityService(ds, cache);
    cli = new IdentityService(admin);
  });

  afterAll(async () => {
    await revocations?.stop();
    await admin?.destroy();
    await ds?.destroy();
    await db?.drop();
  });

  it('answers a credential verified within the TTL without a query, and only the same secret', async () => {
    const acct = await cli.createAccount('Cached');
    const { api_key: key, secret } = acct.live;
    expect(cache.active).toBe(true);
    const first = await gateway.verify(key, secret);
    expect(first).toMatchObject({ apiKey: key, sandbox: false });
    const query = jest.spyOn(ds, 'query');
    try {
      expect(await gateway.verify(key, secret)).toEqual(first);
      expect(query).not.toHaveBeenCalled();
      expect(await gateway.verify(key, secret.slice(0, -1) + (secret.endsWith('a') ? 'b' : 'a'))).toBeNull();
      expect(query).toHaveBeenCalled();
    } finally {
      query.mockRestore();
    }
  });

  it('refuses a secret revoked by another process, and a new secret works at once', async () => {
    const acct = await cli.createAccount('Revoked secret');
    const key = acct.live.api_key;
    expect(await gateway.verify(key, acct.live.secret)).not.toBeNull();
    const rotated = await cli.rotateSecret(key);
    expect(await gateway.verify(key, rotated.secret)).not.toBeNull();
    await cli.revokeSecret(key, acct.live.secret_id);
    await expectEventually(async () => expect(await gateway.verify(key, acct.live.secret)).toBeNull(), { what: 'revoked secret refused' });
    expect(await gateway.verify(key, rotated.secret)).not.toBeNull();
  });

  it('refuses every secret of a key revoked by another process, and the account’s other key keeps working', async () => {
    const acct = await cli.createAccount('Revoked key');
    expect(await gateway.verify(acct.live.api_key, acct.live.secret)).not.toBeNull();
    expect(await gateway.verify(acct.sandbox.api_key, acct.sandbox.secret)).not.toBeNull();
    await cli.revokeKey(acct.live.api_key);
    await expectEventually(async () => expect(await gateway.verify(acct.live.api_key, acct.live.secret)).toBeNull(), {
      what: 'revoked key refused',
    });
    expect(await gateway.verify(acct.sandbox.api_key, acct.sandbox.secret)).not.toBeNull();
  });

  it('forgets everything when the revocation channel is lost, and listens again', async () => {
    const acct = await cli.createAccount('Channel lost');
    expect(await gateway.verify(acct.live.api_key, acct.live.secret)).not.toBeNull();
    expect(cache.size).toBeGreaterThan(0);
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'docket-gateway-revocations' AND datname = current_database()`,
    );
    // Cleared when the connection went (notifications may have been missed), then listening again.
    await expectEventually(() => expect({ active: cache.active, size: cache.size }).toEqual({ active: true, size: 0 }), {
      what: 'cache cleared and listening again',
    });
    expect(await gateway.verify(acct.live.api_key, acct.live.secret)).not.toBeNull();
    expect(cache.size).toBe(1);
  });
});
