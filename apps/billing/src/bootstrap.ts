import { createLogger, loadConfig } from '@docket/config';
import { assertSchemaCurrent, openServiceDatabase } from '@docket/database';
import { bootService, JetStreamBus, RpcClient, natsAuth, scrapeGauge, type ServiceHandle } from '@docket/messaging';
import type { DataSource } from 'typeorm';
import { appModule } from './app.module.js';
import { billingEnvSchema } from './config.js';
import { billingEntities } from './entities/index.js';
import { billingMigrations } from './migrations/index.js';
import { HoldReconcileSweep } from './reconcile/hold-reconcile.sweep.js';
import { JobFinishedConsumer } from './settlement/job-finished.consumer.js';

export const BILLING_SCHEMA = 'billing';

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: BILLING_SCHEMA, entities: billingEntities, migrations: billingMigrations };

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceHandle> {
  const config = loadConfig(billingEnvSchema, env);
  const log = createLogger('billing', config.LOG_LEVEL);
  return bootService({
    service: 'billing',
    host: config.HOST,
    port: config.PORT,
    log,
    nats: { url: config.NATS_URL, auth: natsAuth(config) },
    build: async (r) => {
      const ds = r.add('database', await openServiceDatabase(config, DATABASE), (d) => d.destroy());
      const bus = r.add('jetstream', new JetStreamBus(config.NATS_URL, log, 'billing', natsAuth(config), config), (b) => b.close());
      await bus.connect();
      const rpc = new RpcClient({
        natsUrl: config.NATS_URL,
        auth: natsAuth(config),
        name: 'billing-client',
        timeoutMs: config.ARTIFACT_RPC_TIMEOUT_MS,
      });
      await rpc.connect();
      r.add('rpc', rpc, (c) => c.close());
      registerBillingGauges(ds);
      return {
        module: appModule({ ds, config, log, rpc }),
        checks: {
          database: () => ds.query('SELECT 1'),
          schema: () => assertSchemaCurrent(ds),
          queue: () => bus.ping(),
        },
        afterStart: async (app, res) => {
          await app.get(JobFinishedConsumer).start(bus);
          app.get(HoldReconcileSweep).start();
          // Stop taking events first so no settlement runs against a closing pool.
          res.defer('consumers', () => bus.close());
        },
      };
    },
  });
}

/** Read when Prometheus scrapes: holds still open and the credits they hold (micro-credits / 10^6), live and sandbox. */
function registerBillingGauges(ds: DataSource): void {
  const openHolds = () =>
    ds.query(
      `SELECT sandbox, count(*)::int AS n, COALESCE(sum(amount_micro), 0)::float8 / 1e6 AS credits
         FROM "${BILLING_SCHEMA}"."holds" WHERE state = 'held' GROUP BY sandbox`,
    ) as Promise<{ sandbox: boolean; n: number; credits: number }[]>;
  const env = (sandbox: boolean) => ({ environment: sandbox ? 'sandbox' : 'live' });
  scrapeGauge('docket_billing_open_holds', 'Holds not yet settled or released', ['environment'], async () =>
    (await openHolds()).map((r) => ({ labels: env(r.sandbox), value: r.n })),
  );
  scrapeGauge('docket_billing_held_credits', 'Credits held by open holds', ['environment'], async () =>
    (await openHolds()).map((r) => ({ labels: env(r.sandbox), value: r.credits })),
  );
}
