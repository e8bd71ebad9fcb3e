import { afterAll, beforeAll, expect } from '@jest/globals';
import request from 'supertest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { ServiceName } from '@docket/contracts';
import {
  createTestDatabase,
  expectEventually,
  freePort,
  startTestNats,
  startTestS3,
  type TestDatabase,
  type TestNats,
  type TestS3,
} from '@docket/testing';
// The same launcher `npm start` uses: every service as its own process, built output only.
/* eslint-disable @nx/enforce-module-boundaries -- deliberate: e2e must start services exactly as `npm start` does */
// @ts-expect-error plain ESM module without types
import { runAdmin, startServices, waitForHealthy } from '../../../tools/dev/stack.mjs';
// @ts-expect-error plain ESM module without types
import { mergeServiceEnv, provisionDatabaseRoles } from '../../../tools/dev/infra.mjs';
/* eslint-enable @nx/enforce-module-boundaries */

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Account {
  account_id: string;
  sandbox: { api_key: string; secret_id: string; secret: string };
  live: { api_key: string; secret_id: string; secret: string };
}

export interface E2eStack {
  api: string;
  receiverUrl: string;
  deliveries: Delivery[];
  env: Record<string, string>;
  /** The embedded S3's directory (one file per stored object). */
  s3Directory: string;
  /** Each service's HTTP base URL (`/livez`, `/readyz`, `/metrics`). */
  serviceUrls: Record<ServiceName, string>;
  createAccount(name: string, credits: number): Promise<Account>;
  admin(args: string[]): Promise<Record<string, unknown>>;
  /** Every line the services printed so far, as `[service] line` (at the suite's LOG_LEVEL). */
  logLines: string[];
  stop(): Promise<void>;
}

/** Real Postgres (fresh database), a private NATS JetStream, embedded SigV4 S3, six service processes. */
export async function startE2eStack(extraEnv: Record<string, string> = {}): Promise<E2eStack> {
  const [db, nats, s3]: [TestDatabase, TestNats, TestS3] = await Promise.all([
    createTestDatabase('docket_e2e'),
    startTestNats(),
    startTestS3('docket-e2e'),
  ]);
  const deliveries: Delivery[] = [];
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  const receiverPort = await freePort();
  await new Promise<void>((r) => receiver.listen(receiverPort, '127.0.0.1', r));

  const names = ['gateway', 'artifact', 'template', 'billing', 'extraction-worker', 'webhook-dispatcher'];
  const ports: Record<string, number> = {};
  for (const n of names) ports[n] = await freePort();
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    ...s3.env,
    PRICE_PER_PAGE_CREDITS: '1',
    HOLD_MIN_PAGES: '5',
    ...extraEnv,
    // The suite's own receiver always; `extraEnv.WEBHOOK_ALLOWLIST` adds receivers of the test itself.
    WEBHOOK_ALLOWLIST: [`127.0.0.1:${receiverPort}`, extraEnv.WEBHOOK_ALLOWLIST].filter(Boolean).join(','),
  };
  // Each service runs as its own NATS user and its own Postgres role, with exactly the rights it has in production
  // (`servicePermissions`; DML on its schema, migrations as the schema owner). `env.DATABASE_URL` stays the
  // superuser the tests inspect the database with.
  const natsUsers = Object.fromEntries(names.map((n) => [n, nats.env(n as ServiceName)]));
  const adminEnv = { ...env, ...nats.env('admin') };
  // Admin mode (an `ADMIN_TOKEN` in extraEnv) calls billing's operator subjects as the `admin` NATS user.
  const gatewayAdmin = adminEnv.NATS_PASSWORD ? { gateway: { ADMIN_NATS_USER: 'admin', ADMIN_NATS_PASSWORD: adminEnv.NATS_PASSWORD } } : {};
  const serviceEnv = mergeServiceEnv(natsUsers, await provisionDatabaseRoles(db.url), gatewayAdmin);
  const logLines: string[] = [];
  const stack = startServices({
    env,
    serviceEnv,
    ports,
    quiet: !process.env.E2E_VERBOSE,
    onLine: (service: string, line: string) => void logLines.push(`[${service}] ${line}`),
  });
  const api = `http://127.0.0.1:${ports.gateway}`;
  try {
    await waitForHealthy(api, 90_000);
  } catch (err) {
    await stack.stop();
    throw err;
  }
  return {
    api: `${api}/api/v1`,
    receiverUrl: `http://127.0.0.1:${receiverPort}/hooks`,
    deliveries,
    env,
    logLines,
    s3Directory: s3.directory,
    serviceUrls: Object.fromEntries(names.map((n) => [n, `http://127.0.0.1:${ports[n]}`])) as Record<ServiceName, string>,
    createAccount: (name, credits) => runAdmin(['create-account', '--name', name, '--credits', String(credits)], adminEnv),
    admin: (args) => runAdmin(args, adminEnv),
    stop: async () => {
      await stack.stop();
      await new Promise((r) => receiver.close(r));
      await s3.close();
      await nats.close();
      await db.drop();
    },
  };
}

