import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module, type INestApplication } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { AccountScoped, DepositCommand, FreezeCommand, OpenWalletCommand, Subjects } from '@docket/contracts';
import { createServiceDataSource } from '@docket/database';
import { DocketError } from '@docket/errors';
import { natsAuth, startServiceApp } from '@docket/messaging';
import { createTestDatabase, freePort, startTestNats, testLogger, type TestDatabase, type TestNats } from '@docket/testing';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { IDENTITY_SCHEMA, IdentityService, basicAuthHeader, identityEntities } from '../identity/index.js';
import { gatewayMigrations } from '../migrations/index.js';
import { writeDevConnection } from './admin.connection.js';
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

/**
 * The way an outside tester calls the CLI while `npm start` runs: NATS_URL set to its private server (users only, no
 * anonymous access), no NATS_USER, and the connection file npm start wrote in the checkout.
 */
describe('admin CLI with NATS_URL naming the users-only server of npm start', () => {
  let db: TestDatabase;
  let stack: TestNats;
  let other: TestNats;
  let billing: INestApplication;
  let file: string;
  const port = (nats: TestNats) => new URL(nats.url).port;
  const admin = async (env: NodeJS.ProcessEnv, connectionFile: string, ...argv: string[]) => {
    const { exitCode, stdout } = await runAdmin(argv, env, { rpcTimeoutMs: 3000, connectionFile });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { exitCode, out: JSON.parse(stdout) as any, stdout };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    [stack, other] = await Promise.all([startTestNats({ harness: false }), startTestNats({ harness: false })]);
    expect([stack.authorization, other.authorization]).toEqual([true, true]);
    billing = await startServiceApp({
      service: 'billing',
      module: BillingStandInModule,
      natsUrl: stack.url,
      natsAuth: natsAuth(stack.env('billing')),
      host: '127.0.0.1',
      port: await freePort(),
      log: testLogger(),
      checks: {},
    });
    file = join(mkdtempSync(join(tmpdir(), 'docket-admin-int-')), 'admin-connection.json');
    // The file names the server `nats://localhost:<port>`; the tester below `127.0.0.1:<port>`, without a scheme: one server.
    writeDevConnection({ ...stack.env('admin'), NATS_URL: `nats://localhost:${port(stack)}`, DATABASE_URL: db.url }, file);
  });

  afterAll(async () => {
    await billing?.close();
    await Promise.allSettled([stack?.close(), other?.close()]);
    await db?.drop();
  });

  it('takes the admin user and the database from the connection file of that server', async () => {
    const env = { NATS_URL: `127.0.0.1:${port(stack)}` };
    const created = await admin(env, file, 'create-account', '--name', 'Acme Test', '--credits', '10');
    expect(created).toMatchObject({ exitCode: 0, out: { account_id: expect.stringMatching(/^acct_/) } });
    expect(await admin(env, file, 'deposit', '--account', created.out.account_id, '--credits', '2.5')).toMatchObject({
      exitCode: 0,
      out: { balance: 12.5, spendable: 12.5 },
    });
    const probe = await createServiceDataSource({
      url: db.url,
      schema: IDENTITY_SCHEMA,
      entities: identityEntities,
      migrations: gatewayMigrations,
    }).initialize();
    try {
      const rows = await probe.query(`SELECT id FROM "identity"."accounts" WHERE name = 'Acme Test'`);
      expect(rows).toHaveLength(1);
    } finally {
      await probe.destroy();
    }
  });

  it('never sends the file`s password to another server, and says what to do when that server refuses the CLI', async () => {
    // A file naming npm start's server but holding a password the other server would accept: not sent there.
    const tempting = join(mkdtempSync(join(tmpdir(), 'docket-admin-int-')), 'admin-connection.json');
    writeDevConnection({ ...other.env('admin'), NATS_URL: stack.url, DATABASE_URL: db.url }, tempting);
    const refused = await admin({ NATS_URL: other.url }, tempting, 'unfreeze', '--account', 'acct_x');
    expect(refused.exitCode).toBe(1);
    expect(refused.out.error.code).toBe('service_unavailable');
    expect(refused.out.error.message).toMatch(/authorization violation/i);
    expect(refused.out.error.message).toContain(
      `The NATS server at ${other.url} requires a user: set NATS_USER=admin and NATS_PASSWORD, or run the CLI from the checkout whose \`npm start\` is running`,
    );
    expect(refused.stdout).not.toContain(other.env('admin').NATS_PASSWORD);
  });

  it('says what to do when the server it reached has no service behind it', async () => {
    const lonely = await admin(other.env('admin'), file, 'unfreeze', '--account', 'acct_x');
    expect(lonely.exitCode).toBe(1);
    expect(lonely.out.error).toEqual({
      code: 'service_unavailable',
      message: expect.stringContaining(`Is the stack running behind the NATS server at ${other.url}?`),
    });
    expect(lonely.stdout).not.toContain(other.env('admin').NATS_PASSWORD);
  });
});
