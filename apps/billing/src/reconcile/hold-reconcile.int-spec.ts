import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Controller, Module, type INestApplication } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { JobRef, Subjects, type JobSettlementReply, type PlaceHoldReply, type WalletStatusResponseDto } from '@docket/contracts';
import { RpcClient, startServiceApp } from '@docket/messaging';
import { createTestDatabase, freePort, startTestNats, testLogger, type TestDatabase, type TestNats } from '@docket/testing';
import { ulid } from 'ulid';
import { bootstrap } from '../bootstrap.js';
import { HoldReconcileSweep } from './hold-reconcile.sweep.js';

jest.setTimeout(60_000);

/** Stand-in `artifact`: answers the reconciliation's question from this table (absent = no such job). */
const jobs = new Map<string, JobSettlementReply>();
@Controller()
class ArtifactStandIn {
  @MessagePattern(Subjects.artifact.jobSettlement)
  settlement(@Payload() ref: JobRef): JobSettlementReply {
    return jobs.get(ref.jobId) ?? { exists: false, terminal: false, pages: 0 };
  }
}
@Module({ controllers: [ArtifactStandIn] })
class ArtifactStandInModule {}

/** Far enough ahead that every hold placed by this test is old enough to be reconciled. */
const LATER = () => new Date(Date.now() + 2 * 3600_000);

describe('billing hold reconciliation (real Postgres + NATS)', () => {
  let db: TestDatabase;
  let nats: TestNats;
  let artifact: INestApplication;
  let service: Awaited<ReturnType<typeof bootstrap>>;
  let rpc: RpcClient;
  const accountId = `acct_${ulid().toLowerCase()}`;
  const wallet = () => rpc.request<WalletStatusResponseDto>(Subjects.billing.getWallet, { accountId });
  const hold = (jobId: string) =>
    rpc.request<PlaceHoldReply>(Subjects.billing.placeHold, {
      accountId,
      jobId,
      sandbox: false,
      artifactSize: 1_000,
      mimeType: 'application/pdf',
    });

  beforeAll(async () => {
    [db, nats] = await Promise.all([createTestDatabase('billing_reconcile_t'), startTestNats()]);
    artifact = await startServiceApp({
      service: 'artifact',
      module: ArtifactStandInModule,
      natsUrl: nats.url,
      host: '127.0.0.1',
      port: await freePort(),
      log: testLogger(),
      checks: {},
    });
    service = await bootstrap({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      HOLD_RECONCILE_SWEEP_MS: '3600000', // the test runs the passes itself
    });
    rpc = new RpcClient({ natsUrl: nats.url, name: 'reconcile-test', timeoutMs: 10_000 });
    await rpc.connect();
    await rpc.request(Subjects.billing.openWallet, { accountId, initialCredits: 100 });
  });

  afterAll(async () => {
    await rpc?.close();
    await service?.close();
    await artifact?.close();
    await nats?.close();
    await db?.drop();
  });

  it('settles the holds of finished jobs whose event never arrived, releases those of vanished jobs, keeps live ones', async () => {
    const [succeeded, failed, gone, running] = ['ok', 'failed', 'gone', 'running'].map((k) => `job_${k}_${ulid().toLowerCase()}`) as [
      string,
      string,
      string,
      string,
    ];
    for (const j of [succeeded, failed, gone, running]) await hold(j);
    jobs.set(succeeded, { exists: true, status: 'success', terminal: true, pages: 2 });
    jobs.set(failed, { exists: true, status: 'failed', terminal: true, pages: 0 });
    jobs.set(running, { exists: true, status: 'running', terminal: false, pages: 0 });
    expect(await wallet()).toMatchObject({ balance: 100, spendable: 80 }); // four holds of 5 credits

    const sweep = service.app.get(HoldReconcileSweep);
    expect(await sweep.sweep(new Date())).toBe(0); // holds younger than HOLD_RECONCILE_AFTER_MS are left to their events
    expect(await sweep.sweep(LATER())).toBe(3);
    expect(sweep.counters).toEqual({ charged: 1, released: 2 });
    // Charged 2 pages for the success; the running job's hold (5) is still held.
    expect(await wallet()).toMatchObject({ balance: 98, spendable: 93 });

    // Idempotent: a second pass (or the late job-finished event) changes nothing.
    expect(await sweep.sweep(LATER())).toBe(0);
    expect(await wallet()).toMatchObject({ balance: 98, spendable: 93 });

    jobs.set(running, { exists: true, status: 'expired', terminal: true, pages: 0 });
    expect(await sweep.sweep(LATER())).toBe(1);
    expect(await wallet()).toMatchObject({ balance: 98, spendable: 98 });
  });
});
