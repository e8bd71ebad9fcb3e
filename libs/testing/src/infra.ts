import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { startEmbeddedS3, type EmbeddedS3 } from './embedded-s3.js';

/** Real local infrastructure for integration tests (never fakes): Postgres, NATS JetStream, S3. */
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** A fresh database per test file, dropped afterwards. */
export async function createTestDatabase(prefix = 'docket_t'): Promise<TestDatabase> {
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const adminUrl = new URL(TEST_PG_URL);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestS3 extends EmbeddedS3 {
  bucket: string;
  env: Record<string, string>;
  /** Where the embedded S3 keeps its objects (one file per object): tests can grep what storage holds. */
  directory: string;
}

/** Embedded SigV4-verifying S3 in a temp dir on a free port. */
export async function startTestS3(bucket = 'docket-test'): Promise<TestS3> {
  const dir = mkdtempSync(join(tmpdir(), 'docket-s3-'));
  const port = await freePort();
  const s3 = await startEmbeddedS3({ port, directory: dir, bucket });
  return {
    ...s3,
    bucket,
    directory: dir,
    env: {
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
    },
    close: async () => {
      await s3.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Where free ports are drawn from: under Linux's ephemeral range (32768–60999), split into one band per Jest worker. */
const FREE_PORT_MIN = 20000;
const FREE_PORT_MAX = 32000;
const FREE_PORT_BANDS = 4;
const FREE_PORT_TRIES = 50;
/** Ports this module handed out already: never twice, even after their server stopped. */
const handedOut = new Set<number>();

/**
 * The ports `freePort` draws from for the Jest worker `workerId` (`JEST_WORKER_ID`, 1 for --runInBand): workers
 * 1–4 get disjoint bands, so test files running side by side never draw the same port; outside Jest, all of them.
 */
export function portBand(workerId: string | undefined): { min: number; max: number } {
  // A tier running beside another (npm test's e2e beside int) moves its workers to later bands.
  const id = Number(workerId) + Number(process.env.DOCKET_PORT_BAND_OFFSET ?? 0);
  if (!Number.isInteger(id) || id < 1) return { min: FREE_PORT_MIN, max: FREE_PORT_MAX };
  const width = (FREE_PORT_MAX - FREE_PORT_MIN) / FREE_PORT_BANDS;
  const min = FREE_PORT_MIN + ((id - 1) % FREE_PORT_BANDS) * width;
  return { min, max: min + width };
}

/**
 * A free TCP port on 127.0.0.1 for a server of the test to bind (as tools/dev/infra.mjs for npm start). Below the
 * ephemeral range: a port the OS handed out for listening and we released would be handed out again to any outgoing
 * connection (a service's Postgres or NATS client) before the service binds it (EADDRINUSE).
 */
export async function freePort(): Promise<number> {
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

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

function osPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export function testLogger(): Logger {
  return pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
}

/** Unique suffix so parallel test files never share NATS subjects' durable names or streams. */
export function uniqueSuffix(): string {
  return `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}
