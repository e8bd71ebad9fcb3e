import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  MAX_ARTIFACT_BYTES,
  Streams,
  Subjects,
  type JobFinishedEvent,
  type PlaceHoldReply,
  type ReleaseHoldReply,
  type ResizeHoldReply,
  type UsageSummaryResponseDto,
  type WalletStatusResponseDto,
} from '@docket/contracts';
import { createServiceDataSource } from '@docket/database';
import type { DocketError } from '@docket/errors';
import { JetStreamBus, RpcClient } from '@docket/messaging';
import {
  createTestDatabase,
  expectEventually,
  freePort,
  rejectionOf,
  startTestNats,
  testLogger,
  type TestDatabase,
  type TestNats,
} from '@docket/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { ulid } from 'ulid';
import type { DataSource } from 'typeorm';
import { bootstrap } from './bootstrap.js';
import { billingEntities } from './entities/index.js';
import { billingMigrations } from './migrations/index.js';

// Defaults: 1 credit per page, holds of at least 5 pages, 100 kB per page, at most 500 pages.
const SMALL = 1_000; // → 5-page estimate → hold of 5 credits
// Longer than expectEventually's 15 s deadline, so a polling assertion fails inside its test
// instead of outliving it (and racing afterAll's shutdown).
jest.setTimeout(60_000);

const acct = () => `acct_${ulid().toLowerCase()}`;
const job = () => `job_${ulid().toLowerCase()}`;

