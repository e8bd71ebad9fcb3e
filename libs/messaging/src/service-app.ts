import { Controller, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Transport, type MicroserviceOptions } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { queueGroup, Subjects, type ServiceName } from '@docket/contracts';
import { PinoNestLogger } from '@docket/config';
import type { Logger } from 'pino';
import type { NatsAuth } from './nats-auth.js';
import { RpcErrorFilter, rpcValidationPipe } from './rpc-server.js';

export type HealthCheck = () => Promise<unknown>;

export interface ServiceAppOptions {
  service: ServiceName;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: any;
  natsUrl: string;
  /** This service's NATS user (see `natsAuth`). */
  natsAuth?: NatsAuth;
  host: string;
  port: number;
  log: Logger;
  /** Named dependency probes for GET /health (database, queue, storage, …). */
  checks: Record<string, HealthCheck>;
}

/**
 * The one way an internal service starts: Nest on Fastify for `/health`, plus the NATS
 * request/reply server in the service's queue group with validation and the coded-error filter.
 */
export async function startServiceApp(o: ServiceAppOptions): Promise<INestApplication> {
  @Module({ imports: [o.module, healthRpcModule(o.service, o.checks)] })
  class ServiceRootModule {}
  const app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule, new FastifyAdapter(), {
    logger: new PinoNestLogger(o.log),
    bufferLogs: false,
  });
  app.enableShutdownHooks();
  // Hybrid app: pipes and filters are set on the app and inherited by the NATS server.
  app.useGlobalPipes(rpcValidationPipe());
  app.useGlobalFilters(new RpcErrorFilter(o.log));
  app.connectMicroservice<MicroserviceOptions>(
    {
      transport: Transport.NATS,
      options: { servers: [o.natsUrl], ...o.natsAuth, queue: queueGroup(o.service), name: o.service, maxReconnectAttempts: -1 },
    },
    { inheritAppConfig: true },
  );
  registerHealthRoute(app, o.service, o.checks);
  await app.startAllMicroservices();
  await app.listen(o.port, o.host);
  o.log.info({ port: o.port }, `${o.service} listening`);
  return app;
}

export function registerHealthRoute(app: INestApplication, service: string, checks: Record<string, HealthCheck>): void {
  const fastify = (app as NestFastifyApplication).getHttpAdapter().getInstance();
  fastify.get('/health', async (_req, reply) => {
    const report = await runChecks(checks);
    const healthy = Object.values(report).every((c) => c.status === 'up');
    reply
      .code(healthy ? 200 : 503)
      .send({ status: healthy ? 'ok' : 'degraded', service, timestamp: new Date().toISOString(), checks: report });
  });
}

export async function runChecks(
  checks: Record<string, HealthCheck>,
  timeoutMs = 2000,
): Promise<Record<string, { status: 'up' | 'down'; latency_ms: number; error?: string }>> {
  const entries = await Promise.all(
    Object.entries(checks).map(async ([name, check]) => {
      const start = performance.now();
      try {
        await Promise.race([check(), new Promise((_, rej) => setTimeout(() => rej(new Error('timed out')), timeoutMs).unref())]);
        return [name, { status: 'up' as const, latency_ms: Math.round(performance.now() - start) }] as const;
      } catch (err) {
        return [
          name,
          { status: 'down' as const, latency_ms: Math.round(performance.now() - start), error: (err as Error).message },
        ] as const;
      }
    }),
  );
  return Object.fromEntries(entries);
}

/** Answers `health.v1.<service>.ping` so the gateway's /health can report every dependency. */
export function healthRpcModule(service: ServiceName, checks: Record<string, HealthCheck>) {
  @Controller()
  class HealthPingHandler {
    @MessagePattern(Subjects.health.ping(service))
    async ping() {
      return { service, checks: await runChecks(checks) };
    }
  }
  @Module({ controllers: [HealthPingHandler] })
  class HealthRpcModule {}
  return HealthRpcModule;
}

export type HealthReport = Awaited<ReturnType<typeof runChecks>>;
