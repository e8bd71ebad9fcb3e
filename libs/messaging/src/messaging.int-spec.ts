import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Module, type INestApplication } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { IsInt, Min } from 'class-validator';
import { DocketError } from '@docket/errors';
import { Streams } from '@docket/contracts';
import { expectEventually, freePort, startTestNats, testLogger, type TestNats } from '@docket/testing';
import { JetStreamBus, RpcClient, startServiceApp } from './index.js';

class EchoCommand {
  @IsInt() @Min(1) n: number;
}

@Controller()
class EchoHandler {
  @MessagePattern('test.v1.echo')
  echo(@Payload() cmd: EchoCommand) {
    if (cmd.n === 13) throw new DocketError('not_found', 'unlucky');
    if (cmd.n === 14) throw new Error('boom with secrets');
    return { doubled: cmd.n * 2, isInstance: cmd instanceof EchoCommand };
  }
}

@Module({ controllers: [EchoHandler] })
class EchoModule {}

describe('messaging over a real NATS server', () => {
  let nats: TestNats;
  let app: INestApplication;
  let client: RpcClient;
  const log = testLogger();

  beforeAll(async () => {
    nats = await startTestNats();
    app = await startServiceApp({
      service: 'template',
      module: EchoModule,
      natsUrl: nats.url,
      host: '127.0.0.1',
      port: await freePort(),
      log,
      checks: {},
    });
    client = new RpcClient({ natsUrl: nats.url, name: 'test', timeoutMs: 3000 });
    await client.connect();
  });

  afterAll(async () => {
    await client?.close();
    await app?.close();
    await nats?.close();
  });

  it('validates and transforms payloads, and replies', async () => {
    await expect(client.request('test.v1.echo', { n: 2 })).resolves.toEqual({ doubled: 4, isInstance: true });
  });

  it('carries coded errors, rejects invalid payloads, hides unexpected errors', async () => {
    await expect(client.request('test.v1.echo', { n: 13 })).rejects.toMatchObject({ code: 'not_found', message: 'unlucky' });
    await expect(client.request('test.v1.echo', { n: 0 })).rejects.toMatchObject({ code: 'invalid_payload' });
    await expect(client.request('test.v1.echo', { n: 14 })).rejects.toMatchObject({ code: 'internal_error', message: 'Internal error' });
  });

  it('maps a subject nobody serves to service_unavailable or a timeout', async () => {
    const err = await client.request('test.v1.nobody', {}, 1500).catch((e: DocketError) => e);
    expect(['service_unavailable', 'upstream_timeout']).toContain((err as DocketError).code);
  });

  it('delivers JetStream work with dedupe by message id and redelivery on retry', async () => {
    const bus = new JetStreamBus(nats.url, log, 'test');
    await bus.connect();
    const seen: { id: string; delivery: number }[] = [];
    await bus.consume<{ id: string }>({
      stream: 'JOBS',
      durable: 'test-worker',
      filterSubject: Streams.jobs.run,
      ackWaitMs: 5000,
      maxDeliver: 3,
      handler: async (data, ctx) => {
        seen.push({ id: data.id, delivery: ctx.deliveryCount });
        return ctx.deliveryCount === 1 && data.id === 'b' ? { retryInMs: 10 } : { ack: true };
      },
    });
    await bus.publish(Streams.jobs.run, { id: 'a' }, 'msg-a');
    await bus.publish(Streams.jobs.run, { id: 'a' }, 'msg-a');
    await bus.publish(Streams.jobs.run, { id: 'b' }, 'msg-b');
    await expectEventually(() =>
      expect(seen).toEqual(
        expect.arrayContaining([
          { id: 'a', delivery: 1 },
          { id: 'b', delivery: 2 },
        ]),
      ),
    );
    expect(seen.filter((s) => s.id === 'a')).toHaveLength(1);
    await bus.close();
  });

  it('works on at most `concurrency` messages at once, and hands every message over exactly once', async () => {
    const bus = new JetStreamBus(nats.url, log, 'test-slots');
    await bus.connect();
    let running = 0;
    let peak = 0;
    const done: string[] = [];
    await bus.consume<{ id: string }>({
      stream: Streams.events.name,
      durable: 'test-slots',
      filterSubject: Streams.events.jobFinished,
      ackWaitMs: 5000,
      maxDeliver: 3,
      concurrency: 2,
      handler: async (data) => {
        running++;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 30));
        running--;
        done.push(data.id);
        return { ack: true };
      },
    });
    const ids = Array.from({ length: 8 }, (_, i) => `slot-${i}`);
    for (const id of ids) await bus.publish(Streams.events.jobFinished, { id }, `msg-${id}`);
    await expectEventually(() => expect([...done].sort()).toEqual([...ids].sort()));
    expect(peak).toBe(2);
    await bus.close();
  });

  it('on close with a grace period: stops pulling, naks work still in hand, and another consumer gets it at once', async () => {
    const stopping = new JetStreamBus(nats.url, log, 'test-grace-a');
    await stopping.connect();
    const started: string[] = [];
    await stopping.consume<{ id: string }>({
      stream: Streams.events.name,
      durable: 'test-grace',
      filterSubject: Streams.events.jobFinished,
      ackWaitMs: 60_000,
      maxDeliver: -1,
      handler: async (data) => {
        if (data.id !== 'long') return { ack: true }; // earlier tests' events on this stream
        started.push(data.id);
        return new Promise(() => undefined); // a job longer than the grace period
      },
    });
    await stopping.publish(Streams.events.jobFinished, { id: 'long' }, 'msg-grace-long');
    await expectEventually(() => expect(started).toEqual(['long']));
    await stopping.close(200);

    // Redelivered long before its 60 s ack wait: the grace period's nak handed it back.
    const next = new JetStreamBus(nats.url, log, 'test-grace-b');
    await next.connect();
    const seen: { id: string; delivery: number }[] = [];
    await next.consume<{ id: string }>({
      stream: Streams.events.name,
      durable: 'test-grace',
      filterSubject: Streams.events.jobFinished,
      ackWaitMs: 60_000,
      maxDeliver: -1,
      handler: async (data, ctx) => {
        seen.push({ id: data.id, delivery: ctx.deliveryCount });
        return { ack: true };
      },
    });
    await expectEventually(() => expect(seen).toEqual([{ id: 'long', delivery: 2 }]));
    await next.close();
  });
});
