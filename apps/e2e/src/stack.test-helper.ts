import { afterAll, beforeAll, expect } from '@jest/globals';
import request from 'supertest';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
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
  unrefServer,
} from '@docket/testing';
// The same launcher `npm start` uses: every service as its own process, built output only.
/* eslint-disable @nx/enforce-module-boundaries -- deliberate: e2e must start services exactly as `npm start` does */
// @ts-expect-error plain ESM module without types
import { adminOutcome, runAdmin, startServices, waitForHealthy } from '../../../tools/dev/stack.mjs';
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
  /**
   * A free port on 127.0.0.1 that the services may deliver webhooks to (it is on WEBHOOK_ALLOWLIST), for a listener
   * of the test file itself (the SDK's README examples). Nothing listens on it otherwise; a file that listens on it
   * closes its listener before it ends (files share a stack one after the other).
   */
  listenerPort: number;
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

/** A started stack and what a Jest worker needs to share it between its test files. */
interface StackHandle {
  stack: E2eStack;
  /** The deliveries to `receiverUrl` + `path` only (a file's own view of a shared receiver). */
  route(path: string): Delivery[];
  /**
   * Hands the stack over to the e2e tier's global teardown (tools/jest/e2e-teardown.mjs): what it must stop is
   * written down, and nothing of the stack keeps this worker alive.
   */
  detach(leftovers: string): void;
}

/** Real Postgres (fresh database), a private NATS JetStream, embedded SigV4 S3, six service processes. */
export async function startE2eStack(extraEnv: Record<string, string> = {}): Promise<E2eStack> {
  return (await startStack(extraEnv)).stack;
}

