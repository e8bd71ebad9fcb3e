import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './infra.js';

export interface TestNats {
  url: string;
  close(): Promise<void>;
}

const CANDIDATES = [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].filter(Boolean) as string[];

export function natsServerBinary(): string | undefined {
  return CANDIDATES.find((p) => existsSync(p));
}

/**
 * A private `nats-server -js` on a free port with its own store, so a test file never shares
 * subjects, queue groups or streams with another test or a running dev stack. Falls back to
 * NATS_URL (the machine's server) when no binary is found.
 */
export async function startTestNats(): Promise<TestNats> {
  const bin = natsServerBinary();
  if (!bin) {
    const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
    return { url, close: async () => undefined };
  }
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'docket-nats-'));
  const child: ChildProcess = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', dir], { stdio: 'ignore' });
  await waitForPort(port, 10_000);
  return {
    url: `nats://127.0.0.1:${port}`,
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
      s.once('connect', () => { s.destroy(); resolve(true); });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`port ${port} not open after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
