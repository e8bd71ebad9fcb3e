import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Streams, Subjects, type ExtractResponseDto, type JobFinishedEvent, type JobStatusResponseDto } from '@docket/contracts';
import { S3Storage, storageConfigFromEnv } from '@docket/storage';
import { expectEventually } from '@docket/testing';
import pg from 'pg';
import { ulid } from 'ulid';
import { artifactEnvSchema } from './config.js';
import { ProcessingDeadlineService } from './expiry/processing-deadline.service.js';
import { RetentionPurgeService } from './retention/retention-purge.service.js';
import { startArtifactHarness, type ArtifactHarness } from './testing/artifact-harness.test-helper.js';
import { billingStandIn } from './testing/billing-stand-in.test-helper.js';

jest.setTimeout(60_000);

const acct = () => `acct_${ulid().toLowerCase()}`;
const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true }] };
const BYTES = Buffer.from('%PDF-1.4 pretend invoice bytes');
const MINUTE = 60_000;
/** JOB_PROCESSING_DEADLINE_MS is left at its default (30 minutes). */
const TIMEOUT_ERROR = 'processing_timeout: the job did not finish within 30 minutes; it was not charged';
/** JOB_QUEUE_DEADLINE_MS is left at its default (24 hours). */
const QUEUE_TIMEOUT_ERROR = 'processing_timeout: no worker picked the job up within 24 hours; it was not charged';

const billingStub = billingStandIn();

