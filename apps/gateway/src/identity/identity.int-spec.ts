import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Catch, Controller, Get, UseGuards, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createServiceDataSource, initAndMigrate, schemaStatus } from '@docket/database';
import { DocketError, toEnvelope } from '@docket/errors';
import { createTestDatabase, type TestDatabase } from '@docket/testing';
import type { DataSource } from 'typeorm';
import { gatewayMigrations } from '../migrations/index.js';
import {
  Auth,
  BASIC_STRATEGY,
  BasicAuthGuard,
  IDENTITY_SCHEMA,
  IdentityModule,
  IdentityService,
  basicAuthHeader,
  hashSecret,
  identityEntities,
  type AuthContext,
  type CreatedAccount,
} from './index.js';

@Controller()
class WhoAmIController {
  @Get('whoami')
  @UseGuards(BasicAuthGuard)
  whoami(@Auth() auth: AuthContext) {
    return auth;
  }
}

/** Stand-in for the gateway's HTTP filter: renders DocketError as the envelope, fixed request id. */
@Catch(DocketError)
class EnvelopeFilter implements ExceptionFilter {
  catch(err: DocketError, host: ArgumentsHost) {
    host.switchToHttp().getResponse().code(err.status).send(toEnvelope(err, 'req-test'));
  }
}

const dataSourceFor = (url: string) =>
  createServiceDataSource({ url, schema: IDENTITY_SCHEMA, entities: identityEntities, migrations: gatewayMigrations, poolSize: 2 });

