import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import { loadConfig } from '@docket/config';
import type { RpcClient } from '@docket/messaging';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { GatewayModule } from '../app.module.js';
import { gatewayEnvSchema } from '../config.js';
import { buildOpenApiDocument } from './swagger.js';

/**
 * The OpenAPI document the gateway serves, built offline. Preview mode resolves the module graph
 * without instantiating providers, so the placeholder database and NATS client are never touched.
 */
export async function buildGatewayOpenApiDocument(): Promise<OpenAPIObject> {
  const cfg = loadConfig(gatewayEnvSchema, { NODE_ENV: 'development' });
  const deps = { ds: {} as DataSource, rpc: {} as RpcClient, cfg, log: pino({ level: 'silent' }) };
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.register(deps), new FastifyAdapter(), {
    preview: true,
    logger: false,
  });
  app.setGlobalPrefix('api/v1');
  try {
    return buildOpenApiDocument(app);
  } finally {
    await app.close();
  }
}
