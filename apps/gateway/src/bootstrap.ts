import 'reflect-metadata';
import multipart from '@fastify/multipart';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger, loadConfig, PinoNestLogger } from '@docket/config';
import { openServiceDatabase } from '@docket/database';
import { registerHealthRoute, requestContext, RpcClient, natsAuth } from '@docket/messaging';
import { GatewayModule } from './app.module.js';
import { gatewayEnvSchema } from './config.js';
import { HttpExceptionFilter, sendError } from './http/http-exception.filter.js';
import { JSON_BODY_LIMIT_BYTES, useJsonBodyParser } from './http/json-body.js';
import { requestIdFrom } from './http/request-id.js';
import { serveDashboard } from './http/dashboard.js';
import { setupSwagger } from './http/swagger.js';
import { httpValidationPipe } from './http/validation.js';
import { IDENTITY_SCHEMA, identityEntities } from './identity/index.js';
import { gatewayMigrations } from './migrations/index.js';
import { LlmsTxtService } from './system/llms-txt.service.js';

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: IDENTITY_SCHEMA, entities: identityEntities, migrations: gatewayMigrations };

export async function bootstrap(
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ app: INestApplication; url: string; close(): Promise<void> }> {
  const cfg = loadConfig(gatewayEnvSchema, env);
  const log = createLogger('gateway', cfg.LOG_LEVEL);
  const ds = await openServiceDatabase(cfg, DATABASE);
  const rpc = new RpcClient({ natsUrl: cfg.NATS_URL, auth: natsAuth(cfg), name: 'gateway', timeoutMs: cfg.RPC_TIMEOUT_MS });
  await rpc.connect();

  const adapter = new FastifyAdapter({
    routerOptions: { ignoreTrailingSlash: true },
    bodyLimit: JSON_BODY_LIMIT_BYTES,
    // The router's own refusals (over-long path parameter, malformed URL) get the one envelope too.
    frameworkErrors: (err: Error, req: FastifyRequest, reply: FastifyReply) => sendError(reply, req, err, log),
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => requestIdFrom(req.headers['x-request-id']),
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.register({ ds, rpc, cfg, log }), adapter, {
    logger: new PinoNestLogger(log),
  });
  app.enableShutdownHooks();
  useJsonBodyParser(app);
  app.setGlobalPrefix('api/v1');
  app.useGlobalPipes(httpValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter(log));

  const fastify = app.getHttpAdapter().getInstance();
  // multipart/form-data for POST /artifacts/upload only (adds req.parts(); JSON routes are unaffected).
  await fastify.register(multipart, { limits: { fileSize: cfg.DIRECT_UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
  await serveDashboard(fastify, cfg.DASHBOARD_DIR, log);
  // Every NATS request made while serving this HTTP request carries its id (see RpcClient).
  fastify.addHook('onRequest', (req, _reply, done) => requestContext.run({ requestId: String(req.id) }, done));
  fastify.addHook('onSend', async (req, reply) => {
    void reply.header('x-request-id', req.id);
  });
  fastify.addHook('onResponse', async (req, reply) => {
    log.info(
      {
        request_id: req.id,
        method: req.method,
        route: req.routeOptions?.url ?? req.url.split('?')[0],
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
  });
  // Errors Fastify raises before Nest routes the request (malformed JSON, wrong content type) get the same envelope.
  fastify.setErrorHandler((err, req, reply) => sendError(reply, req, err, log));

  // Readiness of this process alone (k8s): its database and its NATS connection. The public
  // /api/v1/health aggregates every service and is for people and monitors.
  registerHealthRoute(app, 'gateway', { database: () => ds.query('SELECT 1'), queue: () => rpc.ping() });

  const document = setupSwagger(app);
  app.get(LlmsTxtService).setDocument(document);

  await app.listen(cfg.PORT, cfg.HOST);
  const address = app.getHttpServer().address() as { port: number } | null;
  const url = `http://${cfg.HOST === '0.0.0.0' ? '127.0.0.1' : cfg.HOST}:${address?.port ?? cfg.PORT}`;
  log.info({ url }, 'gateway listening');

  return {
    app,
    url,
    close: async () => {
      await app.close();
      await rpc.close();
      await ds.destroy();
    },
  };
}
