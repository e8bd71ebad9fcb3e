import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Subjects, type PlaceBatchHoldReply, type WalletStatusResponseDto } from '@docket/contracts';
import type { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import { createTestDatabase, freePort, rejectionOf, startTestNats, type TestDatabase, type TestNats } from '@docket/testing';
import pg from 'pg';
import { ulid } from 'ulid';
import { bootstrap } from '../bootstrap.js';

// Defaults: 1 credit per page, at least 5 pages per hold → a small file holds 5 credits.
const SMALL = 1_000;
jest.setTimeout(60_000);

const acct = () => `acct_${ulid().toLowerCase()}`;
const job = () => `job_${ulid().toLowerCase()}`;

describe('billing: atomic batch holds (billing.v1.hold.place-batch)', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let service: Awaited<ReturnType<typeof bootstrap>>;
  let rpc: RpcClient;
  let client: pg.Client;

  const call = <T>(subject: string, payload: object) => rpc.request<T>(subject, payload);
  const fail = (subject: string, payload: object) => rejectionOf<DocketError>(rpc.request(subject, payload), subject);
  const wallet = (accountId: string) => call<WalletStatusResponseDto>(Subjects.billing.getWallet, { accountId });
  const items = (n: number) => Array.from({ length: n }, () => ({ jobId: job(), artifactSize: SMALL, mimeType: 'application/pdf' }));
  const batch = (accountId: string, its: ReturnType<typeof items>, sandbox = false) =>
    call<PlaceBatchHoldReply>(Subjects.billing.placeBatchHold, { accountId, sandbox, items: its });
  const holdCount = async (accountId: string) =>
    Number((await client.query(`SELECT count(*) AS n FROM "billing"."holds" WHERE "account_id" = $1`, [accountId])).rows[0].n);

  beforeAll(async () => {
    [db, nats] = await Promise.all([createTestDatabase('billing_batch_t'), startTestNats()]);
    service = await bootstrap({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
    });
    rpc = new RpcClient({ natsUrl: nats.url, name: 'billing-batch-test', timeoutMs: 10_000 });
    await rpc.connect();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await rpc?.close();
    await service?.close();
    await nats?.close();
    await db?.drop();
  });

  it('holds every job of the batch at once and is idempotent per job', async () => {
    const a = acct();
    await call(Subjects.billing.openWallet, { accountId: a, initialCredits: 100 });
    const its = items(3);
    const reply = await batch(a, its);
    expect(reply).toEqual({ holds: its.map((i) => ({ jobId: i.jobId, amount: 5 })), total: 15 });
    expect(await wallet(a)).toMatchObject({ balance: 100, spendable: 85 });
    // A retry (same jobs plus one new) holds only the new one.
    const more = [...its, ...items(1)];
    expect((await batch(a, more)).total).toBe(20);
    expect(await wallet(a)).toMatchObject({ spendable: 80 });
    expect(await holdCount(a)).toBe(4);
    // Single-job release still works on batch holds.
    await call(Subjects.billing.releaseHold, { accountId: a, jobId: its[0].jobId, reason: 'expired' });
    expect(await wallet(a)).toMatchObject({ spendable: 85 });
  });

  it('is all or nothing: short by one file → 402, nothing held', async () => {
    const a = acct();
    await call(Subjects.billing.openWallet, { accountId: a, initialCredits: 14 });
    const err = await fail(Subjects.billing.placeBatchHold, { accountId: a, sandbox: false, items: items(3) });
    expect(err).toMatchObject({ code: 'insufficient_funds', details: { required: 15, spendable: 14, files: 3 } });
    expect(await holdCount(a)).toBe(0);
    expect(await wallet(a)).toMatchObject({ balance: 14, spendable: 14 });
  });

  it('frozen wallet → 402 wallet_frozen, sandbox too; sandbox holds nothing otherwise', async () => {
    const a = acct();
    await call(Subjects.billing.openWallet, { accountId: a, initialCredits: 0 });
    expect(await batch(a, items(2), true)).toMatchObject({ total: 0 });
    await call(Subjects.billing.freeze, { accountId: a, reason: 'manual_freeze' });
    expect(await fail(Subjects.billing.placeBatchHold, { accountId: a, sandbox: true, items: items(2) })).toMatchObject({
      code: 'wallet_frozen',
    });
    expect(await fail(Subjects.billing.placeBatchHold, { accountId: a, sandbox: false, items: items(2) })).toMatchObject({
      code: 'wallet_frozen',
    });
    expect(await holdCount(a)).toBe(2);
  });

  it('rejects empty, over-50 and duplicate-job batches', async () => {
    const a = acct();
    await call(Subjects.billing.openWallet, { accountId: a, initialCredits: 1000 });
    expect(await fail(Subjects.billing.placeBatchHold, { accountId: a, sandbox: false, items: [] })).toMatchObject({
      code: 'invalid_payload',
    });
    expect(await fail(Subjects.billing.placeBatchHold, { accountId: a, sandbox: false, items: items(51) })).toMatchObject({
      code: 'invalid_payload',
    });
    const one = items(1)[0];
    expect(await fail(Subjects.billing.placeBatchHold, { accountId: a, sandbox: false, items: [one, one] })).toMatchObject({
      code: 'validation_failed',
    });
    expect(await holdCount(a)).toBe(0);
  });

  it('concurrent batches of one account never overdraw: with room for 2 of 6 batches, exactly 2 succeed in full', async () => {
    const a = acct();
    await call(Subjects.billing.openWallet, { accountId: a, initialCredits: 30 }); // 2 batches × 3 files × 5 credits
    const batches = Array.from({ length: 6 }, () => items(3));
    const results = await Promise.allSettled(batches.map((b) => batch(a, b)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(2);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'insufficient_funds' });
    expect(await holdCount(a)).toBe(6); // whole batches only
    expect(await wallet(a)).toMatchObject({ balance: 30, spendable: 0 });
    // Ledger agrees with the wallet.
    const { rows } = await client.query(`SELECT sum("held_change_micro") AS held FROM "billing"."ledger_entries" WHERE "account_id" = $1`, [
      a,
    ]);
    expect(Number(rows[0].held)).toBe(30_000_000);
  });
});
