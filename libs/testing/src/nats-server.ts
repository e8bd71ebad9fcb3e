import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATS_USERS, renderNatsAuthorization, type NatsUserName } from '@docket/contracts';
import { freePort } from './infra.js';

export interface TestNats {
  url: string;
  /** Whether the server enforces the per-service users of `servicePermissions`. */
  authorization: boolean;
  /** `NATS_URL`, `NATS_USER`, `NATS_PASSWORD` for a process running as `user` (only the URL without authorization). */
  env(user: NatsUserName): Record<string, string>;
  /** The private server's process id and store directory (none when falling back to NATS_URL): what a harness that outlives this process must stop and remove. */
  pid?: number;
  directory?: string;
  /** Lets this process exit while the server still runs (a stack shared beyond one test file; its owner stops it by `pid`). */
  unref(): void;
  close(): Promise<void>;
}

const CANDIDATES = [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].filter(
  Boolean,
) as string[];

export function natsServerBinary(): string | undefined {
  return CANDIDATES.find((p) => existsSync(p));
}

/** A fresh random password per NATS user (dev stacks and tests; production passwords come from Secrets). */
export function generateNatsPasswords(): Record<NatsUserName, string> {
  return Object.fromEntries(NATS_USERS.map((u) => [u, randomBytes(18).toString('base64url')])) as Record<NatsUserName, string>;
}

/**
 * The nats-server config of a dev or test stack: one user per service with the permissions of
 * `servicePermissions`, plus (tests only) an unrestricted `harness` user that connections without
 * credentials get (`no_auth_user`), so a test's own probes and stand-ins need no password.
 */
export function natsServerConfig(passwords: Partial<Record<NatsUserName, string>>, opts: { harness?: boolean } = {}): string {
  if (!opts.harness) return renderNatsAuthorization(passwords);
  const harness = `{ user: "harness", password: ${JSON.stringify(randomBytes(18).toString('base64url'))} }`;
  return renderNatsAuthorization(passwords, { extraUsers: [harness], noAuthUser: 'harness' });
}

/**
 * A private `nats-server -js` on a free port with its own store and the per-service users, so a test
 * file never shares subjects, queue groups or streams with another test or a running dev stack, and
 * every service started with `env(service)` runs with exactly the rights it has in production. Falls
 * back to NATS_URL (the machine's server, without authorization) when no binary is found.
 * `harness: false` leaves out the unrestricted user of connections without credentials: like the server `npm start`
 * runs, it refuses any connection without a user of its own.
 */
export async function startTestNats(opts: { harness?: boolean } = {}): Promise<TestNats> {
  const bin = natsServerBinary();
  if (!bin) {
    const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
    return { url, authorization: false, env: () => ({ NATS_URL: url }), unref: () => undefined, close: async () => undefined };
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'docket-nats-'));
  const passwords = generateNatsPasswords();
  const conf = join(dir, 'nats.conf');
  writeFileSync(conf, natsServerConfig(passwords, { harness: opts.harness ?? true }), { mode: 0o600 });
  const child: ChildProcess = spawn(bin, ['-c', conf, '-a', '127.0.0.1', '-p', String(port), '-js', '-sd', join(dir, 'store')], {
    stdio: 'ignore',
  });
  await waitForPort(port, 10_000);
  const url = `nats://127.0.0.1:${port}`;
  return {
    url,
    authorization: true,
    env: (user) => ({ NATS_URL: url, NATS_USER: user, NATS_PASSWORD: passwords[user] }),
    pid: child.pid,
    directory: dir,
    unref: () => child.unref(),
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function waitForPort(port: number, timeoutMs: number, host = '127.0.0.1'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, host);
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`port ${port} not open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
