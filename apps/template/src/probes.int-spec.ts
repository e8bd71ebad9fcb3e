import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createTestDatabase,
  expectEventually,
  freePort,
  startTcpProxy,
  startTestNats,
  type TcpProxy,
  type TestDatabase,
  type TestNats,
} from '@docket/testing';
import pg from 'pg';
import { bootstrap, SCHEMA, type TemplateApp } from './bootstrap.js';

/** The probes of one real service (template) with its Postgres behind a relay the test can cut. */
describe('/livez and /readyz', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let proxy: TcpProxy;
  let svc: TemplateApp;
  let sql: pg.Client;

  const probe = async (path: string) => {
    const res = await fetch(`${svc.url}${path}`);
    return {
      status: res.status,
      body: (await res.json()) as { status: string; details: Record<string, { status: string; message?: string }> },
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase('docket_probe');
    nats = await startTestNats();
    const target = new URL(db.url);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    svc = await bootstrap({ DATABASE_URL: proxy.rewrite(db.url), NATS_URL: nats.url, PORT: String(await freePort()), LOG_LEVEL: 'silent' });
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
  });

  afterAll(async () => {
    await svc?.close();
    await sql?.end();
    await proxy?.close();
    await nats?.close();
    await db?.drop();
  });

  it('are both 200 when every dependency answers and the schema is current', async () => {
    expect((await probe('/livez')).status).toBe(200);
    const ready = await probe('/readyz');
    expect(ready.status).toBe(200);
    expect(Object.keys(ready.body.details).sort()).toEqual(['database', 'queue', 'schema']);
  });

  it('keeps /livez 200 while Postgres is unreachable, and /readyz turns 503 until it is back', async () => {
    proxy.cut();
    try {
      expect((await probe('/livez')).status).toBe(200);
      const ready = await probe('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('error');
      expect(ready.body.details.database.status).toBe('down');
      expect(ready.body.details.queue.status).toBe('up');
    } finally {
      proxy.restore();
    }
    await expectEventually(async () => expect((await probe('/readyz')).status).toBe(200));
  });

  it('refuses readiness on a schema one migration behind the code', async () => {
    const [last] = (await sql.query(`SELECT id, timestamp, name FROM "${SCHEMA}"."migrations" ORDER BY timestamp DESC LIMIT 1`)).rows as {
      id: number;
      timestamp: string;
      name: string;
    }[];
    await sql.query(`DELETE FROM "${SCHEMA}"."migrations" WHERE name = $1`, [last.name]);
    try {
      const ready = await probe('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.details.schema.status).toBe('down');
      expect(ready.body.details.schema.message).toContain('1 migration(s) behind');
      expect(ready.body.details.database.status).toBe('up');
      expect((await probe('/livez')).status).toBe(200);
    } finally {
      await sql.query(`INSERT INTO "${SCHEMA}"."migrations" (id, timestamp, name) VALUES ($1, $2, $3)`, [
        last.id,
        last.timestamp,
        last.name,
      ]);
    }
    expect((await probe('/readyz')).status).toBe(200);
  });
});
