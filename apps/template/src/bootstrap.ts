import type { INestApplication } from '@nestjs/common';
import { createLogger, loadConfig } from '@docket/config';
import { openServiceDatabase } from '@docket/database';
import { RpcClient, startServiceApp, natsAuth } from '@docket/messaging';
import { appModule } from './app.module.js';
import { configSchema } from './config.js';
import { entities } from './entities/index.js';
import { migrations } from './migrations/index.js';
import { ArtifactTemplateUsage } from './templates/template-usage.client.js';

export const SCHEMA = 'template';

export interface TemplateApp {
  app: INestApplication;
  close(): Promise<void>;
}

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: SCHEMA, entities, migrations };

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<TemplateApp> {
  const config = loadConfig(configSchema, env);
  const log = createLogger('template', config.LOG_LEVEL);

  const ds = await openServiceDatabase(config, DATABASE);

  const rpc = new RpcClient({ natsUrl: config.NATS_URL, auth: natsAuth(config), name: 'template-client' });
  await rpc.connect();

  let app: INestApplication;
  try {
    app = await startServiceApp({
      service: 'template',
      module: appModule({ ds, config, log, usage: new ArtifactTemplateUsage(rpc, config.ARTIFACT_RPC_TIMEOUT_MS) }),
      natsUrl: config.NATS_URL,
      natsAuth: natsAuth(config),
      host: config.HOST,
      port: config.PORT,
      log,
      checks: { database: () => ds.query('SELECT 1') },
    });
  } catch (err) {
    await rpc.close().catch(() => undefined);
    await ds.destroy().catch(() => undefined);
    throw err;
  }

  return {
    app,
    close: async () => {
      await app.close();
      await rpc.close();
      await ds.destroy();
    },
  };
}
