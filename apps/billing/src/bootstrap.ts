import type { INestApplication } from '@nestjs/common';
import { createLogger, loadConfig } from '@docket/config';
import { openServiceDatabase } from '@docket/database';
import { JetStreamBus, RpcClient, startServiceApp, natsAuth } from '@docket/messaging';
import { appModule } from './app.module.js';
import { billingEnvSchema } from './config.js';
import { billingEntities } from './entities/index.js';
import { billingMigrations } from './migrations/index.js';
import { HoldReconcileSweep } from './reconcile/hold-reconcile.sweep.js';
import { JobFinishedConsumer } from './settlement/job-finished.consumer.js';

export const BILLING_SCHEMA = 'billing';

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: BILLING_SCHEMA, entities: billingEntities, migrations: billingMigrations };

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<{ app: INestApplication; close(): Promise<void> }> {
  const config = loadConfig(billingEnvSchema, env);
  const log = createLogger('billing', config.LOG_LEVEL);

  const ds = await openServiceDatabase(config, DATABASE);

  const bus = new JetStreamBus(config.NATS_URL, log, 'billing', natsAuth(config));
  const rpc = new RpcClient({
    natsUrl: config.NATS_URL,
    auth: natsAuth(config),
    name: 'billing-client',
    timeoutMs: config.ARTIFACT_RPC_TIMEOUT_MS,
  });
  let app: INestApplication | undefined;
  try {
    await bus.connect();
    await rpc.connect();
    app = await startServiceApp({
      service: 'billing',
      module: appModule({ ds, config, log, rpc }),
      natsUrl: config.NATS_URL,
      natsAuth: natsAuth(config),
      host: config.HOST,
      port: config.PORT,
      log,
      checks: {
        database: () => ds.query('SELECT 1'),
        queue: async () => {
          if (bus.connection.isClosed()) throw new Error('NATS connection closed');
          await bus.connection.flush();
        },
      },
    });
    await app.get(JobFinishedConsumer).start(bus);
    app.get(HoldReconcileSweep).start();
  } catch (err) {
    await app?.close().catch(() => undefined);
    await bus.close().catch(() => undefined);
    await rpc.close().catch(() => undefined);
    await ds.destroy().catch(() => undefined);
    throw err;
  }

  const started = app;
  return {
    app: started,
    close: async () => {
      // Stop taking events first so no settlement runs against a closing pool.
      await bus.close();
      await started.close();
      await rpc.close();
      await ds.destroy();
    },
  };
}
