import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, expectEventually, freePort, type TestDatabase } from '@docket/testing';

const ROOT = resolve(import.meta.dirname, '../../..');
const CONNECTION_FILE = join(ROOT, '.data', 'admin-connection.json');
const run = promisify(execFile);

/** npm start builds (incrementally), starts the infrastructure and six services, then creates its account. */
const START_TIMEOUT_MS = 240_000;
jest.setTimeout(START_TIMEOUT_MS + 120_000);

/** A second terminal: the developer's environment, with nothing that names the stack's NATS server or database. */
function terminalEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of ['NATS_URL', 'NATS_USER', 'NATS_PASSWORD', 'DATABASE_URL', 'S3_ENDPOINT', 'NODE_OPTIONS']) delete env[k];
  return env;
}

const PREFIX = 'npm run --silent admin -- ';
/** The admin command a README line runs (`create-account`, …). */
const commandOf = (line: string) => line.slice(PREFIX.length).split(' ')[0];

/** The command lines of the README's "Admin CLI" block, in order, exactly as written. */
function readmeAdminCommands(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Admin CLI'));
  const block = section.slice(section.indexOf('```bash') + '```bash'.length, section.indexOf('```', section.indexOf('```bash') + 7));
  return block.split('\n').filter((l) => l.startsWith(PREFIX));
}

/** `npm start` as a developer runs it, on a fresh database (DATABASE_URL, as the README allows) and free ports. */
function startDevStack(env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  const child = spawn(process.execPath, [join(ROOT, 'tools', 'dev', 'start.mjs')], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const ready = new Promise<void>((ok, fail) => {
    const onData = (d: Buffer) => {
      out += d;
      if (out.includes('[docket]\u001b[0m ready.')) ok();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => fail(new Error(`npm start exited (${code}) before it was ready:\n${out.slice(-3000)}`)));
  });
  return { child, output: () => out, ready };
}

describe('README Admin CLI: every command works verbatim from another terminal while npm start runs', () => {
  let db: TestDatabase;
  let dev: ReturnType<typeof startDevStack> | undefined;
  let exited: Promise<unknown> | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('docket_e2e_admin');
    const env = {
      ...terminalEnv(),
      DATABASE_URL: db.url,
      PORT: String(await freePort()),
      EMBEDDED_S3_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
    };
    dev = startDevStack(env);
    exited = new Promise((r) => dev!.child.once('exit', r));
    await dev.ready;
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    if (dev && dev.child.exitCode === null) {
      dev.child.kill('SIGTERM');
      await exited;
    }
    await db?.drop();
  });

  it('npm start keeps the admin connection in an owner-only file and never prints the password', () => {
    expect(statSync(CONNECTION_FILE).mode & 0o777).toBe(0o600);
    const { NATS_USER, NATS_PASSWORD } = JSON.parse(readFileSync(CONNECTION_FILE, 'utf8'));
    expect(NATS_USER).toBe('admin');
    expect(dev!.output()).not.toContain(NATS_PASSWORD);
  });

  it('npm start turns on admin mode with the token it prints (dashboard admin mode): the admin routes answer it', async () => {
    // (The lines after "ready." may reach this process a moment later than "ready." itself.)
    const printed = await expectEventually(() => {
      const m = /admin token: (adm_[A-Za-z0-9_-]+)/.exec(dev!.output());
      if (!m) throw new Error('no admin token printed yet');
      return m;
    });
    const base = /Swagger UI: +(http:\/\/[^/\s]+)\/docs/.exec(dev!.output())![1];
    const ok = await fetch(`${base}/api/v1/admin/accounts`, { headers: { authorization: `Bearer ${printed![1]}` } });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { accounts: unknown[] }).accounts).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'Development' })]),
    );
    const wrong = await fetch(`${base}/api/v1/admin/accounts`, { headers: { authorization: `Bearer ${printed![1]}x` } });
    expect(wrong.status).toBe(403);
  });

  it('runs each README command, in order, with placeholders replaced by the ids the earlier ones printed', async () => {
    const commands = readmeAdminCommands();
    expect(commands.map(commandOf)).toEqual([
      'create-account',
      'deposit',
      'freeze',
      'unfreeze',
      'rotate-secret',
      'list-secrets',
      'revoke-secret',
      'revoke-key',
      'set-rate-limit',
      'set-defaults',
    ]);
    // The file's own checks are the test above; here only: no command prints the password it holds.
    const password: string = existsSync(CONNECTION_FILE)
      ? JSON.parse(readFileSync(CONNECTION_FILE, 'utf8')).NATS_PASSWORD
      : 'no connection file';
    const ids: Record<string, string> = { tpl: 'auto', wh: 'none' };
    const outputs: Record<string, Record<string, unknown>> = {};
    for (const line of commands) {
      const command = line.replace(/\b(acct|dk_live|sec|tpl|wh)_…/g, (_m, kind: string) => ids[kind]);
      const { stdout } = await run('bash', ['-c', command], { cwd: ROOT, env: terminalEnv() }).catch(
        (e: { stdout: string; stderr: string }) => {
          throw new Error(`${command}\n${e.stdout}\n${e.stderr}`);
        },
      );
      expect(stdout).not.toContain(password);
      const name = commandOf(line);
      outputs[name] = JSON.parse(stdout);
      if (name === 'create-account') {
        const acct = outputs[name] as { account_id: string; live: { api_key: string } };
        Object.assign(ids, { acct: acct.account_id, dk_live: acct.live.api_key });
      }
      if (name === 'rotate-secret') ids.sec = (outputs[name] as { secret_id: string }).secret_id;
    }
    expect(outputs['create-account']).toMatchObject({
      account_id: expect.stringMatching(/^acct_/),
      live: { api_key: expect.stringMatching(/^dk_live_/) },
    });
    expect(outputs['list-secrets']).toMatchObject({ api_key: ids.dk_live, secrets: [expect.anything(), { secret_id: ids.sec }] });
    expect(outputs['set-rate-limit']).toMatchObject({ api_key: ids.dk_live, requests_per_minute: 1200 });
    for (const [name, out] of Object.entries(outputs)) expect({ name, error: out.error }).toEqual({ name, error: undefined });
  });

  it('removes the connection file when npm start stops', async () => {
    dev!.child.kill('SIGTERM');
    await exited;
    expect(existsSync(CONNECTION_FILE)).toBe(false);
  });
});
