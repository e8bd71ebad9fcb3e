import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Controller, Get, Inject, Module } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { createLogger } from '@docket/config';
import { expectEventually, freePort, startTestNats, type TestNats } from '@docket/testing';
import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { bootService, RpcClient, type ServiceHandle } from './index.js';

const LOG = Symbol('log');
const SUBJECT = 'test.v1.logging.lookup';

@Controller()
class LookupHandler {
  constructor(@Inject(LOG) private readonly log: Logger) {}
  @MessagePattern(SUBJECT)
  lookup() {
    this.log.info({ secret: 'sk-should-not-appear', authorization: 'Basic c2hvdWxkLW5vdA==' }, 'lookup handled');
    return { ok: true };
  }
}

@Controller()
class HelloController {
  constructor(
    @Inject(LOG) private readonly log: Logger,
    @Inject(RpcClient) private readonly rpc: RpcClient,
  ) {}
  @Get('hello')
  async hello() {
    this.log.info('hello received');
    return this.rpc.request(SUBJECT, {});
  }
}

/** Every log line of a request, in both services it crosses, carries its request id; secrets never appear. */
describe('logs (nestjs-pino + the request context)', () => {
  let nats: TestNats;
  let rpc: RpcClient;
  let svc: ServiceHandle;
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      done();
    },
  });

  beforeAll(async () => {
    nats = await startTestNats();
    const log = createLogger('template', 'info', sink);
    rpc = new RpcClient({ natsUrl: nats.url, name: 'logging-test', timeoutMs: 3000 });
    await rpc.connect();
    @Module({
      controllers: [LookupHandler, HelloController],
      providers: [
        { provide: LOG, useValue: log },
        { provide: RpcClient, useValue: rpc },
      ],
    })
    class TestModule {}
    svc = await bootService({
      service: 'template',
      host: '127.0.0.1',
      port: await freePort(),
      log,
      nats: { url: nats.url },
      build: async () => ({ module: TestModule, checks: {} }),
    });
  });

  afterAll(async () => {
    await svc?.close();
    await rpc?.close();
    await nats?.close();
  });

  it('puts the request id on every line of the HTTP request and of the NATS request it makes, and redacts secrets', async () => {
    const res = await fetch(`${svc.url}/hello`, { headers: { 'x-request-id': 'req-logging-test-1' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    const requestId = 'req-logging-test-1';
    await expectEventually(() => expect(lines.some((l) => l.msg === 'request' && l.request_id === requestId)).toBe(true));
    const mine = lines.filter((l) => l.request_id === requestId);
    expect(mine.map((l) => l.msg)).toEqual(expect.arrayContaining(['hello received', 'lookup handled', 'request']));
    const lookup = mine.find((l) => l.msg === 'lookup handled')!;
    expect(lookup).toMatchObject({ secret: '[redacted]', authorization: '[redacted]' });
    expect(JSON.stringify(lines)).not.toContain('sk-should-not-appear');
    expect(mine.find((l) => l.msg === 'request')).toMatchObject({ req: { method: 'GET', url: '/hello' }, res: { status: 200 } });
  });
});
