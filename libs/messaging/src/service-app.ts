import { Controller, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern } from '@nestjs/microservices';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Subjects, type ServiceName } from '@docket/contracts';
import { Logger as NestPinoLogger } from 'nestjs-pino';
import type { Logger } from 'pino';
import { httpLoggingModule, requestIdFrom, RpcRequestContextInterceptor } from './logging.js';
import { instrumentHttp } from './http-instrumentation.js';
import { metricsModule } from './metrics.js';
import { startTracing } from './tracing.js';
import type { NatsAuth } from './nats-auth.js';
import { probesModule, PROBE_TIMEOUT_MS, type HealthCheck } from './probes.js';
import { Resources } from './resources.js';
import { connectNatsMicroservice, RpcErrorFilter, rpcValidationPipe } from './rpc-server.js';

export type { HealthCheck } from './probes.js';

/** What a service's own bootstrap contributes; everything else is the same for all six. */
export interface ServiceParts {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: any;
  /** Its own dependencies, with a real round trip each: `/readyz` and the `health.v1.<service>.ping` reply. */
  checks: Record<string, HealthCheck>;
  /** After the app listens: consumers, sweeps (register their stop with `resources.defer`). */
  afterStart?: (app: INestApplication, resources: Resources) => Promise<void> | void;
}

export interface ServiceDefinition {
  service: ServiceName;
  host: string;
  port: number;
  log: Logger;
  /** The NATS request/reply server in the service's queue group; absent for the gateway (HTTP only). */
  nats?: { url: string; auth?: NatsAuth };
  /** The HTTP side: Fastify adapter options and app setup before listening (the gateway's public API). */
  http?: {
    adapter?: FastifyAdapter;
    configure?: (app: NestFastifyApplication) => Promise<void> | void;
  };
  /** Opens the service's resources (register each with `resources.add`) and names its module and checks. */
  build(resources: Resources): Promise<ServiceParts>;
}

export interface ServiceHandle {
  app: INestApplication;
  /** Where the HTTP server listens. */
  url: string;
  /** Closes everything the service opened, in reverse order; safe to call twice. */
  close(): Promise<void>;
}

/**
 * The one way a service starts: its resources, then Nest on Fastify with `/livez`, `/readyz` and (for the
 * internal services) the NATS request/reply server with validation and the coded-error filter. A failed
 * start closes what was opened, through the same path as a shutdown.
 */
export async function bootService(def: ServiceDefinition): Promise<ServiceHandle> {
  const resources = new Resources(def.log);
  try {
    const stopTracing = await startTracing(def.service, def.log);
    if (stopTracing) resources.defer('tracing', stopTracing);
    const parts = await def.build(resources);
    const app = resources.add('http', await createApp(def, parts), (a) => a.close());
    await app.listen(def.port, def.host);
    const address = app.getHttpServer().address() as { port: number } | null;
    const url = `http://${def.host === '0.0.0.0' ? '127.0.0.1' : def.host}:${address?.port ?? def.port}`;
    def.log.info({ url }, `${def.service} listening`);
    await parts.afterStart?.(app, resources);
    let closing: Promise<void> | undefined;
    return { app, url, close: () => (closing ??= resources.closeAll()) };
  } catch (err) {
    await resources.closeAll();
    throw err;
  }
}

async function createApp(def: ServiceDefinition, parts: ServiceParts): Promise<NestFastifyApplication> {
  const imports = [httpLoggingModule(def.log), parts.module, probesModule(parts.checks), metricsModule()];
  if (def.nats) imports.push(healthRpcModule(def.service, parts.checks));
  @Module({ imports })
  class ServiceRootModule {}
  const app = await NestFactory.create<NestFastifyApplication>(ServiceRootModule, def.http?.adapter ?? defaultAdapter(), {
    bufferLogs: true,
  });
  app.useLogger(app.get(NestPinoLogger));
  app.enableShutdownHooks();
  instrumentHttp(app.getHttpAdapter().getInstance(), def.service);
  if (def.nats) {
    // Hybrid app: pipes, filters and interceptors are set on the app and inherited by the NATS server.
    app.useGlobalPipes(rpcValidationPipe());
    app.useGlobalFilters(new RpcErrorFilter(def.log));
    app.useGlobalInterceptors(new RpcRequestContextInterceptor(def.service));
    connectNatsMicroservice(app, def.service, def.nats.url, def.nats.auth);
  }
  await def.http?.configure?.(app);
  await app.startAllMicroservices();
  return app;
}

function defaultAdapter(): FastifyAdapter {
  return new FastifyAdapter({
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => requestIdFrom(req.headers['x-request-id']),
  });
}

export interface ServiceAppOptions {
  service: ServiceName;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  module: any;
  natsUrl: string;
  natsAuth?: NatsAuth;
  host: string;
  port: number;
  log: Logger;
  checks: Record<string, HealthCheck>;
}

/** A service made of a module and checks only, nothing else to open or close (stand-ins in tests). */
export async function startServiceApp(o: ServiceAppOptions): Promise<INestApplication> {
  const handle = await bootService({
    service: o.service,
    host: o.host,
    port: o.port,
    log: o.log,
    nats: { url: o.natsUrl, auth: o.natsAuth },
    build: async () => ({ module: o.module, checks: o.checks }),
  });
  return handle.app;
}

export async function runChecks(
  checks: Record<string, HealthCheck>,
  timeoutMs = PROBE_TIMEOUT_MS,
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

/** Answers `health.v1.<service>.ping` so the gateway's /api/v1/health can report every dependency. */
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
