import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { createLogger, loadConfig } from '@docket/config';
import { openServiceDatabase } from '@docket/database';
import { JetStreamBus, OutboxRelay, RpcClient, startServiceApp, natsAuth } from '@docket/messaging';
import { S3Storage, storageConfigFromEnv } from '@docket/storage';
import { ArtifactModule } from './app.module.js';
import { ARTIFACT_SCHEMA, artifactEnvSchema } from './config.js';
import { ArtifactEntity } from './entities/artifact.entity.js';
import { BatchEntity } from './entities/batch.entity.js';
import { JobEntity } from './entities/job.entity.js';
import { JobResultEntity } from './entities/job-result.entity.js';
import { PipelineEntity } from './entities/pipeline.entity.js';
import { ProcessingDeadlineService } from './expiry/processing-deadline.service.js';
import { UploadExpiryService } from './expiry/upload-expiry.service.js';
import { artifactMigrations } from './migrations/index.js';
import { RetentionPurgeService } from './retention/retention-purge.service.js';

export const artifactEntities = [ArtifactEntity, JobEntity, JobResultEntity, BatchEntity, PipelineEntity];

/** This service's schema, entities and migrations (boot and the `migrate` entry point). */
export const DATABASE = { schema: ARTIFACT_SCHEMA, entities: artifactEntities, migrations: artifactMigrations };

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<{ app: INestApplication; close(): Promise<void> }> {
  const cfg = loadConfig(artifactEnvSchema, env);
  const log = createLogger('artifact', cfg.LOG_LEVEL);
  const ds = await openServiceDatabase(cfg, DATABASE);
  const storage = new S3Storage(storageConfigFromEnv(cfg));
  await storage.ensureBucket();
  const rpc = new RpcClient({ natsUrl: cfg.NATS_URL, auth: natsAuth(cfg), name: 'artifact-client' });
  await rpc.connect();
  const bus = new JetStreamBus(cfg.NATS_URL, log, 'artifact', natsAuth(cfg));
  await bus.connect();
  const relay = new OutboxRelay(ds, ARTIFACT_SCHEMA, bus, log);

  const app = await startServiceApp({
    service: 'artifact',
    module: ArtifactModule.register({ ds, rpc, storage, cfg, log }),
    natsUrl: cfg.NATS_URL,
    natsAuth: natsAuth(cfg),
    host: cfg.HOST,
    port: cfg.PORT,
    log,
    checks: {
      database: () => ds.query('SELECT 1'),
      queue: async () => {
        if (bus.connection.isClosed()) throw new Error('NATS connection closed');
      },
      storage: () => storage.ping(),
    },
  });
  relay.start();
  app.get(UploadExpiryService).start();
  app.get(ProcessingDeadlineService).start();
  app.get(RetentionPurgeService).start();

  return {
    app,
    close: async () => {
      await relay.stop();
      await app.close();
      await bus.close();
      await rpc.close();
      storage.destroy();
      await ds.destroy();
    },
  };
}
