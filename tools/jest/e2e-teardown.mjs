// The e2e tier's global teardown (jest.config.mjs): stops the stacks the Jest workers shared between their test files
// and left running (tools/jest/e2e-setup.mjs). The workers are gone by now; what they wrote down says what to stop:
// the six services (SIGTERM, as `npm start` stops them; SIGKILL after a grace period), then their nats-server, then the
// database and the folders.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const SERVICE_GRACE_MS = 10_000;
const NATS_GRACE_MS = 5_000;

/** Whether `pid` still runs (an exited child nobody reaped yet is a zombie: it counts as gone). */
function running(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return true;
  }
}

async function stopProcesses(pids, graceMs) {
  const live = pids.filter((p) => p && running(p));
  for (const pid of live) process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (live.some(running) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of live.filter(running)) process.kill(pid, 'SIGKILL');
}

async function dropDatabase(url) {
  const admin = new URL(url);
  const name = admin.pathname.slice(1);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export default async function e2eTeardown() {
  const dir = process.env.DOCKET_E2E_LEFTOVERS;
  if (!dir) return;
  const stacks = readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')));
  await Promise.all(
    stacks.map(async (s) => {
      await stopProcesses(s.services, SERVICE_GRACE_MS);
      await stopProcesses([s.nats], NATS_GRACE_MS);
      await dropDatabase(s.database);
      for (const d of s.directories) rmSync(d, { recursive: true, force: true });
    }),
  );
  rmSync(dir, { recursive: true, force: true });
}