describe('artifact: processing deadline of queued and running jobs (real Postgres, NATS JetStream, S3)', () => {
  let h: ArtifactHarness;
  let client: pg.Client;
  let finished: JobFinishedEvent[];
  let deadline: ProcessingDeadlineService;
  let storage: S3Storage;

  const call = <T>(subject: string, payload: object) => h.call<T>(subject, payload);
  const jobRow = async (jobId: string) => (await client.query(`SELECT * FROM "artifact"."jobs" WHERE "id" = $1`, [jobId])).rows[0];
  const artifactRow = async (id: string) => (await client.query(`SELECT * FROM "artifact"."artifacts" WHERE "id" = $1`, [id])).rows[0];
  const finishedOutbox = async (jobId: string) =>
    (
      await client.query(`SELECT "payload" FROM "artifact"."outbox" WHERE "subject" = $1 AND "payload"->>'jobId' = $2`, [
        Streams.events.jobFinished,
        jobId,
      ])
    ).rows.map((r) => r.payload as JobFinishedEvent);
  const after = (t: Date, ms: number) => new Date(t.getTime() + ms);

  /** POST /extract + PUT + confirm: the job is `queued_for_processing`; `start` also reports the worker's pickup. */
  async function submit(o: { start?: boolean; retention?: string } = {}) {
    const accountId = acct();
    const sub = await call<ExtractResponseDto>(Subjects.artifact.createExtraction, {
      accountId,
      sandbox: false,
      apiKeyId: 'key_test',
      request: {
        filename: 'slow.pdf',
        artifact_type: 'application/pdf',
        artifact_size: BYTES.length,
        extraction_schema: SCHEMA,
        retention_policy: o.retention,
      },
    });
    expect((await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: BYTES })).status).toBe(200);
    await call(Subjects.artifact.confirmUpload, { accountId, artifactId: sub.artifact_id });
    if (o.start) expect(await call(Subjects.artifact.jobStarted, { jobId: sub.job_id, attempt: 1 })).toEqual({ proceed: true, attempt: 1 });
    const job = await jobRow(sub.job_id);
    expect(job.status).toBe(o.start ? 'running' : 'queued_for_processing');
    return { accountId, artifactId: sub.artifact_id, jobId: sub.job_id };
  }

  beforeAll(async () => {
    h = await startArtifactHarness('artifact_deadline', billingStub.module, { JOB_DEADLINE_SWEEP_MS: '200' });
    ({ finished } = h);
    deadline = h.app.get(ProcessingDeadlineService);
    storage = new S3Storage(storageConfigFromEnv(artifactEnvSchema.parse({ ...h.s3.env, DATABASE_URL: h.db.url })));
    client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
  });

  afterAll(async () => {
    storage?.destroy();
    await client?.end();
    await h?.close();
  });

  it('the sweep started at boot expires a running job past the deadline: processing_timeout, artifact expired, job-finished event (expired) published', async () => {
    const a = await submit({ start: true });
    // The worker picked it up 31 minutes ago and was never heard from again.
    await client.query(`UPDATE "artifact"."jobs" SET "started_at" = now() - interval '31 minutes' WHERE "id" = $1`, [a.jobId]);

    await expectEventually(async () => expect((await jobRow(a.jobId)).status).toBe('expired'), { what: 'job expired by the timer' });
    const job = await jobRow(a.jobId);
    expect(job).toMatchObject({ status: 'expired', error: TIMEOUT_ERROR, result: null, pages: null });
    expect(job.completed_at).toBeInstanceOf(Date);
    expect(await artifactRow(a.artifactId)).toMatchObject({ status: 'expired', status_message: TIMEOUT_ERROR, latest_result: null });
    expect((await artifactRow(a.artifactId)).processed_at).toBeInstanceOf(Date);
    expect(await call<JobStatusResponseDto>(Subjects.artifact.getJob, { accountId: a.accountId, jobId: a.jobId })).toMatchObject({
      status: 'expired',
      error: TIMEOUT_ERROR,
      completed_at: job.completed_at.toISOString(),
    });

    // Billing releases the hold and webhooks fire from the job-finished event: enqueued with the state change, published by the relay.
    const expected = {
      eventId: `fin_${a.jobId}`,
      jobId: a.jobId,
      artifactId: a.artifactId,
      accountId: a.accountId,
      sandbox: false,
      status: 'expired',
      pages: 0,
      result: null,
      confidence: null,
      needsReview: false,
      error: TIMEOUT_ERROR,
      filename: 'slow.pdf',
      finishedAt: job.completed_at.toISOString(),
    };
    expect(await finishedOutbox(a.jobId)).toEqual([expect.objectContaining(expected)]);
    await expectEventually(async () => expect(finished.filter((e) => e.jobId === a.jobId)).toEqual([expect.objectContaining(expected)]), {
      what: 'expired event',
    });
  });

  it('sweep(now): running jobs expire past the processing deadline (from started_at), queued ones only past the queue deadline (from queued_at); terminal jobs are untouched', async () => {
    const running = await submit({ start: true });
    const queued = await submit();
    const done = await submit({ start: true });
    await call(Subjects.artifact.jobOutcome, {
      jobId: done.jobId,
      status: 'success',
      result: { invoice_number: 'INV-1' },
      confidence: 0.9,
      pages: 1,
    });
    const failed = await submit({ start: true });
    await call(Subjects.artifact.jobOutcome, { jobId: failed.jobId, status: 'failed', pages: 0, error: 'corrupt_file: unreadable' });
    // Terminal jobs that started long ago are past any deadline, and stay as they are.
    await client.query(
      `UPDATE "artifact"."jobs" SET "started_at" = now() - interval '2 hours', "queued_at" = now() - interval '2 hours' WHERE "id" = ANY($1)`,
      [[done.jobId, failed.jobId]],
    );
    const doneBefore = await jobRow(done.jobId);
    const failedBefore = await jobRow(failed.jobId);
    const t0 = new Date();

    // 29 minutes on: within the deadline, nothing changes.
    expect(await deadline.sweep(after(t0, 29 * MINUTE))).toBe(0);
    expect(await jobRow(running.jobId)).toMatchObject({ status: 'running', error: null, completed_at: null });
    expect(await jobRow(queued.jobId)).toMatchObject({ status: 'queued_for_processing', error: null, completed_at: null });
    expect(await artifactRow(running.artifactId)).toMatchObject({ status: 'processing' });
    expect(await artifactRow(queued.artifactId)).toMatchObject({ status: 'uploaded' });
    expect(await finishedOutbox(running.jobId)).toEqual([]);
    expect(await finishedOutbox(queued.jobId)).toEqual([]);

    // 31 minutes on: the running job expires; a job merely waiting in the queue does not, nor do the terminal ones.
    const soon = after(t0, 31 * MINUTE);
    expect(await deadline.sweep(soon)).toBe(1);
    expect(await jobRow(queued.jobId)).toMatchObject({ status: 'queued_for_processing', error: null, completed_at: null });
    // A day on, the queued job (its message lost) expires too.
    const now = after(t0, 24 * 60 * MINUTE + MINUTE);
    expect(await deadline.sweep(now)).toBe(1);
    for (const [j, at, error] of [
      [running, soon, TIMEOUT_ERROR],
      [queued, now, QUEUE_TIMEOUT_ERROR],
    ] as const) {
      expect(await jobRow(j.jobId)).toMatchObject({ status: 'expired', error, completed_at: at });
      expect(await artifactRow(j.artifactId)).toMatchObject({ status: 'expired', status_message: error, processed_at: at });
      expect(await finishedOutbox(j.jobId)).toEqual([expect.objectContaining({ status: 'expired', pages: 0, result: null, error })]);
    }
    expect(await jobRow(done.jobId)).toEqual(doneBefore);
    expect(await jobRow(failed.jobId)).toEqual(failedBefore);
    expect(await artifactRow(done.artifactId)).toMatchObject({
      status: 'completed',
      status_message: null,
      latest_result: { invoice_number: 'INV-1' },
    });
    expect(await artifactRow(failed.artifactId)).toMatchObject({ status: 'failed', status_message: 'corrupt_file: unreadable' });
    expect((await finishedOutbox(done.jobId)).map((e) => e.status)).toEqual(['success']);
    expect((await finishedOutbox(failed.jobId)).map((e) => e.status)).toEqual(['failed']);
    // Nothing left to do: a second sweep is a no-op.
    expect(await deadline.sweep(now)).toBe(0);
    await expectEventually(async () => expect(finished.filter((e) => e.jobId === queued.jobId).map((e) => e.status)).toEqual(['expired']), {
      what: 'queued job event',
    });
  });

  it('a late worker report after expiry changes nothing: the outcome is not applied, a redelivery is told to stop, one finished event', async () => {
    const a = await submit({ start: true });
    const now = after(new Date(), 31 * MINUTE);
    expect(await deadline.sweep(now)).toBeGreaterThanOrEqual(1);
    const expiredRow = await jobRow(a.jobId);
    expect(expiredRow).toMatchObject({ status: 'expired', error: TIMEOUT_ERROR });

    // The worker finally reports success (its last delivery survived after all), then a redelivery starts.
    expect(
      await call(Subjects.artifact.jobOutcome, {
        jobId: a.jobId,
        status: 'success',
        result: { invoice_number: 'late' },
        confidence: 0.95,
        needsReview: false,
        pages: 2,
      }),
    ).toEqual({ applied: false });
    expect(
      await call(Subjects.artifact.jobOutcome, { jobId: a.jobId, status: 'failed', pages: 0, error: 'extraction_failed: late' }),
    ).toEqual({ applied: false });
    expect(await call(Subjects.artifact.jobStarted, { jobId: a.jobId, attempt: 2 })).toEqual({ proceed: false });

    expect(await jobRow(a.jobId)).toEqual(expiredRow);
    expect(await artifactRow(a.artifactId)).toMatchObject({
      status: 'expired',
      status_message: TIMEOUT_ERROR,
      latest_result: null,
      confidence: null,
    });
    expect(await call<JobStatusResponseDto>(Subjects.artifact.getJob, { accountId: a.accountId, jobId: a.jobId })).toMatchObject({
      status: 'expired',
      error: TIMEOUT_ERROR,
    });
    expect((await finishedOutbox(a.jobId)).map((e) => e.status)).toEqual(['expired']);
    await expectEventually(async () => expect(finished.filter((e) => e.jobId === a.jobId).map((e) => e.status)).toEqual(['expired']), {
      what: 'expired event',
    });
  });

  it('retention `immediate`: the raw upload of an artifact whose job expired is purged, as after a failed job', async () => {
    const a = await submit({ start: true, retention: 'immediate' });
    const key = (await artifactRow(a.artifactId)).storage_key as string;
    const retention = h.app.get(RetentionPurgeService);
    // In flight: never purged.
    await retention.sweep();
    expect((await artifactRow(a.artifactId)).source_purged_at).toBeNull();
    expect(await storage.head(key)).toBeDefined();

    await deadline.sweep(after(new Date(), 31 * MINUTE));
    expect(await artifactRow(a.artifactId)).toMatchObject({ status: 'expired' });
    await retention.sweep();
    expect((await artifactRow(a.artifactId)).source_purged_at).toBeInstanceOf(Date);
    expect(await storage.head(key)).toBeUndefined();
  });
});
