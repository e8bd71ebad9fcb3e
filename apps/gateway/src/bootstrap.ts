import 'reflect-metadata';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger, loadConfig } from '@docket/config';
import { assertSchemaCurrent, openServiceDatabase } from '@docket/database';
import { bootService, RpcClient, natsAuth, type ServiceHandle } from '@docket/messaging';
import type { Logger } from 'pino';
import { GatewayModule, type GatewayDeps } from './app.module.js';
import { gatewayEnvSchema, type GatewayConfig } from './config.js';
import { HttpExceptionFilter, sendError } from './http/http-exception.filter.js';
import { JSON_BODY_LIMIT_BYTES, useJsonBodyParser } from './http/json-body.js';
import { requestIdFrom } from './http/request-id.js';
import { serveDashboard } from './http/dashboard.js';
import { setupSwagger } from './http/swagger.js';
import { httpValidationPipe } from './http/validation.js';
import { CredentialCache, CredentialRevocations, IDENTITY_SCHEMA, identityEntities } from './identity/index.js';
import { gatewayMigrations } from './migrations/index.js';
import { LlmsTxtService } from './system/llms-txt.service.js';

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: IDENTITY_SCHEMA, entities: identityEntities, migrations: gatewayMigrations };

/** Outside `/api/v1`: the probes (and, with metrics, `/metrics`) are for the platform, not API clients. */
const UNPREFIXED = ['livez', 'readyz', 'metrics'];

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceHandle> {
  const cfg = loadConfig(gatewayEnvSchema, env);
  const log = createLogger('gateway', cfg.LOG_LEVEL);
  return bootService({
    service: 'gateway',
    host: cfg.HOST,
    port: cfg.PORT,
    log,
    http: {
      adapter: new FastifyAdapter({
        routerOptions: { ignoreTrailingSlash: true },
        bodyLimit: JSON_BODY_LIMIT_BYTES,
        // The router's own refusals (over-long path parameter, malformed URL) get the one envelope too.
        frameworkErrors: (err: Error, req: FastifyRequest, reply: FastifyReply) => sendError(reply, req, err, log),
        genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => requestIdFrom(req.headers['x-request-id']),
      }),
      configure: (app) => configurePublicApi(app, cfg, log),
    },
    build: async (r) => {
      const ds = r.add('database', await openServiceDatabase(cfg, DATABASE), (d) => d.destroy());
      const rpc = r.add(
        'rpc',
        new RpcClient({ natsUrl: cfg.NATS_URL, auth: natsAuth(cfg), name: 'gateway', timeoutMs: cfg.RPC_TIMEOUT_MS }),
        (c) => c.close(),
      );
      await rpc.connect();
      let admin: GatewayDeps['admin'];
      if (cfg.ADMIN_TOKEN) {
        const operatorRpc = r.add('admin rpc', operatorClient(cfg), (c) => c.close());
        await operatorRpc.connect();
        admin = { token: cfg.ADMIN_TOKEN, operatorRpc };
      }
      const credentials = new CredentialCache(cfg.CREDENTIAL_CACHE_SECONDS * 1000);
      const revocations = r.add('credential revocations', new CredentialRevocations(cfg.DATABASE_URL, credentials, log), (c) => c.stop());
      await revocations.start();
      return {
        module: GatewayModule.register({ ds, rpc, cfg, log, credentials, admin }),
        // Readiness of this process alone (k8s): its database, its schema and its NATS connection. The public
        // /api/v1/health aggregates every service and is for people and monitors.
        checks: {
          database: () => ds.query('SELECT 1'),
          schema: () => assertSchemaCurrent(ds),
          queue: () => rpc.ping(),
        },
      };
    },
  });
}

/**
 * Admin mode's NATS client: billing's operator subjects (deposit, freeze, open wallet) are the `admin` NATS user's
 * only (ADR 0009), so the admin routes call them as that user, given to this gateway only with ADMIN_TOKEN.
 */
function operatorClient(cfg: GatewayConfig): RpcClient {
  if (cfg.NATS_USER && !cfg.ADMIN_NATS_PASSWORD) {
    throw new Error('Invalid environment:\n  ADMIN_NATS_PASSWORD: required with ADMIN_TOKEN when NATS has users (NATS_USER is set)');
  }
  const auth = cfg.NATS_USER ? natsAuth({ NATS_USER: cfg.ADMIN_NATS_USER, NATS_PASSWORD: cfg.ADMIN_NATS_PASSWORD }) : {};
  return new RpcClient({ natsUrl: cfg.NATS_URL, auth, name: 'gateway-admin', timeoutMs: cfg.RPC_TIMEOUT_MS });
}

async function configurePublicApi(app: NestFastifyApplication, cfg: GatewayConfig, log: Logger): Promise<void> {
  useJsonBodyParser(app);
  app.setGlobalPrefix('api/v1', { exclude: UNPREFIXED });
  app.useGlobalPipes(httpValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter(log));

  const fastify = app.getHttpAdapter().getInstance();
  // multipart/form-data for POST /artifacts/upload only (adds req.parts(); JSON routes are unaffected).
  await fastify.register(multipart, { limits: { fileSize: cfg.DIRECT_UPLOAD_MAX_BYTES, files: 1, fields: 10, parts: 12 } });
  await serveDashboard(fastify, cfg.DASHBOARD_DIR, log);
  // The request id (from the caller's X-Request-Id when well-formed) goes back to the caller; bootService puts it
  // on every log line and NATS request made while serving (nestjs-pino logs one line per request).
  fastify.addHook('onSend', async (req, reply) => {
    void reply.header('x-request-id', req.id);
  });
  // Errors Fastify raises before Nest routes the request (malformed JSON, wrong content type) get the same envelope.
  fastify.setErrorHandler((err, req, reply) => sendError(reply, req, err, log));

  const document = setupSwagger(app, cfg.API_DOCS);
  app.get(LlmsTxtService).setDocument(document);
}