describe('identity against a real Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let app: NestFastifyApplication;
  let identity: IdentityService;
  let acct: CreatedAccount;
  let baseUrl: string;
  const get = async (headers: Record<string, string>) => {
    const res = await fetch(`${baseUrl}/whoami`, { headers });
    return { statusCode: res.status, body: await res.text() };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await initAndMigrate(dataSourceFor(db.url), IDENTITY_SCHEMA);
    app = await NestFactory.create<NestFastifyApplication>(
      { module: class TestAppModule {}, imports: [IdentityModule.register(ds)], controllers: [WhoAmIController] },
      new FastifyAdapter(),
      { logger: false },
    );
    app.useGlobalFilters(new EnvelopeFilter());
    await app.listen(0, '127.0.0.1');
    baseUrl = await app.getUrl();
    identity = app.get(IdentityService);
    acct = await identity.createAccount('Acme Corp');
  });

  afterAll(async () => {
    await app?.close();
    if (ds?.isInitialized) await ds.destroy();
    await db?.drop();
  });

  it('has no pending migrations and the entities match them', async () => {
    expect(await schemaStatus({ url: db.url, schema: IDENTITY_SCHEMA, entities: identityEntities, migrations: gatewayMigrations })).toEqual(
      { pendingMigrations: false, drift: [] },
    );
  });

  it('creates an account with a sandbox and a live key, each authenticating with its environment', async () => {
    expect(acct.account_id).toMatch(/^acct_[0-9a-z]{26}$/);
    expect(acct.sandbox.api_key).toMatch(/^dk_test_/);
    expect(acct.live.api_key).toMatch(/^dk_live_/);
    expect(acct.sandbox.secret).toMatch(/^sk_/);
    expect(acct.live.secret).not.toBe(acct.sandbox.secret);

    const sandbox = await identity.authenticate(basicAuthHeader(acct.sandbox.api_key, acct.sandbox.secret));
    expect(sandbox).toMatchObject({ accountId: acct.account_id, apiKey: acct.sandbox.api_key, sandbox: true });
    expect(sandbox!.apiKeyId).toMatch(/^key_/);
    const live = await identity.authenticate(basicAuthHeader(acct.live.api_key, acct.live.secret));
    expect(live).toMatchObject({ accountId: acct.account_id, apiKey: acct.live.api_key, sandbox: false });
    expect(live!.apiKeyId).not.toBe(sandbox!.apiKeyId);
  });

  it('returns null for missing, malformed, unknown-key and wrong-secret credentials', async () => {
    const other = await identity.createAccount('Other');
    expect(await identity.authenticate(undefined)).toBeNull();
    expect(await identity.authenticate('Basic not-base64!')).toBeNull();
    expect(await identity.authenticate(`Bearer ${acct.live.secret}`)).toBeNull();
    expect(await identity.authenticate(basicAuthHeader(acct.live.api_key, other.live.secret))).toBeNull();
    expect(await identity.authenticate(basicAuthHeader(acct.live.api_key, acct.sandbox.secret))).toBeNull();
    expect(await identity.authenticate(basicAuthHeader(`dk_live_${'Z'.repeat(24)}`, acct.live.secret))).toBeNull();
  });

  it('stores only SHA-256 digests of secrets, never the plaintext', async () => {
    const rows: { secret_hash: string }[] = await ds.query(`SELECT secret_hash FROM "identity"."key_secrets"`);
    const hashes = rows.map((r) => r.secret_hash);
    expect(hashes).toContain(hashSecret(acct.live.secret));
    const dump = JSON.stringify(await ds.query(`SELECT * FROM "identity"."key_secrets"`));
    expect(dump).not.toContain(acct.live.secret);
    expect(dump).not.toContain(acct.sandbox.secret.slice(3));
  });

  it('keeps old and new secrets valid after rotation until the old one is revoked', async () => {
    const a = await identity.createAccount('Rotator');
    const header = (secret: string) => basicAuthHeader(a.live.api_key, secret);
    const rotated = await identity.rotateSecret(a.live.api_key);
    expect(rotated).toEqual({ api_key: a.live.api_key, secret_id: expect.stringMatching(/^sec_/), secret: expect.stringMatching(/^sk_/) });
    expect(await identity.authenticate(header(a.live.secret))).not.toBeNull();
    expect(await identity.authenticate(header(rotated.secret))).not.toBeNull();

    const [old] = await ds.query(
      `SELECT s.id FROM "identity"."key_secrets" s JOIN "identity"."api_keys" k ON k.id = s.api_key_id WHERE k.api_key = $1 AND s.id <> $2`,
      [a.live.api_key, rotated.secret_id],
    );
    const revoked = await identity.revokeSecret(a.live.api_key, old.id);
    expect(revoked).toEqual({ api_key: a.live.api_key, secret_id: old.id, revoked_at: expect.any(String) });
    expect(await identity.authenticate(header(a.live.secret))).toBeNull();
    expect(await identity.authenticate(header(rotated.secret))).toMatchObject({ accountId: a.account_id });
    // Idempotent, and a secret of another key cannot be revoked through this one.
    expect((await identity.revokeSecret(a.live.api_key, old.id)).revoked_at).toBe(revoked.revoked_at);
    await expect(identity.revokeSecret(a.sandbox.api_key, rotated.secret_id)).rejects.toMatchObject({ code: 'not_found' });
  });

  it('revokes a key immediately, leaving the other key of the account working', async () => {
    const a = await identity.createAccount('Revoker');
    const extra = await identity.rotateSecret(a.live.api_key);
    const revoked = await identity.revokeKey(a.live.api_key);
    expect(revoked).toEqual({ api_key: a.live.api_key, revoked_at: expect.any(String) });
    expect(await identity.authenticate(basicAuthHeader(a.live.api_key, a.live.secret))).toBeNull();
    expect(await identity.authenticate(basicAuthHeader(a.live.api_key, extra.secret))).toBeNull();
    expect(await identity.authenticate(basicAuthHeader(a.sandbox.api_key, a.sandbox.secret))).not.toBeNull();
    expect((await identity.revokeKey(a.live.api_key)).revoked_at).toBe(revoked.revoked_at);
    await expect(identity.rotateSecret(a.live.api_key)).rejects.toMatchObject({ code: 'conflict' });
    expect(await identity.findAccountByKey(a.live.api_key)).toMatchObject({
      account_id: a.account_id,
      name: 'Revoker',
      environment: 'live',
      key_revoked_at: revoked.revoked_at,
    });
  });

  it('rejects admin operations on unknown or malformed keys', async () => {
    await expect(identity.rotateSecret(`dk_test_${'Q'.repeat(24)}`)).rejects.toMatchObject({ code: 'not_found' });
    await expect(identity.revokeKey('nope')).rejects.toMatchObject({ code: 'validation_failed' });
    expect(await identity.findAccountByKey(`dk_test_${'Q'.repeat(24)}`)).toBeNull();
    await expect(identity.createAccount('  ')).rejects.toMatchObject({ code: 'validation_failed' });
  });

  it('lists accounts newest first, paged, with their keys and never a secret', async () => {
    const a = await identity.createAccount('Listed first');
    const b = await identity.createAccount('Listed second');
    await identity.revokeKey(b.sandbox.api_key);
    const first = await identity.listAccounts(1, 2);
    expect(first.total).toBeGreaterThanOrEqual(3);
    expect(first.accounts.map((x) => x.account_id)).toEqual([b.account_id, a.account_id]);
    expect(first.accounts[0].keys).toEqual([
      { api_key: b.live.api_key, environment: 'live', created_at: expect.any(String), revoked_at: null },
      { api_key: b.sandbox.api_key, environment: 'sandbox', created_at: expect.any(String), revoked_at: expect.any(String) },
    ]);
    expect(JSON.stringify(first)).not.toContain(b.live.secret);
    const second = await identity.listAccounts(2, 2);
    expect(second.accounts.map((x) => x.account_id)).not.toContain(b.account_id);
    expect((await identity.listAccounts(1_000, 2)).accounts).toEqual([]);
  });

  it('keeps nothing when the before-commit hook fails', async () => {
    let seen = '';
    const failing = identity.createAccount('Doomed', {
      beforeCommit: async (accountId) => {
        seen = accountId;
        throw new DocketError('service_unavailable', 'billing down');
      },
    });
    await expect(failing).rejects.toMatchObject({ code: 'service_unavailable' });
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM "identity"."accounts" WHERE id = $1`, [seen]);
    expect(seen).toMatch(/^acct_/);
    expect(n).toBe(0);
  });

  it('guards HTTP routes: the AuthContext on success, one identical 401 body for every failure', async () => {
    const ok = await get({ authorization: basicAuthHeader(acct.sandbox.api_key, acct.sandbox.secret) });
    expect(ok.statusCode).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ accountId: acct.account_id, apiKey: acct.sandbox.api_key, sandbox: true });

    const a = await identity.createAccount('Revoked');
    await identity.revokeKey(a.live.api_key);
    const failures: Record<string, string>[] = [
      {},
      { authorization: 'Basic garbage' },
      { authorization: basicAuthHeader(acct.sandbox.api_key, acct.live.secret) },
      { authorization: basicAuthHeader(`dk_test_${'Q'.repeat(24)}`, acct.sandbox.secret) },
      { authorization: basicAuthHeader(a.live.api_key, a.live.secret) },
    ];
    const bodies = new Set<string>();
    for (const headers of failures) {
      const res = await get(headers);
      expect(res.statusCode).toBe(401);
      bodies.add(res.body);
    }
    expect([...bodies]).toEqual([
      JSON.stringify(toEnvelope(new DocketError('unauthorized', 'Invalid or missing credentials'), 'req-test')),
    ]);
  });

  it("runs through passport (passport-http BasicStrategy) with our header rules, not passport-http's looser ones", async () => {
    const guard = app.get(BasicAuthGuard);
    expect(guard).toBeInstanceOf(AuthGuard(BASIC_STRATEGY));
    const encoded = basicAuthHeader(acct.sandbox.api_key, acct.sandbox.secret).slice('Basic '.length);
    // Our parser accepts any case of the scheme and several spaces; passport-http alone would refuse both.
    expect((await get({ authorization: `BASIC   ${encoded}` })).statusCode).toBe(200);
    // passport-http alone takes any scheme containing "basic"; ours does not.
    expect((await get({ authorization: `NotBasic ${encoded}` })).statusCode).toBe(401);
  });
});
