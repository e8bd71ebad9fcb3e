import type { INestApplication } from '@nestjs/common';
import { Streams, type JobFinishedEvent, type JobRunMessage } from '@docket/contracts';
import type { DocketError } from '@docket/errors';
import { JetStreamBus, RpcClient, startServiceApp } from '@docket/messaging';
import {
  createTestDatabase,
  freePort,
  rejectionOf,
  startTestNats,
  startTestS3,
  testLogger,
  type TestDatabase,
  type TestNats,
  type TestS3,
} from '@docket/testing';
import { bootstrap } from '../bootstrap.js';

/** A running artifact service on real Postgres, NATS JetStream and S3, with its neighbours stood in. */
export interface ArtifactHarness {
  /** The artifact service's Nest application (e.g. `app.get(SomeSweep).sweep(now)`). */
  app: INestApplication;
  db: TestDatabase;
  nats: TestNats;
  s3: TestS3;
  /** What the outbox published to the worker's queue and to the event stream. */
  runs: JobRunMessage[];
  finished: JobFinishedEvent[];
  call<T>(subject: string, payload: object): Promise<T>;
  fail(subject: string, payload: object): Promise<DocketError>;
  close(): Promise<void>;
}

/**
 * Starts Postgres (a fresh database named after `name`), NATS, S3, the stand-in neighbours (`standIns`, a Nest
 * module of real NATS responders), the artifact service itself (`env` added to its test environment), an RPC
 * client and consumers standing in for the worker's queue and the event consumers. `close` stops all of it,
 * whatever part failed to start.
 */
export async function startArtifactHarness(
  name: string,
  standIns: new () => unknown,
  env: Record<string, string> = {},
): Promise<ArtifactHarness> {
  const parts: { close(): Promise<unknown> | unknown }[] = [];
  const close = async () => {
    for (const p of parts.reverse()) await p.close();
  };
  try {
    const [db, nats, s3] = await Promise.all([createTestDatabase(`${name}_t`), startTestNats(), startTestS3()]);
    parts.push({ close: () => db.drop() }, nats, s3);
    const log = testLogger();
    const neighbours: INestApplication = await startServiceApp({
      service: 'billing',
      module: standIns,
      natsUrl: nats.url,
      host: '127.0.0.1',
      port: await freePort(),
      log,
      checks: {},
    });
    parts.push(neighbours);
    const service = await bootstrap({
      DATABASE_URL: db.url,
      NATS_URL: nats.url,
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      ...s3.env,
      ...env,
    });
    parts.push(service);
    const rpc = new RpcClient({ natsUrl: nats.url, name: `${name}-test`, timeoutMs: 10_000 });
    await rpc.connect();
    parts.push(rpc);
    const bus = new JetStreamBus(nats.url, log, `${name}-test`);
    await bus.connect();
    parts.push(bus);
    const runs: JobRunMessage[] = [];
    const finished: JobFinishedEvent[] = [];
    await bus.consume<JobRunMessage>({
      stream: Streams.jobs.name,
      durable: 'test-worker',
      filterSubject: Streams.jobs.run,
      ackWaitMs: 30_000,
      maxDeliver: 1,
      concurrency: 10,
      handler: async (m) => {
        runs.push(m);
        return { ack: true };
      },
    });
    await bus.consume<JobFinishedEvent>({
      stream: Streams.events.name,
      durable: 'test-events',
      filterSubject: Streams.events.jobFinished,
      ackWaitMs: 30_000,
      maxDeliver: 1,
      concurrency: 10,
      handler: async (e) => {
        finished.push(e);
        return { ack: true };
      },
    });
    return {
      db,
      nats,
      s3,
      runs,
      finished,
      close,
      app: service.app,
      call: <T>(subject: string, payload: object) => rpc.request<T>(subject, payload),
      fail: (subject: string, payload: object) => rejectionOf<DocketError>(rpc.request(subject, payload), subject),
    };
  } catch (e) {
    await close();
    throw e;
  }
}
