import 'reflect-metadata';
import { createLogger, loadConfig } from '@docket/config';
import { assertSchemaCurrent, openServiceDatabase } from '@docket/database';
import { bootService, JetStreamBus, OutboxRelay, RpcClient, natsAuth, type ServiceHandle } from '@docket/messaging';
import { S3Storage, storageConfigFromEnv } from '@docket/storage';
import { ArtifactModule } from './app.module.js';
import { ARTIFACT_SCHEMA, artifactEnvSchema } from './config.js';
import { ArtifactEntity } from './entities/artifact.entity.js';
import { BatchEntity } from './entities/batch.entity.js';
import { JobEntity } from './entities/job.entity.js';
import { PipelineEntity } from './entities/pipeline.entity.js';
import { ProcessingDeadlineService } from './expiry/processing-deadline.service.js';
import { UploadExpiryService } from './expiry/upload-expiry.service.js';
import { artifactMigrations } from './migrations/index.js';
import { RetentionPurgeService } from './retention/retention-purge.service.js';

export const artifactEntities = [ArtifactEntity, JobEntity, BatchEntity, PipelineEntity];

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: ARTIFACT_SCHEMA, entities: artifactEntities, migrations: artifactMigrations };

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceHandle> {
  const cfg = loadConfig(artifactEnvSchema, env);
  const log = createLogger('artifact', cfg.LOG_LEVEL);
  return bootService({
    service: 'artifact',
    host: cfg.HOST,
    port: cfg.PORT,
    log,
    nats: { url: cfg.NATS_URL, auth: natsAuth(cfg) },
    build: async (r) => {
      const ds = r.add('database', await openServiceDatabase(cfg, DATABASE), (d) => d.destroy());
      const storage = r.add('storage', new S3Storage(storageConfigFromEnv(cfg)), (s) => s.destroy());
      await storage.ensureBucket();
      const rpc = r.add('rpc', new RpcClient({ natsUrl: cfg.NATS_URL, auth: natsAuth(cfg), name: 'artifact-client' }), (c) => c.close());
      await rpc.connect();
      const bus = r.add('jetstream', new JetStreamBus(cfg.NATS_URL, log, 'artifact', natsAuth(cfg)), (b) => b.close());
      await bus.connect();
      const relay = new OutboxRelay(ds, ARTIFACT_SCHEMA, bus, log);
      return {
        module: ArtifactModule.register({ ds, rpc, storage, cfg, log }),
        checks: {
          database: () => ds.query('SELECT 1'),
          schema: () => assertSchemaCurrent(ds),
          queue: () => bus.ping(),
          storage: () => storage.ping(),
        },
        afterStart: (app, res) => {
          relay.start();
          res.defer('outbox-relay', () => relay.stop());
          app.get(UploadExpiryService).start();
          app.get(ProcessingDeadlineService).start();
          app.get(RetentionPurgeService).start();
        },
      };
    },
  });
}