export function basic(key: string, secret: string): string {
  return `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
}

export interface E2eSuite {
  stack: E2eStack;
  acct: Account;
  other: Account;
  /** Basic auth headers: the main account's live and sandbox keys, and another account's live key. */
  live: string;
  sandbox: string;
  otherLive: string;
}

/**
 * One stack per test file: started in beforeAll with two accounts (100 credits each), stopped in
 * afterAll even when start-up outlived the hook's deadline. Fields are filled once beforeAll ran.
 * `extraEnv` overrides the services' environment (e.g. low rate limits); a function is awaited first (free ports).
 */
export function useE2eStack(label: string, extraEnv: Record<string, string> | (() => Promise<Record<string, string>>) = {}): E2eSuite {
  const suite = {} as E2eSuite;
  let starting: Promise<E2eStack> | undefined;
  beforeAll(async () => {
    starting = startE2eStack(typeof extraEnv === 'function' ? await extraEnv() : extraEnv);
    suite.stack = await starting;
    // Two admin CLI processes side by side (each one loads the CLI for a second or more).
    [suite.acct, suite.other] = await Promise.all([
      suite.stack.createAccount(`${label} customer`, 100),
      suite.stack.createAccount(`${label} other`, 100),
    ]);
    suite.live = basic(suite.acct.live.api_key, suite.acct.live.secret);
    suite.sandbox = basic(suite.acct.sandbox.api_key, suite.acct.sandbox.secret);
    suite.otherLive = basic(suite.other.live.api_key, suite.other.live.secret);
  });
  afterAll(async () => {
    const started = await starting?.catch(() => undefined);
    await started?.stop();
  });
  return suite;
}

/** Client-side helpers every suite needs, over the public API only. */
export function apiHelpers(suite: E2eSuite) {
  const api = () => request(suite.stack.api);
  const wallet = async (auth = suite.live) => (await api().get('/wallet').set('authorization', auth).expect(200)).body;
  /** The wallet once no hold is outstanding (every earlier job settled). */
  const settledWallet = (auth = suite.live) =>
    expectEventually(async () => {
      const w = await wallet(auth);
      expect(w.spendable).toBe(w.balance);
      return w;
    });
  const waitTerminal = (jobId: string, auth = suite.live) =>
    expectEventually(
      async () => {
        const r = await api().get(`/job/${jobId}`).set('authorization', auth).expect(200);
        if (!['success', 'failed', 'cancelled', 'expired'].includes(r.body.status)) throw new Error(`status ${r.body.status}`);
        return r.body;
      },
      { timeoutMs: 90_000, intervalMs: 200, what: 'job terminal' },
    );
  return { api, wallet, settledWallet, waitTerminal };
}
