// Finds or starts the infrastructure Docket needs: Postgres, NATS with JetStream, S3.
// Order: the URLs in the environment; the standard local ports; embedded fallbacks (development only).
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
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
  /** Per service (and `admin`): its own NATS user; empty when NATS_URL points at a server we did not start. */
  let serviceEnv = {};
  const cleanups = [];
  const dataDir = join(ROOT, '.data');
  mkdirSync(dataDir, { recursive: true });

  // Postgres
  if (env.DATABASE_URL) {
    out.DATABASE_URL = env.DATABASE_URL;
    log(`Postgres: using DATABASE_URL`);
  } else if (env.EMBEDDED_POSTGRES !== '1' && (await portOpen(5432))) {
    out.DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/docket';
    log('Postgres: local server on 127.0.0.1:5432, database "docket"');
  } else {
    const port = Number(env.EMBEDDED_POSTGRES_PORT ?? 5433);
    log(
      `Postgres: ${env.EMBEDDED_POSTGRES === '1' ? 'EMBEDDED_POSTGRES=1' : 'nothing on 127.0.0.1:5432'} — starting embedded-postgres on ${port} (development only)`,
    );
    const { startDevelopmentPostgres } = await import('./embedded-postgres.mjs');
    const pg = await startDevelopmentPostgres(join(dataDir, 'pg'), port);
    out.DATABASE_URL = pg.url;
    cleanups.push(pg.stop);
  }

  // One role per service (owner for migrations, DML for the service), as production runs (ADR 0009). When they
  // cannot be created, npm start stops rather than run every service as DATABASE_URL's role behind a log line;
  // SINGLE_DB_ROLE=1 is the explicit way to run that way (a DATABASE_URL whose role may not create roles).
  try {
    const { ensureDatabase } = await import('../../libs/database/dist/index.js');
    await ensureDatabase(out.DATABASE_URL);
  } catch (err) {
    await stopAll(cleanups);
    throw new Error(`Postgres: could not open or create the database of DATABASE_URL (${err.message})`);
  }
  if (env.SINGLE_DB_ROLE === '1') {
    log(
      "Postgres: SINGLE_DB_ROLE=1 — NO per-service roles: every service connects, and migrates, as DATABASE_URL's role " +
        '(each can read and change every schema; production uses one role per service, ADR 0009)',
    );
  } else {
    try {
      serviceEnv = mergeServiceEnv(serviceEnv, await provisionDatabaseRoles(out.DATABASE_URL));
    } catch (err) {
      await stopAll(cleanups);
      throw new Error(
        `Postgres: could not create the per-service roles (${err.message}). Not starting: the services would all run as ` +
          "DATABASE_URL's role instead of their own least-privilege roles (ADR 0009). DATABASE_URL must name a role that may " +
          'create roles and schemas (the local superuser does); set SINGLE_DB_ROLE=1 to run every service as that role knowingly.',
      );
    }
    log('Postgres: one role per service (docket_<schema> for the service, docket_<schema>_owner for migrations)');
  }

  // NATS: a private nats-server with one user per service (libs/contracts servicePermissions), so the
  // services run with the same rights as in production. Never the machine's shared server (no users there).
  if (env.NATS_URL) {
    out.NATS_URL = env.NATS_URL;
    log('NATS: using NATS_URL (its authorization is yours: set NATS_USER/NATS_PASSWORD per service)');
  } else {
    const nats = await startAuthorizedNats(dataDir);
    out.NATS_URL = nats.url;
    serviceEnv = mergeServiceEnv(serviceEnv, nats.serviceEnv);
    cleanups.push(nats.stop);
  }

  // S3
  if (env.S3_ENDPOINT) {
    out.S3_ENDPOINT = env.S3_ENDPOINT;
    log('S3: using S3_ENDPOINT');
  } else {
    const port = Number(env.EMBEDDED_S3_PORT ?? 9000);
    const bucket = env.S3_BUCKET ?? 'docket';
    const { startEmbeddedS3 } = await import('../../libs/testing/dist/embedded-s3.js');
    const s3 = await startEmbeddedS3({ port, directory: join(dataDir, 's3'), bucket });
    log(
      `S3: no S3_ENDPOINT — embedded S3 (@20minutes/s3rver, SigV4-verifying) on ${s3.endpoint}, bucket "${bucket}" (development only; use MinIO in deployments)`,
    );
    Object.assign(out, { S3_ENDPOINT: s3.endpoint, S3_BUCKET: bucket, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    cleanups.push(() => s3.close());
  }
  return {
    env: out,
    serviceEnv,
    stop: async () => {
      for (const c of cleanups.reverse()) await c();
    },
  };
}

/** Stops what ensureInfra started so far, newest first (a failed start leaves nothing running). */
async function stopAll(cleanups) {
  for (const c of cleanups.reverse())
    await Promise.resolve()
      .then(c)
      .catch(() => undefined);
}

const NATS_BINARIES = [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].filter(
  Boolean,
);

/** A free TCP port on 127.0.0.1 for a server of ours to bind (tests, npm start). */
export async function freePort() {
  // Below Linux's ephemeral range (32768–60999): a port the OS handed out for listening and we released would be
  // handed out again to any outgoing connection (a service's Postgres or NATS client) before the service binds it —
  // EADDRINUSE in CI. A random port here is only ever taken by someone binding it on purpose.
  const { min, max } = portBand(process.env.JEST_WORKER_ID);
  for (let i = 0; i < FREE_PORT_TRIES; i++) {
    const port = min + Math.floor(Math.random() * (max - min));
    if (handedOut.has(port)) continue;
    if (await canListen(port)) {
      handedOut.add(port);
      return port;
    }
  }
  return osPort();
}

/** The range free ports are drawn from (under the ephemeral range), and how many draws before asking the OS. */
const FREE_PORT_MIN = 20000;
const FREE_PORT_MAX = 32000;
const FREE_PORT_TRIES = 50;
const FREE_PORT_BANDS = 4;

/**
 * Under a Jest worker (an e2e test running `npm start`), only that worker's band of the range: the same bands as
 * libs/testing's freePort, so test files running side by side never draw the same port. Otherwise the whole range.
 */
function portBand(workerId) {
  // A tier running beside another (npm test's e2e beside int) moves its workers to later bands.
  const id = Number(workerId) + Number(process.env.DOCKET_PORT_BAND_OFFSET ?? 0);
  if (!Number.isInteger(id) || id < 1) return { min: FREE_PORT_MIN, max: FREE_PORT_MAX };
  const width = (FREE_PORT_MAX - FREE_PORT_MIN) / FREE_PORT_BANDS;
  const min = FREE_PORT_MIN + ((id - 1) % FREE_PORT_BANDS) * width;
  return { min, max: min + width };
}
/** Ports this process handed out already: never twice, even after their server stopped. */
const handedOut = new Set();

function canListen(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

function osPort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Generates a password per NATS user, writes the nats-server config (0600) and starts `nats-server -js`
 * with it on `port` (4222 when free). Returns each service's NATS_USER/NATS_PASSWORD (and the admin CLI's).
 */
export async function startAuthorizedNats(dataDir, { port } = {}) {
  const { NATS_USERS, renderNatsAuthorization } = await import('../../libs/contracts/dist/index.js');
  const bin = NATS_BINARIES.find((p) => existsSync(p));
  if (!bin) throw new Error('no nats-server binary found (apt-get install nats-server, or set NATS_SERVER_BIN / NATS_URL)');
  const passwords = Object.fromEntries(NATS_USERS.map((u) => [u, randomBytes(18).toString('base64url')]));
  const conf = join(dataDir, 'nats.conf');
  writeFileSync(conf, renderNatsAuthorization(passwords), { mode: 0o600 });
  const chosen = port ?? ((await portOpen(4222)) ? await freePort() : 4222);
  const args = ['-c', conf, '-a', '127.0.0.1', '-p', String(chosen), '-js', '-sd', join(dataDir, 'nats')];
  let child;
  const start = async () => {
    child = spawn(bin, args, { stdio: 'ignore' });
    if (!(await waitPort(chosen, 10_000))) throw new Error('nats-server did not start');
  };
  await start();
  log(`NATS: private ${bin} -js at nats://127.0.0.1:${chosen}, one user per service (config ${conf})`);
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve(undefined);
      child.once('exit', () => resolve(undefined));
      child.kill('SIGTERM');
    });
  return {
    url: `nats://127.0.0.1:${chosen}`,
    serviceEnv: Object.fromEntries(NATS_USERS.map((u) => [u, { NATS_USER: u, NATS_PASSWORD: passwords[u] }])),
    stop,
    /** Stop and start the same server (chaos runs); JetStream state survives in its store. */
    restart: async () => {
      await stop();
      await start();
    },
  };
}

/**
 * Creates the two Postgres roles of every service in the database of `url` (a superuser URL; trust
 * authentication locally, so no passwords) and returns each service's DATABASE_URL (its DML role) and
 * MIGRATION_DATABASE_URL (its schema owner). libs/database SERVICE_SCHEMAS is the list.
 */
export async function provisionDatabaseRoles(url) {
  const { provisionServiceRoles, serviceRoles, urlAsRole, SERVICE_SCHEMAS } = await import('../../libs/database/dist/index.js');
  await provisionServiceRoles(url);
  return Object.fromEntries(
    Object.keys(SERVICE_SCHEMAS).map((service) => {
      const r = serviceRoles(service);
      return [service, { DATABASE_URL: urlAsRole(url, r.app), MIGRATION_DATABASE_URL: urlAsRole(url, r.owner) }];
    }),
  );
}

/** Merges per-service environments (NATS user, database roles): { service: { ...a[service], ...b[service] } }. */
export function mergeServiceEnv(...envs) {
  const out = {};
  for (const e of envs) for (const [k, v] of Object.entries(e ?? {})) out[k] = { ...out[k], ...v };
  return out;
}
