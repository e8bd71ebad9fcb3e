import 'reflect-metadata';
import { createLogger, loadConfig } from '@docket/config';
import { assertSchemaCurrent, openServiceDatabase } from '@docket/database';
import { bootService, JetStreamBus, OutboxRelay, RpcClient, natsAuth, scrapeGauge, type ServiceHandle } from '@docket/messaging';
import type { DataSource } from 'typeorm';
import { S3Storage, storageConfigFromEnv } from '@docket/storage';
import { ArtifactModule } from './app.module.js';
import { ARTIFACT_SCHEMA, artifactEnvSchema } from './config.js';
import { ArtifactEntity } from './entities/artifact.entity.js';
import { BatchEntity } from './entities/batch.entity.js';
import { JobEntity } from './entities/job.entity.js';
import { JobResultEntity } from './entities/job-result.entity.js';
import { LayoutExemplarEntity } from './entities/layout-exemplar.entity.js';
import { AccountMemoryEntity } from './entities/account-memory.entity.js';
import { PipelineEntity } from './entities/pipeline.entity.js';
import { ProcessingDeadlineService } from './expiry/processing-deadline.service.js';
import { UploadExpiryService } from './expiry/upload-expiry.service.js';
import { artifactMigrations } from './migrations/index.js';
import { RetentionPurgeService } from './retention/retention-purge.service.js';

export const artifactEntities = [
  ArtifactEntity,
  JobEntity,
  JobResultEntity,
  BatchEntity,
  PipelineEntity,
  LayoutExemplarEntity,
  AccountMemoryEntity,
];

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
      const bus = r.add('jetstream', new JetStreamBus(cfg.NATS_URL, log, 'artifact', natsAuth(cfg), cfg), (b) => b.close());
      await bus.connect();
      const relay = new OutboxRelay(ds, ARTIFACT_SCHEMA, bus, log);
      registerArtifactGauges(ds);
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

/** Read when Prometheus scrapes: jobs by state (all accounts) and the events not yet published. */
function registerArtifactGauges(ds: DataSource): void {
  scrapeGauge('docket_jobs', 'Jobs by state', ['state'], async () => {
    const rows: { status: string; n: number }[] = await ds.query(
      `SELECT status, count(*)::int AS n FROM "${ARTIFACT_SCHEMA}"."jobs" GROUP BY status`,
    );
    return rows.map((r) => ({ labels: { state: r.status }, value: r.n }));
  });
  scrapeGauge('docket_outbox_backlog', 'Outbox rows not yet published to JetStream', ['schema'], async () => {
    const [{ n }]: { n: number }[] = await ds.query(`SELECT count(*)::int AS n FROM "${ARTIFACT_SCHEMA}"."outbox" WHERE sent_at IS NULL`);
    return [{ labels: { schema: ARTIFACT_SCHEMA }, value: n }];
  });
}
