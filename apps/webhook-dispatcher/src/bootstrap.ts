import type { INestApplication } from '@nestjs/common';
import { loadConfig, createLogger } from '@docket/config';
import { Streams, type JobCorrectedEvent, type JobFinishedEvent } from '@docket/contracts';
import { openServiceDatabase } from '@docket/database';
import { JetStreamBus, RpcClient, startServiceApp, natsAuth } from '@docket/messaging';
import { appModule } from './app.module.js';
import { configSchema, parseAllowlist } from './config.js';
import { HttpSender } from './dispatch/http-sender.js';
import { CorrectionDeliveryService } from './dispatch/correction-delivery.service.js';
import { WebhookDeliveryService } from './dispatch/webhook-delivery.service.js';
import { entities } from './entities/index.js';
import { migrations } from './migrations/index.js';
import { resolveSecretKey, SecretCipher } from './security/secret-cipher.js';
import { UrlPolicy } from './security/url-policy.js';

export const SCHEMA = 'webhook';

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: SCHEMA, entities, migrations };

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<{ app: INestApplication; close(): Promise<void> }> {
  const config = loadConfig(configSchema, env);
  const log = createLogger('webhook-dispatcher', config.LOG_LEVEL);
  const cipher = new SecretCipher(resolveSecretKey(config.WEBHOOK_SECRET_KEY, config.NODE_ENV, log));
  const urls = new UrlPolicy(parseAllowlist(config.WEBHOOK_ALLOWLIST));
  const sender = new HttpSender(urls, config.WEBHOOK_TIMEOUT_MS);

  const ds = await openServiceDatabase(config, DATABASE);

  const bus = new JetStreamBus(config.NATS_URL, log, 'webhook-dispatcher', natsAuth(config));
  const rpc = new RpcClient({
    natsUrl: config.NATS_URL,
    auth: natsAuth(config),
    name: 'webhook-dispatcher-client',
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
  });
  let app: INestApplication | undefined;
  try {
    await bus.connect();
    await rpc.connect();
    app = await startServiceApp({
      service: 'webhook-dispatcher',
      module: appModule({ ds, config, log, cipher, urls, sender, rpc }),
      natsUrl: config.NATS_URL,
      natsAuth: natsAuth(config),
      host: config.HOST,
      port: config.PORT,
      log,
      checks: {
        database: () => ds.query('SELECT 1'),
        queue: async () => {
          if (bus.connection.isClosed()) throw new Error('NATS connection closed');
        },
      },
    });
    const delivery = app.get(WebhookDeliveryService);
    await bus.consume<JobFinishedEvent>({
      stream: Streams.events.name,
      durable: Streams.events.durables.webhookDispatcher,
      filterSubject: Streams.events.jobFinished,
      // Progress acks before each HTTP attempt; one attempt never outlasts the timeout.
      ackWaitMs: config.WEBHOOK_TIMEOUT_MS + 20_000,
      // No JetStream limit: attempts (four per event type) are counted in the delivery log, so an outage
      // (database, or artifact when fetching the result) naks with backoff until it ends (ADR 0008).
      maxDeliver: -1,
      concurrency: 4,
      handler: (ev, ctx) => delivery.handle(ev, ctx),
    });
    const corrections = app.get(CorrectionDeliveryService);
    await bus.consume<JobCorrectedEvent>({
      stream: Streams.events.name,
      durable: Streams.events.durables.webhookCorrections,
      filterSubject: Streams.events.jobCorrected,
      ackWaitMs: config.WEBHOOK_TIMEOUT_MS + 20_000,
      maxDeliver: -1,
      concurrency: 2,
      handler: (ev, ctx) => corrections.handle(ev, ctx),
    });
  } catch (err) {
    await bus.close().catch(() => undefined);
    await app?.close().catch(() => undefined);
    await rpc.close().catch(() => undefined);
    await ds.destroy().catch(() => undefined);
    throw err;
  }

  const started = app;
  return {
    app: started,
    close: async () => {
      await bus.close();
      await started.close();
      await rpc.close();
      sender.close();
      if (ds.isInitialized) await ds.destroy();
    },
  };
}
