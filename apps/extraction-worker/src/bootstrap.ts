import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { createLogger, loadConfig } from '@docket/config';
import { Streams, type JobRunMessage } from '@docket/contracts';
import { createExtractionEngine, hasNativeTesseract, nativeTesseractLanguages } from '@docket/extraction';
import { JetStreamBus, RpcClient, startServiceApp, natsAuth } from '@docket/messaging';
import { ocrThreads, pdfInflation, workerEnvSchema } from './config.js';
import { RunJobService } from './run/run-job.service.js';
import { WorkerModule } from './worker.module.js';

export async function bootstrap(env: NodeJS.ProcessEnv = process.env): Promise<{ app: INestApplication; close(): Promise<void> }> {
  const cfg = loadConfig(workerEnvSchema, env);
  const log = createLogger('extraction-worker', cfg.LOG_LEVEL);
  const rpc = new RpcClient({ natsUrl: cfg.NATS_URL, auth: natsAuth(cfg), name: 'extraction-worker-client' });
  await rpc.connect();
  const bus = new JetStreamBus(cfg.NATS_URL, log, 'extraction-worker', natsAuth(cfg));
  await bus.connect();
  const engine = createExtractionEngine({
    ocrLanguages: cfg.OCR_LANGUAGES,
    ocr: cfg.OCR_ENGINE,
    ocrThreads: ocrThreads(cfg),
    ocrPoolSize: cfg.WORKER_CONCURRENCY,
    pdfInflation: pdfInflation(cfg),
  });
  // The native OCR probes (`tesseract --version`, `--list-langs`) are synchronous and cached: run them here, at boot,
  // so that no job ever waits on a synchronous child process (ADR 0008).
  log.info({ nativeTesseract: hasNativeTesseract(), languages: [...nativeTesseractLanguages()] }, 'OCR backends probed');
  // No storage client: artifact hands out presigned URLs for each job's own objects (JobStorageReply).
  const runner = new RunJobService(engine, rpc, cfg, log);

  const app = await startServiceApp({
    service: 'extraction-worker',
    module: WorkerModule,
    natsUrl: cfg.NATS_URL,
    natsAuth: natsAuth(cfg),
    host: cfg.HOST,
    port: cfg.PORT,
    log,
    checks: {
      queue: async () => {
        if (bus.connection.isClosed()) throw new Error('NATS connection closed');
      },
      model: async () => {
        // The engine is in-process; a tiny text extraction proves it loads and answers.
        await engine.extract(
          { bytes: new TextEncoder().encode('Total: 1'), mimeType: 'text/plain', filename: 'probe.txt' },
          {
            fields: [{ key: 'total', label: 'Total', data_type: 'number' }],
          },
        );
      },
    },
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

  return {
    app,
    close: async () => {
      // SIGTERM: stop pulling; jobs in hand finish within the grace period (> EXTRACTION_TIMEOUT_MS), the rest are naked.
      log.info({ graceMs: cfg.WORKER_SHUTDOWN_GRACE_MS }, 'shutting down: no new jobs; finishing the jobs in hand');
      await bus.close(cfg.WORKER_SHUTDOWN_GRACE_MS);
      await app.close();
      await rpc.close();
      await engine.close();
    },
  };
}