describe('billing service (real Postgres + NATS JetStream)', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let service: Awaited<ReturnType<typeof bootstrap>>;
  let rpc: RpcClient;
  let bus: JetStreamBus;
  let ds: DataSource;

  const call = <T>(subject: string, payload: object) => rpc.request<T>(subject, payload);
  const fail = (subject: string, payload: object) => rejectionOf<DocketError>(rpc.request(subject, payload), subject);
  const wallet = (accountId: string) => call<WalletStatusResponseDto>(Subjects.billing.getWallet, { accountId });
  const open = (accountId: string, initialCredits: number) =>
    call<WalletStatusResponseDto>(Subjects.billing.openWallet, { accountId, initialCredits });
  const hold = (accountId: string, jobId: string, o: { sandbox?: boolean; size?: number } = {}) =>
    call<PlaceHoldReply>(Subjects.billing.placeHold, {
      accountId,
      jobId,
      sandbox: o.sandbox ?? false,
      artifactSize: o.size ?? SMALL,
      mimeType: 'application/pdf',
    });
  const finished = (e: Pick<JobFinishedEvent, 'accountId' | 'jobId' | 'status'> & Partial<JobFinishedEvent>, msgId = `evt_${ulid()}`) =>
    bus.publish(
      Streams.events.jobFinished,
      {
        eventId: msgId,
        artifactId: 'art_x',
        sandbox: false,
        pages: 0,
        webhookId: null,
        batchId: null,
        filename: 'a.pdf',
        result: null,
        confidence: null,
        needsReview: false,
        error: null,
        createdAt: new Date().toISOString(),
        finishedAt: new Date().toISOString(),
        ...e,
      },
      msgId,
    );
  /** Every published job.finished has been handled and acknowledged by billing's durable consumer. */
  const consumerDrained = async () => {
    const jsm = await jetstreamManager(bus.connection);
    await expectEventually(
      async () => {
        const info = await jsm.consumers.info(Streams.events.name, Streams.events.durables.billing);
        expect({ pending: info.num_pending, unacked: info.num_ack_pending }).toEqual({ pending: 0, unacked: 0 });
      },
      { what: 'billing consumer drained' },
    );
  };
  const holdRow = async (jobId: string) => (await ds.query(`SELECT * FROM "billing"."holds" WHERE "job_id" = $1`, [jobId]))[0];

  beforeAll(async () => {
    [db, nats] = await Promise.all([createTestDatabase('billing_t'), startTestNats()]);
    service = await bootstrap({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
    });
    rpc = new RpcClient({ natsUrl: nats.url, name: 'billing-test', timeoutMs: 10_000 });
    await rpc.connect();
    bus = new JetStreamBus(nats.url, testLogger(), 'billing-test');
    await bus.connect();
    ds = createServiceDataSource({ url: db.url, schema: 'billing', entities: billingEntities, migrations: billingMigrations });
    await ds.initialize();
  });

  afterAll(async () => {
    await rpc?.close();
    await bus?.close();
    await service?.close();
    if (ds?.isInitialized) await ds.destroy();
    await nats?.close();
    await db?.drop();
  });

  it('has no pending migrations and entities match them', async () => {
    expect(await ds.showMigrations()).toBe(false);
    expect((await ds.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  });

  it('opens, reads, deposits into, freezes and unfreezes a wallet', async () => {
    const a = acct();
    await expect(fail(Subjects.billing.getWallet, { accountId: a })).resolves.toMatchObject({ code: 'wallet_not_found' });

    expect(await open(a, 100)).toEqual({ balance: 100, spendable: 100, is_frozen: false, frozen_reason: null });
    // Opening again returns the wallet as it is; the initial credits are not applied twice.
    expect(await open(a, 100)).toEqual({ balance: 100, spendable: 100, is_frozen: false, frozen_reason: null });
    expect(await wallet(a)).toEqual({ balance: 100, spendable: 100, is_frozen: false, frozen_reason: null });

    expect(await call(Subjects.billing.deposit, { accountId: a, credits: 2.5, reference: 'inv-1' })).toMatchObject({
      balance: 102.5,
      spendable: 102.5,
    });
    expect(await call(Subjects.billing.freeze, { accountId: a, reason: 'payment_failed' })).toEqual({
      balance: 102.5,
      spendable: 102.5,
      is_frozen: true,
      frozen_reason: 'payment_failed',
    });
    expect(await wallet(a)).toMatchObject({ is_frozen: true, frozen_reason: 'payment_failed' });
    expect(await call(Subjects.billing.unfreeze, { accountId: a })).toMatchObject({ is_frozen: false, frozen_reason: null });

    const ledger = await ds.query(
      `SELECT "kind", "balance_change_micro" FROM "billing"."ledger_entries" WHERE "account_id" = $1 ORDER BY "id"`,
      [a],
    );
    expect(ledger).toEqual([
      { kind: 'deposit', balance_change_micro: '100000000' },
      { kind: 'deposit', balance_change_micro: '2500000' },
    ]);
  });

  it('rejects invalid payloads and unknown wallets', async () => {
    await expect(fail(Subjects.billing.deposit, { accountId: acct(), credits: -1 })).resolves.toMatchObject({ code: 'invalid_payload' });
    await expect(fail(Subjects.billing.deposit, { accountId: acct(), credits: 1 })).resolves.toMatchObject({ code: 'wallet_not_found' });
    await expect(
      fail(Subjects.billing.placeHold, { accountId: 'nope', jobId: job(), sandbox: false, artifactSize: 1, mimeType: 'x' }),
    ).resolves.toMatchObject({ code: 'invalid_payload' });
    await expect(fail(Subjects.billing.usage, { accountId: acct(), period: '1y' })).resolves.toMatchObject({ code: 'invalid_payload' });
  });

  it('a hold lowers spendable but not balance; success settles to the actual cost, exactly once', async () => {
    const a = acct();
    await open(a, 20);
    const j = job();
    expect(await hold(a, j, { size: 1_200_000 })).toEqual({ jobId: j, amount: 12 }); // ceil(1.2 MB / 100 kB) = 12 pages
    expect(await hold(a, j, { size: 1_200_000 })).toEqual({ jobId: j, amount: 12 }); // idempotent per job
    expect(await wallet(a)).toMatchObject({ balance: 20, spendable: 8 });

    const msgIdA = `evt_${ulid()}`;
    await finished({ accountId: a, jobId: j, status: 'success', pages: 3 }, msgIdA);
    await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 17, spendable: 17 }));
    // The same event again (new message id, so JetStream does not dedupe it) changes nothing.
    await finished({ accountId: a, jobId: j, status: 'success', pages: 3 });
    await finished({ accountId: a, jobId: j, status: 'failed', pages: 0 });
    await consumerDrained();
    expect(await wallet(a)).toMatchObject({ balance: 17, spendable: 17 });
    expect(await holdRow(j)).toMatchObject({ state: 'settled', outcome: 'success', charged_micro: '3000000', pages: 3 });
    const charges = await ds.query(`SELECT * FROM "billing"."ledger_entries" WHERE "job_id" = $1 AND "kind" = 'charge'`, [j]);
    expect(charges).toHaveLength(1);
  });

  it("the engine's page count settles, also above the hold (ADR 0005), never beyond what the wallet has", async () => {
    const a = acct();
    await open(a, 50);
    const j = job();
    await hold(a, j); // 5 credits held for a small file
    await finished({ accountId: a, jobId: j, status: 'success', pages: 30 });
    await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 20, spendable: 20 }));
    expect(await holdRow(j)).toMatchObject({ state: 'settled', charged_micro: '30000000', pages: 30 });

    const poor = acct();
    await open(poor, 10);
    const [k, other] = [job(), job()];
    await hold(poor, k);
    await hold(poor, other); // the other job's hold is never eaten by this charge
    await finished({ accountId: poor, jobId: k, status: 'success', pages: 40 });
    await expectEventually(async () => expect(await wallet(poor)).toMatchObject({ balance: 5, spendable: 0 }));
    expect(await holdRow(k)).toMatchObject({ state: 'settled', charged_micro: '5000000', pages: 40 });
  });

  it('failed, cancelled and expired jobs release their hold without charge', async () => {
    const a = acct();
    await open(a, 50);
    const [f, c, e] = [job(), job(), job()];
    await hold(a, f);
    await hold(a, c);
    await hold(a, e);
    expect(await wallet(a)).toMatchObject({ balance: 50, spendable: 35 });
    await finished({ accountId: a, jobId: f, status: 'failed', pages: 2, error: 'extraction_failed: x' });
    await finished({ accountId: a, jobId: c, status: 'cancelled' });
    await finished({ accountId: a, jobId: e, status: 'expired' });
    await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 50, spendable: 50 }));
    expect((await holdRow(f)).outcome).toBe('failed');
  });

  it('releaseHold releases without charge, is idempotent and ignores unknown jobs', async () => {
    const a = acct();
    await open(a, 10);
    const j = job();
    await hold(a, j);
    expect(await call<ReleaseHoldReply>(Subjects.billing.releaseHold, { accountId: a, jobId: j, reason: 'cancelled' })).toEqual({
      jobId: j,
      status: 'released',
      amount: 5,
    });
    expect(await call<ReleaseHoldReply>(Subjects.billing.releaseHold, { accountId: a, jobId: j })).toEqual({
      jobId: j,
      status: 'released',
      amount: 5,
    });
    expect(await wallet(a)).toMatchObject({ balance: 10, spendable: 10 });
    expect(await call<ReleaseHoldReply>(Subjects.billing.releaseHold, { accountId: a, jobId: job() })).toMatchObject({
      status: 'unknown',
      amount: 0,
    });
    // Another account cannot release it (and learns nothing about it).
    const other = acct();
    await open(other, 10);
    const k = job();
    await hold(a, k);
    expect(await call<ReleaseHoldReply>(Subjects.billing.releaseHold, { accountId: other, jobId: k })).toMatchObject({ status: 'unknown' });
    expect(await wallet(a)).toMatchObject({ spendable: 5 });
    // A later job.finished for a released hold is acknowledged and changes nothing.
    await finished({ accountId: a, jobId: j, status: 'success', pages: 1 });
    await finished({ accountId: a, jobId: k, status: 'cancelled' });
    await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 10, spendable: 10 }));
  });

  it('acknowledges events for unknown jobs and keeps consuming', async () => {
    const a = acct();
    await open(a, 10);
    await finished({ accountId: a, jobId: job(), status: 'success', pages: 2 });
    await finished({ accountId: acct(), jobId: job(), status: 'success', pages: 2 });
    const j = job();
    await hold(a, j);
    await finished({ accountId: a, jobId: j, status: 'success', pages: 1 });
    await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 9, spendable: 9 }));
  });

  it('402 wallet_frozen (live and sandbox) and 402 insufficient_funds', async () => {
    const a = acct();
    await open(a, 4);
    await expect(
      fail(Subjects.billing.placeHold, { accountId: a, jobId: job(), sandbox: false, artifactSize: SMALL, mimeType: 'application/pdf' }),
    ).resolves.toMatchObject({ code: 'insufficient_funds' });
    await call(Subjects.billing.deposit, { accountId: a, credits: 100 });
    await call(Subjects.billing.freeze, { accountId: a, reason: 'compliance_review' });
    await expect(
      fail(Subjects.billing.placeHold, { accountId: a, jobId: job(), sandbox: false, artifactSize: SMALL, mimeType: 'application/pdf' }),
    ).resolves.toMatchObject({ code: 'wallet_frozen' });
    await expect(
      fail(Subjects.billing.placeHold, { accountId: a, jobId: job(), sandbox: true, artifactSize: SMALL, mimeType: 'application/pdf' }),
    ).resolves.toMatchObject({ code: 'wallet_frozen' });
    await call(Subjects.billing.unfreeze, { accountId: a });
    expect((await hold(a, job())).amount).toBe(5);
    await expect(
      fail(Subjects.billing.placeHold, { accountId: acct(), jobId: job(), sandbox: false, artifactSize: 1, mimeType: 'x' }),
    ).resolves.toMatchObject({ code: 'wallet_not_found' });
  });

  it('sandbox holds are 0, never short of funds and never charged', async () => {
    const a = acct();
    await open(a, 0);
    const j = job();
    expect(await hold(a, j, { sandbox: true, size: MAX_ARTIFACT_BYTES })).toEqual({ jobId: j, amount: 0 });
    // Above the engine's limit the payload itself is refused (the gateway refuses it at submit first).
    expect(
      await fail(Subjects.billing.placeHold, {
        accountId: a,
        jobId: job(),
        sandbox: true,
        artifactSize: MAX_ARTIFACT_BYTES + 1,
        mimeType: 'application/pdf',
      }),
    ).toMatchObject({ code: 'invalid_payload' });
    await finished({ accountId: a, jobId: j, status: 'success', pages: 30, sandbox: true });
    await expectEventually(async () => expect((await holdRow(j)).state).toBe('settled'));
    expect(await holdRow(j)).toMatchObject({ charged_micro: '0', outcome: 'success' });
    expect(await wallet(a)).toMatchObject({ balance: 0, spendable: 0 });
  });

  it('20 concurrent holds against a wallet that affords 7: exactly 7 succeed, spendable never negative', async () => {
    const a = acct();
    await open(a, 37); // 7 × 5 = 35 ≤ 37 < 40
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => hold(a, job())));
    const ok = results.filter((r) => r.status === 'fulfilled');
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(7);
    expect(rejected.map((r) => (r.reason as DocketError).code)).toEqual(Array(13).fill('insufficient_funds'));
    expect(await wallet(a)).toEqual({ balance: 37, spendable: 2, is_frozen: false, frozen_reason: null });

    // The same job retried concurrently holds once.
    await call(Subjects.billing.deposit, { accountId: a, credits: 100 });
    const j = job();
    const same = await Promise.all(Array.from({ length: 10 }, () => hold(a, j)));
    expect(new Set(same.map((s) => s.amount))).toEqual(new Set([5]));
    expect(await wallet(a)).toMatchObject({ balance: 137, spendable: 97 });
  });

  it('wallet totals always equal the sums of their ledger rows and active holds', async () => {
    const rows = await ds.query(`
      SELECT w."account_id", w."balance_micro"::bigint AS balance, w."held_micro"::bigint AS held,
             coalesce((SELECT sum("balance_change_micro") FROM "billing"."ledger_entries" l WHERE l."account_id" = w."account_id"), 0)::bigint AS ledger_balance,
             coalesce((SELECT sum("held_change_micro") FROM "billing"."ledger_entries" l WHERE l."account_id" = w."account_id"), 0)::bigint AS ledger_held,
             coalesce((SELECT sum("amount_micro") FROM "billing"."holds" h WHERE h."account_id" = w."account_id" AND h."state" = 'held'), 0)::bigint AS active_holds
        FROM "billing"."wallets" w`);
    expect(rows.length).toBeGreaterThan(5);
    for (const r of rows) {
      expect({ balance: r.ledger_balance, held: r.ledger_held }).toEqual({ balance: r.balance, held: r.held });
      expect(r.active_holds).toBe(r.held);
    }
  });

  it('summarises usage: jobs by outcome, spend excludes in-flight holds', async () => {
    const a = acct();
    await open(a, 100);
    const [s1, s2, f1, c1, inflight, aborted] = [job(), job(), job(), job(), job(), job()];
    for (const j of [s1, s2, f1, c1, inflight, aborted]) await hold(a, j);
    await finished({ accountId: a, jobId: s1, status: 'success', pages: 2 });
    await finished({ accountId: a, jobId: s2, status: 'success', pages: 1.0 });
    await finished({ accountId: a, jobId: f1, status: 'failed' });
    await finished({ accountId: a, jobId: c1, status: 'cancelled' });
    await call(Subjects.billing.releaseHold, { accountId: a, jobId: aborted, reason: 'aborted' });
    await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 97, spendable: 92 }));

    const usage = await call<UsageSummaryResponseDto>(Subjects.billing.usage, { accountId: a, period: '7d' });
    expect(usage).toMatchObject({ period: '7d', total_jobs: 5, successful_jobs: 2, failed_jobs: 1, total_spend: 3 });
    const span = Date.parse(usage.period_end) - Date.parse(usage.period_start);
    expect(span).toBe(7 * 24 * 3600 * 1000);
    expect(await call(Subjects.billing.usage, { accountId: a })).toMatchObject({ period: '30d', total_jobs: 5 });
    expect(await call(Subjects.billing.usage, { accountId: acct(), period: '90d' })).toMatchObject({ total_jobs: 0, total_spend: 0 });
  });

  describe('billing.v1.hold.cover (confirm: the hold covers the stored object, ADR 0005)', () => {
    const cover = (accountId: string, jobId: string, artifactSize: number) =>
      call<PlaceHoldReply>(Subjects.billing.coverHold, { accountId, jobId, artifactSize });

    it("grows the hold to the real size's estimate, is idempotent and never shrinks it", async () => {
      const a = acct();
      await open(a, 20);
      const j = job();
      await hold(a, j);
      expect(await cover(a, j, 1_200_000)).toEqual({ jobId: j, amount: 12 });
      expect(await cover(a, j, 1_200_000)).toEqual({ jobId: j, amount: 12 });
      expect(await cover(a, j, SMALL)).toEqual({ jobId: j, amount: 12 });
      expect(await wallet(a)).toMatchObject({ balance: 20, spendable: 8 });
      expect(await holdRow(j)).toMatchObject({ amount_micro: '12000000', artifact_size: '1200000', estimated_pages: 12 });
    });

    it('402 when the wallet cannot cover the difference (or is frozen); nothing changes', async () => {
      const a = acct();
      await open(a, 10);
      const j = job();
      await hold(a, j);
      expect(await fail(Subjects.billing.coverHold, { accountId: a, jobId: j, artifactSize: 1_200_000 })).toMatchObject({
        code: 'insufficient_funds',
        status: 402,
        details: { required: 12, spendable: 5 },
      });
      await call(Subjects.billing.freeze, { accountId: a, reason: 'manual_freeze' });
      expect(await fail(Subjects.billing.coverHold, { accountId: a, jobId: j, artifactSize: 800_000 })).toMatchObject({
        code: 'wallet_frozen',
      });
      expect(await cover(a, j, SMALL)).toEqual({ jobId: j, amount: 5 }); // already covered: no money moves, frozen or not
      expect(await wallet(a)).toMatchObject({ balance: 10, spendable: 5 });
    });

    it('a straggler released `unconfirmed` is held again when confirmed later, and settles; one never confirmed ends `expired` without charge', async () => {
      const a = acct();
      await open(a, 20);
      const [late, never] = [job(), job()];
      await hold(a, late);
      await hold(a, never);
      for (const j of [late, never]) {
        expect(await call<ReleaseHoldReply>(Subjects.billing.releaseHold, { accountId: a, jobId: j, reason: 'unconfirmed' })).toMatchObject(
          { status: 'released' },
        );
      }
      expect(await wallet(a)).toMatchObject({ balance: 20, spendable: 20 });
      expect(await cover(a, late, SMALL)).toEqual({ jobId: late, amount: 5 });
      expect(await wallet(a)).toMatchObject({ spendable: 15 });
      await finished({ accountId: a, jobId: late, status: 'success', pages: 2 });
      await finished({ accountId: a, jobId: never, status: 'expired' });
      await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 18, spendable: 18 }));
      await expectEventually(async () => expect(await holdRow(never)).toMatchObject({ state: 'released', outcome: 'expired' }));
      expect(await fail(Subjects.billing.coverHold, { accountId: a, jobId: late, artifactSize: SMALL })).toMatchObject({
        code: 'conflict',
      });
    });
  });
  describe('billing.v1.hold.resize (the worker counted the pages, before reading; ADR 0005)', () => {
    const resize = (accountId: string, jobId: string, pages: number, partial = false) =>
      call<ResizeHoldReply>(Subjects.billing.resizeHold, { accountId, jobId, pages, partial });

    it('sets the hold to pages × price, both ways, idempotently; the charge then equals the pages read', async () => {
      const a = acct();
      await open(a, 40);
      const [j, k] = [job(), job()];
      await hold(a, j);
      await hold(a, k);
      expect(await resize(a, j, 30)).toEqual({ jobId: j, amount: 30, pages: 30 });
      expect(await resize(a, j, 30)).toEqual({ jobId: j, amount: 30, pages: 30 });
      expect(await resize(a, k, 2)).toEqual({ jobId: k, amount: 2, pages: 2 });
      expect(await wallet(a)).toMatchObject({ balance: 40, spendable: 8 });
      await finished({ accountId: a, jobId: j, status: 'success', pages: 30 });
      await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 10, spendable: 8 }));
    });

    it('402 insufficient_funds when hold + spendable cannot cover the pages; nothing changes, failure releases it all', async () => {
      const a = acct();
      await open(a, 5);
      const j = job();
      await hold(a, j);
      expect(await fail(Subjects.billing.resizeHold, { accountId: a, jobId: j, pages: 30, partial: false })).toMatchObject({
        code: 'insufficient_funds',
        status: 402,
        details: { required: 30, available: 5, pages: 30 },
      });
      expect(await holdRow(j)).toMatchObject({ state: 'held', amount_micro: '5000000' });
      await finished({ accountId: a, jobId: j, status: 'failed' });
      await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 5, spendable: 5 }));
    });

    it("partial: holds the whole pages the wallet covers (never another job's hold); none covered is still a 402", async () => {
      const a = acct();
      await open(a, 12);
      const [j, other] = [job(), job()];
      await hold(a, j);
      await hold(a, other);
      expect(await resize(a, j, 30, true)).toEqual({ jobId: j, amount: 7, pages: 7 });
      expect(await wallet(a)).toMatchObject({ balance: 12, spendable: 0 });
      await finished({ accountId: a, jobId: j, status: 'success', pages: 7 });
      await expectEventually(async () => expect(await wallet(a)).toMatchObject({ balance: 5, spendable: 0 }));
      await call(Subjects.billing.freeze, { accountId: a, reason: 'manual_freeze' });
      expect(await resize(a, other, 30, true)).toEqual({ jobId: other, amount: 5, pages: 5 }); // frozen: only its own hold
      expect(await fail(Subjects.billing.resizeHold, { accountId: a, jobId: other, pages: 30, partial: false })).toMatchObject({
        code: 'wallet_frozen',
      });
    });
  });
});
