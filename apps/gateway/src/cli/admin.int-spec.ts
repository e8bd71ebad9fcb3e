import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module, type INestApplication } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountScoped, DepositCommand, FreezeCommand, OpenWalletCommand, Subjects } from '@docket/contracts';
import { createServiceDataSource } from '@docket/database';
import { DocketError } from '@docket/errors';
import { startServiceApp } from '@docket/messaging';
import { createTestDatabase, freePort, startTestNats, testLogger, type TestDatabase, type TestNats } from '@docket/testing';
import type { DataSource } from 'typeorm';
import { IDENTITY_SCHEMA, IdentityService, basicAuthHeader, identityEntities } from '../identity/index.js';
import { gatewayMigrations } from '../migrations/index.js';
import { runAdmin } from './admin.runner.js';

/**
 * Stand-in for the billing service on a private NATS server, answering the four wallet subjects
 * with the real payload classes (validated). The gateway may not import another app; the real
 * billing is exercised end-to-end by apps/e2e.
 */
const wallets = new Map<string, { balance: number; spendable: number; is_frozen: boolean; frozen_reason: string | null }>();
const walletOf = (accountId: string) => {
  const w = wallets.get(accountId);
  if (!w) throw new DocketError('wallet_not_found', `No wallet for ${accountId}`);
  return w;
};

@Controller()
class BillingStandIn {
  @MessagePattern(Subjects.billing.openWallet)
  open(@Payload() cmd: OpenWalletCommand) {
    if (cmd.initialCredits === 13) throw new DocketError('conflict', 'unlucky wallet');
    wallets.set(cmd.accountId, { balance: cmd.initialCredits, spendable: cmd.initialCredits, is_frozen: false, frozen_reason: null });
    return walletOf(cmd.accountId);
  }

  @MessagePattern(Subjects.billing.deposit)
  deposit(@Payload() cmd: DepositCommand) {
    const w = walletOf(cmd.accountId);
    w.balance += cmd.credits;
    w.spendable += cmd.credits;
    return w;
  }

  @MessagePattern(Subjects.billing.freeze)
  freeze(@Payload() cmd: FreezeCommand) {
    return Object.assign(walletOf(cmd.accountId), { is_frozen: true, frozen_reason: cmd.reason });
  }

  @MessagePattern(Subjects.billing.unfreeze)
  unfreeze(@Payload() cmd: AccountScoped) {
    return Object.assign(walletOf(cmd.accountId), { is_frozen: false, frozen_reason: null });
  }
}

@Module({ controllers: [BillingStandIn] })
class BillingStandInModule {}

