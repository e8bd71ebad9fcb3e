import { loadConfig, createLogger } from '@docket/config';
import { Streams, type JobCorrectedEvent, type JobFinishedEvent } from '@docket/contracts';
import { assertSchemaCurrent, openServiceDatabase } from '@docket/database';
import { bootService, JetStreamBus, RpcClient, natsAuth, type ServiceHandle } from '@docket/messaging';
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

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceHandle> {
  const config = loadConfig(configSchema, env);
  const log = createLogger('webhook-dispatcher', config.LOG_LEVEL);
  const cipher = new SecretCipher(resolveSecretKey(config.WEBHOOK_SECRET_KEY, config.NODE_ENV, log));
  const urls = new UrlPolicy(parseAllowlist(config.WEBHOOK_ALLOWLIST));
  return bootService({
    service: 'webhook-dispatcher',
    host: config.HOST,
    port: config.PORT,
    log,
    nats: { url: config.NATS_URL, auth: natsAuth(config) },
    build: async (r) => {
      const sender = r.add('http-sender', new HttpSender(urls, config.WEBHOOK_TIMEOUT_MS), (s) => s.close());
      const ds = r.add('database', await openServiceDatabase(config, DATABASE), (d) => d.destroy());
      const bus = r.add('jetstream', new JetStreamBus(config.NATS_URL, log, 'webhook-dispatcher', natsAuth(config), config), (b) =>
        b.close(),
      );
      await bus.connect();
      const rpc = new RpcClient({
        natsUrl: config.NATS_URL,
        auth: natsAuth(config),
        name: 'webhook-dispatcher-client',
        timeoutMs: config.WEBHOOK_TIMEOUT_MS,
      });
      await rpc.connect();
      r.add('rpc', rpc, (c) => c.close());
      return {
        module: appModule({ ds, config, log, cipher, urls, sender, rpc }),
        checks: {
          database: () => ds.query('SELECT 1'),
          schema: () => assertSchemaCurrent(ds),
          queue: () => bus.ping(),
        },
        afterStart: async (app, res) => {
          const delivery = app.get(WebhookDeliveryService);
          // Stop taking events before the HTTP server and the pool close.
          res.defer('consumers', () => bus.close());
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
          // Corrections (the review workflow) to the webhooks that subscribe to `job.corrected`.
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
        },
      };
    },
  });
}
