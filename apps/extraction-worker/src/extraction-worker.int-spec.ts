import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Controller, Module, type INestApplication } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  JobOutcomeCommand,
  JobPagesCommand,
  JobStartedCommand,
  JobStorageCommand,
  rawKey,
  RESULT_CONTENT_TYPES,
  resultKeys,
  Streams,
  Subjects,
  type JobExemplarsReply,
  type JobOutcomeReply,
  type JobPagesReply,
  type JobRunMessage,
  type JobStartedReply,
  type JobStorageReply,
} from '@docket/contracts';
import { JetStreamBus, startServiceApp } from '@docket/messaging';
import { S3Storage, storageConfigFromEnv } from '@docket/storage';
import {
  contentStreamBomb,
  expectEventually,
  freePort,
  imageStreamBomb,
  objectStreamBomb,
  startTestNats,
  startTestS3,
  testLogger,
  type TestNats,
  type TestS3,
} from '@docket/testing';
import { ulid } from 'ulid';
import { bootstrap } from './bootstrap.js';

jest.setTimeout(90_000);

/**
 * Stand-in `artifact`: a real NATS responder with the real contract classes, recording what the worker reports and
 * handing out presigned URLs for the jobs the test published (the worker itself has no storage credentials).
 */
const published = new Map<string, JobRunMessage>();
const storageAsked: string[] = [];
const URL_TTL_SECONDS = 600;
let presigner: S3Storage;
const started: JobStartedCommand[] = [];
const outcomes: JobOutcomeCommand[] = [];
const terminal = new Set<string>();
/** Jobs whose `started` requests fail this many more times (artifact unreachable), by job id. */
const outage = new Map<string, number>();
/** Attempts artifact already counted for a job before this delivery (a job that crashed workers before). */
const priorAttempts = new Map<string, number>();
/** Page counts the worker sent, by job id; the pages artifact covers for a job (default: all); jobs artifact stops. */
const pageCounts = new Map<string, number>();
const coveredPages = new Map<string, number>();
const stopAtPages = new Set<string>();
@Controller()
class ArtifactStandIn {
  @MessagePattern(Subjects.artifact.jobStorage)
  async storage(@Payload() cmd: JobStorageCommand): Promise<JobStorageReply> {
    storageAsked.push(cmd.jobId);
    const msg = published.get(cmd.jobId);
    if (!msg || terminal.has(cmd.jobId)) return { proceed: false };
    const keys = resultKeys(msg.accountId, msg.artifactId, msg.jobId);
    return {
      proceed: true,
      sourceHeadUrl: await presigner.presignInternal('HEAD', msg.sourceKey, URL_TTL_SECONDS),
      sourceGetUrl: await presigner.presignInternal('GET', msg.sourceKey, URL_TTL_SECONDS),
      resultPutUrl: await presigner.presignInternal('PUT', keys.json, URL_TTL_SECONDS, RESULT_CONTENT_TYPES.json),
      markdownPutUrl: await presigner.presignInternal('PUT', keys.markdown, URL_TTL_SECONDS, RESULT_CONTENT_TYPES.markdown),
    };
  }

  @MessagePattern(Subjects.artifact.jobStarted)
  started(@Payload() cmd: JobStartedCommand): JobStartedReply {
    const failing = outage.get(cmd.jobId) ?? 0;
    if (failing > 0) {
      outage.set(cmd.jobId, failing - 1);
      throw new Error('artifact database unavailable');
    }
    started.push(cmd);
    const attempt = (priorAttempts.get(cmd.jobId) ?? 0) + started.filter((s) => s.jobId === cmd.jobId).length;
    return { proceed: !terminal.has(cmd.jobId), attempt };
  }

  @MessagePattern(Subjects.artifact.jobPages)
  pages(@Payload() cmd: JobPagesCommand): JobPagesReply {
    pageCounts.set(cmd.jobId, cmd.pages);
    if (stopAtPages.has(cmd.jobId)) return { proceed: false };
    return { proceed: true, pages: Math.min(cmd.pages, coveredPages.get(cmd.jobId) ?? cmd.pages) };
  }