describe('admin CLI against real Postgres and NATS', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let billing: INestApplication;
  let ds: DataSource;
  let env: NodeJS.ProcessEnv;

  const admin = async (...argv: string[]) => {
    const { exitCode, stdout } = await runAdmin(argv, env, { rpcTimeoutMs: 3000 });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { exitCode, out: JSON.parse(stdout) as any };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    nats = await startTestNats();
    billing = await startServiceApp({
      service: 'billing',
      module: BillingStandInModule,
      natsUrl: nats.url,
      host: '127.0.0.1',
      port: await freePort(),
      log: testLogger(),
      checks: {},
    });
    env = { DATABASE_URL: db.url, NATS_URL: nats.url };
  });

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await billing?.close();
    await nats?.close();
    await db?.drop();
  });

  it('creates an account (migrating a fresh database), opens its wallet, and the credentials work', async () => {
    const { exitCode, out } = await admin('create-account', '--name', 'Acme', '--credits', '100');
    expect(exitCode).toBe(0);
    expect(out).toEqual({
      account_id: expect.stringMatching(/^acct_/),
      sandbox: {
        api_key: expect.stringMatching(/^dk_test_/),
        secret_id: expect.stringMatching(/^sec_/),
        secret: expect.stringMatching(/^sk_/),
      },
      live: {
        api_key: expect.stringMatching(/^dk_live_/),
        secret_id: expect.stringMatching(/^sec_/),
        secret: expect.stringMatching(/^sk_/),
      },
    });
    expect(wallets.get(out.account_id)).toMatchObject({ balance: 100 });

    ds = await createServiceDataSource({
      url: db.url,
      schema: IDENTITY_SCHEMA,
      entities: identityEntities,
      migrations: gatewayMigrations,
    }).initialize();
    expect(await ds.showMigrations()).toBe(false);
    const identity = new IdentityService(ds);
    expect(await identity.authenticate(basicAuthHeader(out.live.api_key, out.live.secret))).toMatchObject({
      accountId: out.account_id,
      sandbox: false,
    });
  });

  it('drives the wallet through billing', async () => {
    const { out: acct } = await admin('create-account', '--name', 'Wallets');
    expect(await admin('deposit', '--account', acct.account_id, '--credits', '2.5')).toEqual({
      exitCode: 0,
      out: { balance: 2.5, spendable: 2.5, is_frozen: false, frozen_reason: null },
    });
    expect((await admin('freeze', '--account', acct.account_id)).out).toMatchObject({ is_frozen: true, frozen_reason: 'manual_freeze' });
    expect((await admin('freeze', '--account', acct.account_id, '--reason', 'compliance_review')).out).toMatchObject({
      frozen_reason: 'compliance_review',
    });
    expect((await admin('unfreeze', '--account', acct.account_id)).out).toMatchObject({ is_frozen: false, frozen_reason: null });
    expect(await admin('deposit', '--account', 'acct_nobody', '--credits', '1')).toEqual({
      exitCode: 1,
      out: { error: { code: 'wallet_not_found', message: expect.any(String) } },
    });
  });

  it('rolls the account back when billing refuses to open the wallet', async () => {
    const { exitCode, out } = await admin('create-account', '--name', 'Unlucky', '--credits', '13');
    expect(exitCode).toBe(1);
    expect(out).toEqual({ error: { code: 'conflict', message: 'unlucky wallet' } });
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM "identity"."accounts" WHERE name = 'Unlucky'`);
    expect(n).toBe(0);
  });

  it('rotates and revokes secrets and keys', async () => {
    const { out: acct } = await admin('create-account', '--name', 'Keys');
    const identity = new IdentityService(ds);
    const rotated = await admin('rotate-secret', '--api-key', acct.sandbox.api_key);
    expect(rotated).toEqual({
      exitCode: 0,
      out: { api_key: acct.sandbox.api_key, secret_id: expect.stringMatching(/^sec_/), secret: expect.stringMatching(/^sk_/) },
    });

    const revokedSecret = await admin('revoke-secret', '--api-key', acct.sandbox.api_key, '--secret-id', rotated.out.secret_id);
    expect(revokedSecret).toEqual({
      exitCode: 0,
      out: { api_key: acct.sandbox.api_key, secret_id: rotated.out.secret_id, revoked_at: expect.any(String) },
    });
    expect(await identity.authenticate(basicAuthHeader(acct.sandbox.api_key, rotated.out.secret))).toBeNull();
    expect(await identity.authenticate(basicAuthHeader(acct.sandbox.api_key, acct.sandbox.secret))).not.toBeNull();

    const listed = await admin('list-secrets', '--api-key', acct.sandbox.api_key);
    expect(listed).toEqual({
      exitCode: 0,
      out: {
        api_key: acct.sandbox.api_key,
        secrets: [
          { secret_id: acct.sandbox.secret_id, created_at: expect.any(String), last_used_at: expect.any(String), revoked_at: null },
          {
            secret_id: rotated.out.secret_id,
            created_at: expect.any(String),
            last_used_at: null,
            revoked_at: revokedSecret.out.revoked_at,
          },
        ],
      },
    });
    expect(JSON.stringify(listed.out)).not.toContain(acct.sandbox.secret);

    const revokedKey = await admin('revoke-key', '--api-key', acct.sandbox.api_key);
    expect(revokedKey).toEqual({ exitCode: 0, out: { api_key: acct.sandbox.api_key, revoked_at: expect.any(String) } });
    expect(await identity.authenticate(basicAuthHeader(acct.sandbox.api_key, acct.sandbox.secret))).toBeNull();
    expect((await admin('rotate-secret', '--api-key', `dk_live_${'Q'.repeat(24)}`)).out.error.code).toBe('not_found');
  });

  it('sets and clears a key`s rate limit', async () => {
    const { out: acct } = await admin('create-account', '--name', 'Limits');
    expect(await admin('set-rate-limit', '--api-key', acct.live.api_key, '--per-minute', '1200')).toEqual({
      exitCode: 0,
      out: { api_key: acct.live.api_key, environment: 'live', requests_per_minute: 1200, source: 'override' },
    });
    const [row] = await ds.query(
      `SELECT l.requests_per_minute FROM "identity"."rate_limits" l JOIN "identity"."api_keys" k ON k.id = l.api_key_id WHERE k.api_key = $1`,
      [acct.live.api_key],
    );
    expect(row.requests_per_minute).toBe(1200);
    expect((await admin('set-rate-limit', '--api-key', acct.sandbox.api_key, '--per-minute', 'default')).out).toEqual({
      api_key: acct.sandbox.api_key,
      environment: 'sandbox',
      requests_per_minute: 60,
      source: 'default',
    });
    env.RATE_LIMIT_LIVE_PER_MINUTE = '900';
    try {
      expect((await admin('set-rate-limit', '--api-key', acct.live.api_key, '--per-minute', 'default')).out).toMatchObject({
        requests_per_minute: 900,
        source: 'default',
      });
    } finally {
      delete env.RATE_LIMIT_LIVE_PER_MINUTE;
    }
    expect((await admin('set-rate-limit', '--api-key', `dk_live_${'Q'.repeat(24)}`, '--per-minute', '5')).out.error.code).toBe('not_found');
  });

  it('reports bad arguments, unreachable NATS and help', async () => {
    expect(await admin('deposit', '--account', 'acct_x')).toEqual({
      exitCode: 1,
      out: { error: { code: 'validation_failed', message: '--credits is required' } },
    });
    expect((await admin('launch-rockets')).out.error.code).toBe('validation_failed');
    const unreachable = await runAdmin(['unfreeze', '--account', 'acct_x'], { ...env, NATS_URL: `nats://127.0.0.1:${await freePort()}` });
    expect(unreachable.exitCode).toBe(1);
    expect(JSON.parse(unreachable.stdout).error).toMatchObject({
      code: 'service_unavailable',
      message: expect.stringContaining('Cannot reach NATS'),
    });
    const help = await runAdmin(['help'], env);
    expect(help).toEqual({ exitCode: 0, stdout: expect.stringContaining('create-account --name N') });
  });
});