async function startStack(extraEnv: Record<string, string>): Promise<StackHandle> {
  const [db, nats, s3]: [TestDatabase, TestNats, TestS3] = await Promise.all([
    createTestDatabase('docket_e2e'),
    startTestNats(),
    startTestS3('docket-e2e'),
  ]);
  const deliveries: Delivery[] = [];
  const routes = new Map<string, Delivery[]>();
  const receiver: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const delivery = { headers: req.headers, body };
      deliveries.push(delivery);
      routes.get(req.url ?? '')?.push(delivery);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  const receiverPort = await freePort();
  const listenerPort = await freePort();
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
    // Fast upload-expiry sweep (default 60 s): a job whose upload window a test closed (batch-pipelines) expires
    // within a second, on the shared stack too. It touches only jobs past their upload window (an hour by default).
    UPLOAD_EXPIRY_SWEEP_MS: '500',
    ...extraEnv,
    // The suite's own receiver and listener port always; `extraEnv.WEBHOOK_ALLOWLIST` adds receivers of the test itself.
    WEBHOOK_ALLOWLIST: [`127.0.0.1:${receiverPort}`, `127.0.0.1:${listenerPort}`, extraEnv.WEBHOOK_ALLOWLIST].filter(Boolean).join(','),
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
  const services = startServices({
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
    await services.stop();
    throw err;
  }
  const receiverUrl = `http://127.0.0.1:${receiverPort}/hooks`;
  const stack: E2eStack = {
    api: `${api}/api/v1`,
    receiverUrl,
    deliveries,
    listenerPort,
    env,
    logLines,
    s3Directory: s3.directory,
    serviceUrls: Object.fromEntries(names.map((n) => [n, `http://127.0.0.1:${ports[n]}`])) as Record<ServiceName, string>,
    createAccount: (name, credits) => adminCli(['create-account', '--name', name, '--credits', String(credits)], adminEnv),
    admin: (args) => adminCli(args, adminEnv),
    stop: async () => {
      await services.stop();
      await new Promise((r) => receiver.close(r));
      await s3.close();
      await nats.close();
      await db.drop();
    },
  };
  return {
    stack,
    route: (path) => {
      const mine: Delivery[] = [];
      routes.set(new URL(receiverUrl + path).pathname, mine);
      return mine;
    },
    detach: (leftovers) => {
      const record = {
        services: services.children.map((c: { child: { pid?: number } }) => c.child.pid),
        nats: nats.pid,
        database: db.url,
        directories: [s3.directory, nats.directory].filter(Boolean),
      };
      writeFileSync(join(leftovers, `${process.pid}-${Date.now()}.json`), JSON.stringify(record));
      unrefServer(receiver);
      s3.unref();
      nats.unref();
      services.detach();
    },
  };
}

type InWorkerAdmin = (args: string[], env: Record<string, string | undefined>) => Promise<{ exitCode: number; stdout: string }>;

/**
 * One admin CLI command, with the CLI's own code: in the Jest worker when the tier's environment offers it
 * (tools/jest/node-environment.mjs: no process per command, which costs 1.3 s of CPU to load the CLI), else as a
 * process (`runAdmin` of tools/dev/stack.mjs). Either way the command's one JSON object, or an error naming it.
 * The CLI as a process, as an operator runs it, is what admin-readme.e2e-spec.ts and admin.int-spec.ts test.
 */
async function adminCli(args: string[], env: Record<string, string>): Promise<Record<string, unknown> & Account> {
  const inWorker = (globalThis as { __docketRunAdmin?: InWorkerAdmin }).__docketRunAdmin;
  if (!inWorker) return runAdmin(args, env);
  const { exitCode, stdout } = await inWorker(args, { ...process.env, ...env, AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1' });
  return adminOutcome(args, exitCode, stdout) as Record<string, unknown> & Account;
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
 * The stack of a test file, started in beforeAll with two accounts (100 credits each) of its own, and gone once the
 * file ends, even when start-up outlived the hook's deadline. Fields are filled once beforeAll ran.
 *
 * Without `extraEnv` the file gets the stack of its Jest worker, shared with the worker's other files that need no
 * settings of their own (one after the other, never two at a time): it has its own accounts (tenants are isolated), its
 * own webhook receiver path (`stack.deliveries` holds only what was sent to its `receiverUrl`), and must not stop,
 * restart or reconfigure the services — a file that does passes `extraEnv` (`{}` is enough) and gets a stack of its
 * own. The shared stacks are stopped by the e2e tier's global teardown (tools/jest/e2e-teardown.mjs).
 * `extraEnv` overrides the services' environment (e.g. low rate limits); a function is awaited first (free ports).
 */
export function useE2eStack(label: string, extraEnv?: Record<string, string> | (() => Promise<Record<string, string>>)): E2eSuite {
  const suite = {} as E2eSuite;
  let starting: Promise<E2eStack> | undefined;
  let own = true;
  beforeAll(async () => {
    const shared = extraEnv === undefined ? workerStack() : undefined;
    own = !shared;
    starting = shared
      ? shared.then((h) => fileView(h, label))
      : startE2eStack(typeof extraEnv === 'function' ? await extraEnv() : (extraEnv ?? {}));
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
    if (!own) return;
    const started = await starting?.catch(() => undefined);
    await started?.stop();
  });
  return suite;
}

/** This Jest worker's shared stack (started by its first file that asks), or none when the tier runs without its global setup. */
function workerStack(): Promise<StackHandle> | undefined {
  const registry = (globalThis as { __docketWorkerShared?: Map<string, Promise<StackHandle>> }).__docketWorkerShared;
  const leftovers = process.env.DOCKET_E2E_LEFTOVERS;
  if (!registry || !leftovers) return undefined;
  let shared = registry.get(SHARED_STACK);
  if (!shared) {
    shared = startStack({}).then((h) => {
      h.detach(leftovers);
      return h;
    });
    // A failed start fails this file; the next file of the worker tries again.
    shared.catch(() => registry.delete(SHARED_STACK));
    registry.set(SHARED_STACK, shared);
  }
  return shared;
}
const SHARED_STACK = 'e2e-stack';

/** A file's view of its worker's stack: its own receiver path and deliveries; the global teardown stops the stack. */
function fileView(h: StackHandle, label: string): E2eStack {
  const path = `/${label.replace(/\W+/g, '-')}`;
  return { ...h.stack, receiverUrl: `${h.stack.receiverUrl}${path}`, deliveries: h.route(path), stop: async () => undefined };
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