  /** No layout memory in these tests: the account has no exemplars. */
  @MessagePattern(Subjects.artifact.jobExemplars)
  exemplars(): JobExemplarsReply {
    return { exemplars: [] };
  }

  @MessagePattern(Subjects.artifact.jobOutcome)
  outcome(@Payload() cmd: JobOutcomeCommand): JobOutcomeReply {
    outcomes.push(cmd);
    return { applied: true };
  }
}
@Module({ controllers: [ArtifactStandIn] })
class ArtifactStandInModule {}

/** The worker's PDF inflation limits here (MiB): one stream, and per page beyond it. */
const INFLATED_STREAM_MIB = 16;
const INFLATED_MIB_PER_PAGE = 4;
/** What the bombs inflate to: 32 times the stream limit (a 1.6 GB stream took a worker from 0.2 to 3.9 GB RSS). */
const BOMB_BYTES = 512 * 1024 * 1024;
/** Growth of the worker's peak RSS the three bombs may cause: far below what inflating one of them would take. */
const BOMB_RSS_GROWTH_LIMIT = 128 * 1024 * 1024;

const SCHEMA = {
  fields: [
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string' as const },
    { key: 'total', label: 'Total', data_type: 'currency' as const },
  ],
};

describe('extraction-worker (real NATS JetStream and S3)', () => {
  let nats: TestNats;
  let s3: TestS3;
  let artifact: INestApplication;
  let worker: Awaited<ReturnType<typeof bootstrap>>;
  let bus: JetStreamBus;
  let storage: S3Storage;
  const acct = `acct_${ulid().toLowerCase()}`;

  function job(over: Partial<JobRunMessage> = {}): JobRunMessage {
    const artifactId = `art_${ulid().toLowerCase()}`;
    const msg: JobRunMessage = {
      jobId: `job_${ulid().toLowerCase()}`,
      artifactId,
      accountId: acct,
      sandbox: false,
      sourceKey: rawKey(acct, artifactId, 'a.txt'),
      mimeType: 'text/plain',
      filename: 'a.txt',
      schema: SCHEMA,
      templateId: null,
      templateVersion: null,
      confidenceThreshold: 0.7,
      ...over,
    };
    published.set(msg.jobId, msg);
    return msg;
  }
  const outcomeOf = (jobId: string) =>
    expectEventually(
      () => {
        const o = outcomes.find((x) => x.jobId === jobId);
        if (!o) throw new Error(`no outcome for ${jobId}`);
        return o;
      },
      { timeoutMs: 50_000 },
    );

  beforeAll(async () => {
    [nats, s3] = await Promise.all([startTestNats(), startTestS3()]);
    storage = new S3Storage(
      storageConfigFromEnv({
        S3_REGION: 'us-east-1',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
      }),
    );
    presigner = storage;
    const log = testLogger();
    artifact = await startServiceApp({
      service: 'artifact',
      module: ArtifactStandInModule,
      natsUrl: nats.url,
      host: '127.0.0.1',
      port: await freePort(),
      log,
      checks: {},
    });
    // As in production: its own NATS user and no storage settings at all (no S3_* variables).
    worker = await bootstrap({
      ...nats.env('extraction-worker'),
      PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      NODE_ENV: 'test',
      WORKER_MAX_DELIVER: '2',
      WORKER_ACK_WAIT_MS: '5000',
      PDF_MAX_INFLATED_STREAM_MIB: String(INFLATED_STREAM_MIB),
      PDF_MAX_INFLATED_MIB_PER_PAGE: String(INFLATED_MIB_PER_PAGE),
    });
    bus = new JetStreamBus(nats.url, log, 'worker-test');
    await bus.connect();
  });

  afterAll(async () => {
    await bus?.close();
    await worker?.close();
    await artifact?.close();
    storage?.destroy();
    await s3?.close();
    await nats?.close();
  });

  it('reports running, extracts, stores result JSON and Markdown, reports success', async () => {
    const msg = job();
    await storage.put(msg.sourceKey, 'Invoice Number: INV-42\nTotal: EUR 12,50\n', 'text/plain');
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    const out = await outcomeOf(msg.jobId);
    expect(started.find((s) => s.jobId === msg.jobId)).toEqual({ jobId: msg.jobId, attempt: 1 });
    const keys = resultKeys(acct, msg.artifactId, msg.jobId);
    expect(out).toMatchObject({ status: 'success', resultKey: keys.json, markdownKey: keys.markdown, pages: 1 });
    expect(out.result).toEqual({ invoice_number: 'INV-42', total: { value: 12.5, currency: 'EUR' } });
    const stored = JSON.parse(new TextDecoder().decode(await storage.getBytes(keys.json)));
    expect(stored).toMatchObject({ job_id: msg.jobId, result: out.result, pages: 1 });
    expect(stored.fields.total.confidence).toBeGreaterThan(0);
    expect((await storage.head(keys.markdown))?.size).toBeGreaterThan(0);
  });

  it('sends the page count to artifact before reading and reads only the pages artifact covers; the result says so', async () => {
    const msg = job();
    await storage.put(msg.sourceKey, 'Invoice Number: PART-1\fTotal: EUR 1,00\fNotes page\n', 'text/plain');
    coveredPages.set(msg.jobId, 2);
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    const out = await outcomeOf(msg.jobId);
    expect(pageCounts.get(msg.jobId)).toBe(3);
    expect(out).toMatchObject({ status: 'success', pages: 2, result: { invoice_number: 'PART-1' } });
    const keys = resultKeys(acct, msg.artifactId, msg.jobId);
    expect(JSON.parse(new TextDecoder().decode(await storage.getBytes(keys.json)))).toMatchObject({ pages: 2, page_count: 3 });
    expect(new TextDecoder().decode(await storage.getBytes(keys.markdown))).toContain('pages 1–2 of 3 were read');
  });

  it('stops without reading or reporting when artifact refuses the pages (it failed the job insufficient_funds itself)', async () => {
    const msg = job();
    stopAtPages.add(msg.jobId);
    await storage.put(msg.sourceKey, 'Invoice Number: NOPE-1\n', 'text/plain');
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    await expectEventually(() => expect(pageCounts.get(msg.jobId)).toBe(1));
    // The next job is processed, so the stopped one was acked rather than left pending.
    const next = job();
    await storage.put(next.sourceKey, 'Invoice Number: N-2\n', 'text/plain');
    await bus.publish(Streams.jobs.run, next, `run_${next.jobId}`);
    await outcomeOf(next.jobId);
    expect(outcomes.some((o) => o.jobId === msg.jobId)).toBe(false);
    expect(await storage.head(resultKeys(acct, msg.artifactId, msg.jobId).json)).toBeFalsy();
  });

  it('fails PDF decompression bombs (content, image and object streams) with decompression_limit, its peak RSS barely moving', async () => {
    const bombs = await Promise.all([contentStreamBomb(BOMB_BYTES), imageStreamBomb(BOMB_BYTES), objectStreamBomb(BOMB_BYTES)]);
    const peakBefore = process.resourceUsage().maxRSS * 1024; // the worker runs in this process
    for (const bomb of bombs) {
      const artifactId = `art_${ulid().toLowerCase()}`;
      const msg = job({ artifactId, sourceKey: rawKey(acct, artifactId, 'bomb.pdf'), mimeType: 'application/pdf', filename: 'bomb.pdf' });
      await storage.put(msg.sourceKey, bomb, 'application/pdf');
      await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
      const out = await outcomeOf(msg.jobId);
      expect(out).toMatchObject({ status: 'failed', pages: 0, error: expect.stringMatching(/^decompression_limit: /) });
    }
    expect(process.resourceUsage().maxRSS * 1024 - peakBefore).toBeLessThan(BOMB_RSS_GROWTH_LIMIT);
  });

  it('gives sandbox jobs synthetic results without reading the source', async () => {
    const msg = job({ sandbox: true, sourceKey: 'raw/none/never-uploaded.txt' });
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    const out = await outcomeOf(msg.jobId);
    expect(out.status).toBe('success');
    expect(Object.keys(out.result ?? {}).sort()).toEqual(['invoice_number', 'total']);
  });

  it('fails a job with the engine code for an unsupported type, once', async () => {
    const msg = job({ mimeType: 'application/x-msdownload', filename: 'a.exe' });
    await storage.put(msg.sourceKey, 'MZ', 'application/x-msdownload');
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    const out = await outcomeOf(msg.jobId);
    expect(out.status).toBe('failed');
    expect(out.error).toMatch(/^unsupported_type: /);
  });

  it('fails a job whose source is gone, after a HEAD and without an attempt', async () => {
    const msg = job({ sourceKey: `raw/${acct}/missing/object.txt` });
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    const out = await outcomeOf(msg.jobId);
    expect(out).toMatchObject({ status: 'failed', error: 'extraction_failed: the uploaded file is no longer in storage' });
    expect(started.some((s) => s.jobId === msg.jobId)).toBe(false);
  });

  it('refuses a source above the 50 MiB engine limit from its HEAD, before downloading it', async () => {
    const msg = job();
    await storage.put(msg.sourceKey, new Uint8Array(50 * 1024 * 1024 + 1), 'text/plain');
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    const out = await outcomeOf(msg.jobId);
    expect(out).toMatchObject({
      status: 'failed',
      error: `file_too_large: the file is ${50 * 1024 * 1024 + 1} bytes, more than the ${50 * 1024 * 1024}-byte limit`,
    });
    expect(started.some((s) => s.jobId === msg.jobId)).toBe(false);
  });

  it('naks while artifact is unreachable without using attempts: more deliveries than WORKER_MAX_DELIVER, then success', async () => {
    const msg = job();
    await storage.put(msg.sourceKey, 'Invoice Number: OUT-7\n', 'text/plain');
    outage.set(msg.jobId, 3); // three deliveries find artifact down; WORKER_MAX_DELIVER is 2 here
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    const out = await outcomeOf(msg.jobId);
    expect(out).toMatchObject({ status: 'success', result: { invoice_number: 'OUT-7' } });
    expect(started.filter((s) => s.jobId === msg.jobId).map((s) => s.attempt)).toEqual([4]); // the fourth delivery, first attempt
  });

  it('fails a job with processing_error once artifact counts more attempts than WORKER_MAX_DELIVER, through the outcome report', async () => {
    const msg = job();
    await storage.put(msg.sourceKey, 'Invoice Number: CRASH-1\n', 'text/plain');
    priorAttempts.set(msg.jobId, 2); // two earlier pickups crashed their worker
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    const out = await outcomeOf(msg.jobId);
    expect(out).toMatchObject({
      status: 'failed',
      pages: 0,
      error: expect.stringMatching(/^processing_error: processing was interrupted 2 times/),
    });
  });

  it('skips a job that is already terminal (e.g. cancelled) without reporting', async () => {
    const msg = job();
    terminal.add(msg.jobId);
    await storage.put(msg.sourceKey, 'Invoice Number: T-1\n', 'text/plain');
    await bus.publish(Streams.jobs.run, msg, `run_${msg.jobId}`);
    await expectEventually(() => expect(storageAsked.includes(msg.jobId)).toBe(true));
    // The next job is processed, so the skipped one was acked rather than left pending.
    const next = job();
    await storage.put(next.sourceKey, 'Invoice Number: N-1\n', 'text/plain');
    await bus.publish(Streams.jobs.run, next, `run_${next.jobId}`);
    await outcomeOf(next.jobId);
    expect(outcomes.some((o) => o.jobId === msg.jobId)).toBe(false);
    expect(started.some((s) => s.jobId === msg.jobId)).toBe(false);
  });
});
