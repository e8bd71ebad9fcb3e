import 'reflect-metadata';
import { createLogger, loadConfig } from '@docket/config';
import { Streams, type JobRunMessage, type LayoutLearnMessage } from '@docket/contracts';
import { createExtractionEngine, hasNativeTesseract, nativeTesseractLanguages } from '@docket/extraction';
import { bootService, JetStreamBus, RpcClient, natsAuth, type ServiceHandle } from '@docket/messaging';
import { ocrThreads, pdfInflation, workerEnvSchema } from './config.js';
import { LearnLayoutService } from './learn/learn-layout.service.js';
import { RunJobService } from './run/run-job.service.js';
import { WorkerModule } from './worker.module.js';

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<ServiceHandle> {
  const cfg = loadConfig(workerEnvSchema, env);
  const log = createLogger('extraction-worker', cfg.LOG_LEVEL);
  return bootService({
    service: 'extraction-worker',
    host: cfg.HOST,
    port: cfg.PORT,
    log,
    nats: { url: cfg.NATS_URL, auth: natsAuth(cfg) },
    build: async (r) => {
      const engine = r.add(
        'engine',
        createExtractionEngine({
          ocrLanguages: cfg.OCR_LANGUAGES,
          ocr: cfg.OCR_ENGINE,
          ocrThreads: ocrThreads(cfg),
          ocrPoolSize: cfg.WORKER_CONCURRENCY,
          pdfInflation: pdfInflation(cfg),
        }),
        (e) => e.close(),
      );
      const rpc = r.add('rpc', new RpcClient({ natsUrl: cfg.NATS_URL, auth: natsAuth(cfg), name: 'extraction-worker-client' }), (c) =>
        c.close(),
      );
      await rpc.connect();
      const bus = r.add('jetstream', new JetStreamBus(cfg.NATS_URL, log, 'extraction-worker', natsAuth(cfg), cfg), (b) => b.close());
      await bus.connect();
      // The native OCR probes (`tesseract --version`, `--list-langs`) are synchronous and cached: run them here, at boot,
      // so that no job ever waits on a synchronous child process (ADR 0008).
      log.info({ nativeTesseract: hasNativeTesseract(), languages: [...nativeTesseractLanguages()] }, 'OCR backends probed');
      // No storage client and no database: artifact hands out presigned URLs for each job's own objects (JobStorageReply).
      const runner = new RunJobService(engine, rpc, cfg, log);
      const learner = new LearnLayoutService(engine, rpc, log, cfg.EXTRACTION_TIMEOUT_MS);
      return {
        module: WorkerModule,
        checks: {
          queue: () => bus.ping(),
          // The engine is in-process; a tiny text extraction proves it loads and answers.
          model: () =>
            engine.extract(
              { bytes: new TextEncoder().encode('Total: 1'), mimeType: 'text/plain', filename: 'probe.txt' },
              { fields: [{ key: 'total', label: 'Total', data_type: 'number' }] },
            ),
        },
        afterStart: async (_app, res) => {
          // SIGTERM: stop pulling; jobs in hand finish within the grace period (> EXTRACTION_TIMEOUT_MS), the rest are naked.
          res.defer('consumers', async () => {
            log.info({ graceMs: cfg.WORKER_SHUTDOWN_GRACE_MS }, 'shutting down: no new jobs; finishing the jobs in hand');
            await bus.close(cfg.WORKER_SHUTDOWN_GRACE_MS);
          });
          await bus.consume<JobRunMessage>({
            stream: Streams.jobs.name,
            durable: Streams.jobs.workerDurable,
            filterSubject: Streams.jobs.run,
            ackWaitMs: cfg.WORKER_ACK_WAIT_MS,
            // No JetStream limit: an outage never drops a job; attempts are counted by artifact (ADR 0008).
            maxDeliver: -1,
            concurrency: cfg.WORKER_CONCURRENCY,
            handler: (msg, ctx) => runner.handle(msg, ctx),
          });
          // Layout memory (ADR 0014): confirmed results to learn from, one at a time beside the jobs.
          await bus.consume<LayoutLearnMessage>({
            stream: Streams.jobs.name,
            durable: Streams.jobs.learnDurable,
            filterSubject: Streams.jobs.learn,
            ackWaitMs: cfg.WORKER_ACK_WAIT_MS,
            maxDeliver: -1,
            concurrency: 1,
            handler: (msg, ctx) => learner.handle(msg, ctx),
          });
        },
      };
    },
  });
}
