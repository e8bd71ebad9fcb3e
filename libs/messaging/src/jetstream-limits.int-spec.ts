import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Streams } from '@docket/contracts';
import { startTestNats, testLogger, type TestNats } from '@docket/testing';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { DEFAULT_STREAM_LIMITS, JetStreamBus } from './index.js';

/** Stream limits come from configuration, and a stream made earlier is brought to them at start. */
describe('JetStream stream limits', () => {
  let nats: TestNats;
  let nc: NatsConnection;

  beforeAll(async () => {
    nats = await startTestNats();
    nc = await connect({ servers: [nats.url] });
  });

  afterAll(async () => {
    await nc?.close();
    await nats?.close();
  });

  const info = async (name: string) => (await (await jetstreamManager(nc)).streams.info(name)).config;

  it('creates both streams with the configured replicas, max_bytes, max_age and discard-new', async () => {
    const bus = new JetStreamBus(nats.url, testLogger(), 'limits-a');
    await bus.connect();
    await bus.close();
    const jobs = await info(Streams.jobs.name);
    expect(jobs).toMatchObject({
      num_replicas: 1,
      max_bytes: DEFAULT_STREAM_LIMITS.JETSTREAM_JOBS_MAX_BYTES,
      max_age: nanos(DEFAULT_STREAM_LIMITS.JETSTREAM_JOBS_MAX_AGE_MS),
      discard: 'new',
    });
    expect((await info(Streams.events.name)).max_bytes).toBe(DEFAULT_STREAM_LIMITS.JETSTREAM_EVENTS_MAX_BYTES);
  });

  it('updates an existing stream to new limits when a service starts with them', async () => {
    const limits = {
      ...DEFAULT_STREAM_LIMITS,
      JETSTREAM_JOBS_MAX_BYTES: 64 * 1024 ** 2,
      JETSTREAM_EVENTS_MAX_AGE_MS: 3 * 24 * 3600 * 1000,
    };
    const bus = new JetStreamBus(nats.url, testLogger(), 'limits-b', {}, limits);
    await bus.connect();
    await bus.close();
    expect(await info(Streams.jobs.name)).toMatchObject({ max_bytes: 64 * 1024 ** 2, retention: 'workqueue' });
    expect(await info(Streams.events.name)).toMatchObject({ max_age: nanos(3 * 24 * 3600 * 1000), retention: 'limits' });
  });
});
