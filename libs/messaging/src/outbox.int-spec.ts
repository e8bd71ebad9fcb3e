import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Streams } from '@docket/contracts';
import { createTestDatabase, startTestNats, testLogger, type TestDatabase, type TestNats } from '@docket/testing';
import { DataSource } from 'typeorm';
import { JetStreamBus } from './jetstream.js';
import { enqueueOutbox, OutboxRelay, outboxTableSql } from './outbox.js';

const SCHEMA = 'outbox_test';

describe('outbox relay (real Postgres + NATS JetStream)', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let ds: DataSource;
  let bus: JetStreamBus;

  beforeAll(async () => {
    [db, nats] = await Promise.all([createTestDatabase('outbox_t'), startTestNats()]);
    ds = new DataSource({ type: 'postgres', url: db.url });
    await ds.initialize();
    await ds.query(`CREATE SCHEMA "${SCHEMA}"`);
    for (const sql of outboxTableSql(SCHEMA)) await ds.query(sql);
    bus = new JetStreamBus(nats.url, testLogger(), 'outbox-test');
    await bus.connect();
  });

  afterAll(async () => {
    await bus?.close();
    if (ds?.isInitialized) await ds.destroy();
    await nats?.close();
    await db?.drop();
  });

  const rows = async () =>
    (await ds.query(`SELECT "id", "sent_at" FROM "${SCHEMA}"."outbox" ORDER BY "id"`)) as { id: string; sent_at: Date | null }[];

  it('publishes, then prunes published rows past keepSentMs (ADR 0008); unsent rows are never pruned', async () => {
    await ds.transaction((m) => enqueueOutbox(m, SCHEMA, Streams.events.jobFinished, { jobId: 'job_a', detail: 'tenant data' }, 'evt_a'));
    const relay = new OutboxRelay(ds, SCHEMA, bus, testLogger(), 100, 0);
    expect(await relay.drain()).toBe(1);
    await ds.transaction((m) => enqueueOutbox(m, SCHEMA, Streams.events.jobFinished, { jobId: 'job_b' }, 'evt_b'));
    expect((await rows()).map((r) => [r.id, r.sent_at !== null])).toEqual([
      ['evt_a', true],
      ['evt_b', false],
    ]);

    expect(await relay.prune()).toBe(1);
    expect((await rows()).map((r) => r.id)).toEqual(['evt_b']);

    // With the default keep time a freshly published row stays (duplicate detection window).
    const keeping = new OutboxRelay(ds, SCHEMA, bus, testLogger());
    expect(await keeping.drain()).toBe(1);
    expect(await keeping.prune()).toBe(0);
    expect((await rows()).map((r) => r.id)).toEqual(['evt_b']);
  });
});
