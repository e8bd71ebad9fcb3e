import { createLogger, loadConfig } from '@docket/config';
import { assertSchemaCurrent, openServiceDatabase } from '@docket/database';
import { bootService, RpcClient, natsAuth, type ServiceHandle } from '@docket/messaging';
import { appModule } from './app.module.js';
import { configSchema } from './config.js';
import { entities } from './entities/index.js';
import { migrations } from './migrations/index.js';
import { ArtifactTemplateUsage } from './templates/template-usage.client.js';

export const SCHEMA = 'template';

export type TemplateApp = ServiceHandle;

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: SCHEMA, entities, migrations };

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<TemplateApp> {
  const config = loadConfig(configSchema, env);
  const log = createLogger('template', config.LOG_LEVEL);
  return bootService({
    service: 'template',
    host: config.HOST,
    port: config.PORT,
    log,
    nats: { url: config.NATS_URL, auth: natsAuth(config) },
    build: async (r) => {
      const ds = r.add('database', await openServiceDatabase(config, DATABASE), (d) => d.destroy());
      const rpc = new RpcClient({ natsUrl: config.NATS_URL, auth: natsAuth(config), name: 'template-client' });
      await rpc.connect();
      r.add('rpc', rpc, (c) => c.close());
      return {
        module: appModule({ ds, config, log, usage: new ArtifactTemplateUsage(rpc, config.ARTIFACT_RPC_TIMEOUT_MS) }),
        checks: {
          database: () => ds.query('SELECT 1'),
          schema: () => assertSchemaCurrent(ds),
          queue: () => rpc.ping(),
        },
      };
    },
  });
}
