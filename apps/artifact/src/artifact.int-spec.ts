import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  resultKeys,
  Streams,
  Subjects,
  type ArtifactPageDto,
  type ArtifactRecordDto,
  type DownloadResponseDto,
  type ExtractResponseDto,
  type JobFinishedEvent,
  type JobRunMessage,
  type JobStatusResponseDto,
  type RerunResponseDto,
} from '@docket/contracts';
import { createServiceDataSource } from '@docket/database';
import { S3Storage, storageConfigFromEnv } from '@docket/storage';
import { expectEventually } from '@docket/testing';
import { ulid } from 'ulid';
import type { DataSource } from 'typeorm';
import { artifactEntities } from './bootstrap.js';
import { startArtifactHarness, type ArtifactHarness } from './testing/artifact-harness.test-helper.js';
import { billingStandIn } from './testing/billing-stand-in.test-helper.js';
import { ARTIFACT_SCHEMA, artifactEnvSchema } from './config.js';
import { artifactMigrations } from './migrations/index.js';

jest.setTimeout(60_000);

const acct = () => `acct_${ulid().toLowerCase()}`;
const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true }] };
const BYTES = Buffer.from('%PDF-1.4 pretend invoice bytes');

/** Stand-in `billing`: a real NATS responder with the real contract classes, recording holds. */
const billingStub = billingStandIn();
const { holds, broke } = billingStub.record;

describe('artifact service (real Postgres, NATS JetStream, S3)', () => {
  let h: ArtifactHarness;
  let storage: S3Storage;
  let ds: DataSource;
  let runs: JobRunMessage[];
  let finished: JobFinishedEvent[];

  const call = <T>(subject: string, payload: object) => h.call<T>(subject, payload);
  const fail = (subject: string, payload: object) => h.fail(subject, payload);

  beforeAll(async () => {
    h = await startArtifactHarness('artifact', billingStub.module, { RETENTION_SWEEP_MS: '200' });
    ({ runs, finished } = h);
    storage = new S3Storage(storageConfigFromEnv(artifactEnvSchema.parse({ ...h.s3.env, DATABASE_URL: h.db.url })));
    ds = createServiceDataSource({ url: h.db.url, schema: ARTIFACT_SCHEMA, entities: artifactEntities, migrations: artifactMigrations });
    await ds.initialize();
  });

  afterAll(async () => {
    storage?.destroy();
    if (ds?.isInitialized) await ds.destroy();
    await h?.close();
  });

  /** POST /extract + PUT + (optionally) confirm, as a client would. */
  async function submit(accountId: string, o: { retention?: string; confirm?: boolean; filename?: string } = {}) {
    const sub = await call<ExtractResponseDto>(Subjects.artifact.createExtraction, {
      accountId,
      sandbox: false,
      apiKeyId: 'key_test',
      request: {
        filename: o.filename ?? 'invoice.pdf',
        artifact_type: 'application/pdf',
        artifact_size: BYTES.length,
        extraction_schema: SCHEMA,
        retention_policy: o.retention,
      },
    });
    const put = await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: BYTES });
    expect(put.status).toBe(200);
    if (o.confirm !== false) await call(Subjects.artifact.confirmUpload, { accountId, artifactId: sub.artifact_id });
    return { accountId, artifactId: sub.artifact_id, jobId: sub.job_id };
  }

  /** What the worker does: started, result objects in storage, outcome. */
  async function complete(a: { accountId: string; artifactId: string }, jobId: string) {
    expect(await call(Subjects.artifact.jobStarted, { jobId, attempt: 1 })).toEqual({ proceed: true, attempt: 1 });
    const keys = resultKeys(a.accountId, a.artifactId, jobId);
    await storage.put(keys.json, JSON.stringify({ job_id: jobId, result: { invoice_number: 'INV-1' } }), 'application/json');
    await storage.put(keys.markdown, '# invoice\n', 'text/markdown; charset=utf-8');
    return call(Subjects.artifact.jobOutcome, {
      jobId,
      status: 'success',
      result: { invoice_number: 'INV-1' },
      resultKey: keys.json,
      markdownKey: keys.markdown,
      confidence: 0.9,
      needsReview: false,
      pages: 1,
    });
  }

  const record = (ref: { accountId: string; artifactId: string }) => call<ArtifactRecordDto>(Subjects.artifact.get, ref);
  const ref = (a: { accountId: string; artifactId: string }) => ({ accountId: a.accountId, artifactId: a.artifactId });

  it('has no pending migrations and entities match the migrations', async () => {
    expect(await ds.showMigrations()).toBe(false);
    expect((await ds.driver.createSchemaBuilder().log()).upQueries).toEqual([]);
  });

  it('confirm-upload is idempotent: one job, queued once', async () => {
    const a = await submit(acct());
    const again = await call<ArtifactRecordDto>(Subjects.artifact.confirmUpload, ref(a));
    expect(again.jobs).toHaveLength(1);
    await expectEventually(async () => expect(runs.filter((r) => r.jobId === a.jobId)).toHaveLength(1), { what: 'run published' });
    expect(runs.find((r) => r.jobId === a.jobId)!.ocrEngine).toBe('default');
    // Exactly one run was ever enqueued (the outbox is the only way onto the stream).
    const rows: { count: number }[] = await ds.query(
      `SELECT count(*)::int AS count FROM "artifact"."outbox" WHERE "subject" = $1 AND "payload"->>'jobId' = $2`,
      [Streams.jobs.run, a.jobId],
    );
    expect(rows[0]!.count).toBe(1);
  });

  it("lists the account's artifacts newest first, paged, and nobody else's", async () => {
    const A = acct();
    const B = acct();
    const first = await submit(A, { filename: 'one.pdf' });
    const second = await submit(A, { filename: 'two.pdf', confirm: false });
    const third = await submit(A, { filename: 'three.pdf' });
    await submit(B);

    const p1 = await call<ArtifactPageDto>(Subjects.artifact.list, { accountId: A, page: 1, size: 2 });
    expect(p1).toMatchObject({ total: 3, page: 1, size: 2, pages: 2 });
    expect(p1.items.map((i) => i.id)).toEqual([third.artifactId, second.artifactId]);
    expect(p1.items[0]).toEqual({
      id: third.artifactId,
      filename: 'three.pdf',
      artifact_type: 'application/pdf',
      artifact_size: BYTES.length,
      status: 'uploaded',
      uploaded_at: expect.any(String),
      confidence: null,
      needs_review: false,
    });
    expect(p1.items[1]).toMatchObject({ status: 'pending_upload', uploaded_at: null });
    const p2 = await call<ArtifactPageDto>(Subjects.artifact.list, { accountId: A, page: 2, size: 2 });
    expect(p2.items.map((i) => i.id)).toEqual([first.artifactId]);
    expect(await call<ArtifactPageDto>(Subjects.artifact.list, { accountId: A, page: 3, size: 2 })).toMatchObject({
      items: [],
      total: 3,
      pages: 2,
    });
    expect((await call<ArtifactPageDto>(Subjects.artifact.list, { accountId: B, page: 1, size: 50 })).total).toBe(1);
    expect(await call<ArtifactPageDto>(Subjects.artifact.list, { accountId: acct(), page: 1, size: 50 })).toEqual({
      items: [],
      total: 0,
      page: 1,
      size: 50,
      pages: 0,
    });
    expect(await fail(Subjects.artifact.list, { accountId: A, page: 1, size: 101 })).toMatchObject({ code: 'invalid_payload' });
    expect(await fail(Subjects.artifact.list, { accountId: A, page: 0, size: 10 })).toMatchObject({ code: 'invalid_payload' });
  });

  it('gets the record and the status; another account gets 403 everywhere, an unknown id 404', async () => {
    const a = await submit(acct());
    const rec = await record(ref(a));
    expect(rec).toMatchObject({
      id: a.artifactId,
      status: 'uploaded',
      retention_policy: '30d',
      tags: [],
      description: null,
      jobs: [{ job_id: a.jobId, status: 'queued_for_processing' }],
    });
    expect(await call(Subjects.artifact.getStatus, ref(a))).toEqual({
      id: a.artifactId,
      status: 'uploaded',
      processed_at: null,
      status_message: null,
    });

    const intruder = { accountId: acct(), artifactId: a.artifactId };
    for (const subject of [Subjects.artifact.get, Subjects.artifact.getStatus, Subjects.artifact.delete, Subjects.artifact.cancel]) {
      expect(await fail(subject, intruder)).toMatchObject({ code: 'forbidden' });
    }
    expect(await fail(Subjects.artifact.update, { ...intruder, body: { tags: ['x'] } })).toMatchObject({ code: 'forbidden' });
    expect(await fail(Subjects.artifact.download, { ...intruder, fileType: 'raw' })).toMatchObject({ code: 'forbidden' });
    expect(await fail(Subjects.artifact.rerun, { ...intruder, sandbox: false })).toMatchObject({ code: 'forbidden' });
    expect(await fail(Subjects.artifact.get, { accountId: a.accountId, artifactId: 'art_unknown' })).toMatchObject({
      code: 'artifact_not_found',
    });
    // The intruder changed nothing.
    expect(await record(ref(a))).toEqual(rec);
  });

  it('patches filename, description and tags only', async () => {
    const a = await submit(acct());
    const updated = await call<ArtifactRecordDto>(Subjects.artifact.update, {
      ...ref(a),
      body: { filename: 'march.pdf', description: 'March invoice', tags: ['acme', 'q1'], status: 'completed', artifact_size: 1 },
    });
    expect(updated).toMatchObject({
      filename: 'march.pdf',
      description: 'March invoice',
      tags: ['acme', 'q1'],
      status: 'uploaded',
      artifact_size: BYTES.length,
    });
    expect(await record(ref(a))).toMatchObject({ filename: 'march.pdf', description: 'March invoice', tags: ['acme', 'q1'] });
    expect(await call(Subjects.artifact.update, { ...ref(a), body: { tags: [] } })).toMatchObject({ filename: 'march.pdf', tags: [] });
    expect(await fail(Subjects.artifact.update, { ...ref(a), body: { filename: 'ab' } })).toMatchObject({ code: 'invalid_payload' });
    expect(await fail(Subjects.artifact.update, { ...ref(a), body: { description: 'x'.repeat(1001) } })).toMatchObject({
      code: 'invalid_payload',
    });
    expect(await fail(Subjects.artifact.update, { ...ref(a), body: { tags: [1] } })).toMatchObject({ code: 'invalid_payload' });
  });

  it('downloads raw at once and json / md after a successful job', async () => {
    const a = await submit(acct(), { filename: 'inv.pdf' });
    expect(await fail(Subjects.artifact.download, { ...ref(a), fileType: 'json' })).toMatchObject({ code: 'not_found' });
    const raw = await call<DownloadResponseDto>(Subjects.artifact.download, { ...ref(a), fileType: 'raw' });
    expect(raw).toMatchObject({ artifact_id: a.artifactId, filename: 'inv.pdf', expires_in: 300 });
    expect(Buffer.from(await (await fetch(raw.download_url)).arrayBuffer())).toEqual(BYTES);

    expect(await complete(a, a.jobId)).toEqual({ applied: true });
    const json = await call<DownloadResponseDto>(Subjects.artifact.download, { ...ref(a), fileType: 'json' });
    expect(json).toMatchObject({ filename: 'inv.json', expires_in: 300 });
    expect(await (await fetch(json.download_url)).json()).toMatchObject({ result: { invoice_number: 'INV-1' } });
    const md = await call<DownloadResponseDto>(Subjects.artifact.download, { ...ref(a), fileType: 'md' });
    expect(await (await fetch(md.download_url)).text()).toBe('# invoice\n');
    expect(await call(Subjects.artifact.getStatus, ref(a))).toMatchObject({ status: 'completed', processed_at: expect.any(String) });
  });

  it('cancels an in-flight job: hold released via the event, later worker reports ignored, second cancel 409', async () => {
    const a = await submit(acct());
    expect(await call(Subjects.artifact.jobStarted, { jobId: a.jobId, attempt: 1 })).toEqual({ proceed: true, attempt: 1 });
    // A redelivery after a crash is the job's second attempt, counted here whatever JetStream's delivery count says.
    expect(await call(Subjects.artifact.jobStarted, { jobId: a.jobId, attempt: 7 })).toEqual({ proceed: true, attempt: 2 });
    const cancelled = await call<JobStatusResponseDto>(Subjects.artifact.cancel, ref(a));
    expect(cancelled).toMatchObject({ job_id: a.jobId, status: 'cancelled', completed_at: expect.any(String) });
    expect(cancelled.result).toBeUndefined();
    await expectEventually(
      async () =>
        expect(finished.find((e) => e.jobId === a.jobId)).toMatchObject({ status: 'cancelled', accountId: a.accountId, pages: 0 }),
      { what: 'cancel event' },
    );

    // Terminal jobs never change: the worker's late outcome is not applied.
    expect(
      await call(Subjects.artifact.jobOutcome, { jobId: a.jobId, status: 'success', result: { invoice_number: 'late' }, pages: 1 }),
    ).toEqual({ applied: false });
    expect(await call(Subjects.artifact.jobStarted, { jobId: a.jobId, attempt: 2 })).toEqual({ proceed: false });
    expect(await call(Subjects.artifact.getJob, { accountId: a.accountId, jobId: a.jobId })).toMatchObject({ status: 'cancelled' });
    expect(await record(ref(a))).toMatchObject({ status: 'cancelled', latest_result: null });
    expect(finished.filter((e) => e.jobId === a.jobId)).toHaveLength(1);

    expect(await fail(Subjects.artifact.cancel, ref(a))).toMatchObject({ code: 'job_terminal' });
  });

  it('reruns from a terminal state only: new job, same schema, new hold, old jobs kept; 402 passes through', async () => {
    const a = await submit(acct());
    expect(await fail(Subjects.artifact.rerun, { ...ref(a), sandbox: false })).toMatchObject({ code: 'conflict' });
    await complete(a, a.jobId);

    const rerun = await call<RerunResponseDto>(Subjects.artifact.rerun, { ...ref(a), sandbox: false, apiKeyId: 'key_test' });
    expect(rerun).toEqual({ job_id: expect.stringMatching(/^job_/), artifact_id: a.artifactId, status: 'queued_for_processing' });
    expect(rerun.job_id).not.toBe(a.jobId);
    expect(holds.filter((h) => h.accountId === a.accountId).map((h) => h.jobId)).toEqual([a.jobId, rerun.job_id]);
    const run = await expectEventually(
      async () => {
        const r = runs.find((m) => m.jobId === rerun.job_id);
        expect(r).toBeDefined();
        return r!;
      },
      { what: 'rerun published' },
    );
    expect(run).toMatchObject({
      artifactId: a.artifactId,
      schema: SCHEMA,
      sourceKey: expect.stringContaining(a.artifactId),
      ocrEngine: 'default',
    });

    const rec = await record(ref(a));
    expect(rec.status).toBe('uploaded');
    expect(rec.jobs.map((j) => [j.job_id, j.status])).toEqual([
      [a.jobId, 'success'],
      [rerun.job_id, 'queued_for_processing'],
    ]);
    expect(rec.latest_result).toEqual({ invoice_number: 'INV-1' });
    expect(await fail(Subjects.artifact.rerun, { ...ref(a), sandbox: false })).toMatchObject({ code: 'conflict' });

    // Cancel, then a rerun the wallet cannot cover: 402, no job created.
    await call(Subjects.artifact.cancel, ref(a));
    broke.add(a.accountId);
    expect(await fail(Subjects.artifact.rerun, { ...ref(a), sandbox: false })).toMatchObject({ code: 'insufficient_funds' });
    broke.delete(a.accountId);
    expect((await record(ref(a))).jobs).toHaveLength(2);

    // A never-uploaded (expired) artifact has nothing to rerun.
    const pending = await submit(acct(), { confirm: false });
    await call(Subjects.artifact.cancel, ref(pending));
    expect(await fail(Subjects.artifact.rerun, { ...ref(pending), sandbox: false })).toMatchObject({ code: 'conflict' });
  });

  it('purges raw uploads past their retention: download raw 404, json still works, rerun 400; never is kept', async () => {
    const due = await submit(acct(), { retention: '1d' });
    const kept = await submit(acct(), { retention: 'never' });
    const fresh = await submit(acct(), { retention: '1d' });
    for (const a of [due, kept, fresh]) await complete(a, a.jobId);
    const rawKey = (await ds.query(`SELECT storage_key FROM "artifact"."artifacts" WHERE id = $1`, [due.artifactId]))[0]
      .storage_key as string;
    await ds.query(`UPDATE "artifact"."artifacts" SET uploaded_at = now() - interval '25 hours' WHERE id = ANY($1)`, [
      [due.artifactId, kept.artifactId],
    ]);

    await expectEventually(
      async () => {
        const rows = await ds.query(`SELECT id, source_purged_at FROM "artifact"."artifacts" WHERE id = ANY($1)`, [
          [due.artifactId, kept.artifactId, fresh.artifactId],
        ]);
        const purged = Object.fromEntries(
          rows.map((r: { id: string; source_purged_at: Date | null }) => [r.id, r.source_purged_at !== null]),
        );
        expect(purged).toEqual({ [due.artifactId]: true, [kept.artifactId]: false, [fresh.artifactId]: false });
      },
      { what: 'retention sweep' },
    );
    expect(await storage.head(rawKey)).toBeUndefined();
    expect(await fail(Subjects.artifact.download, { ...ref(due), fileType: 'raw' })).toMatchObject({ code: 'not_found' });
    await expect(call(Subjects.artifact.download, { ...ref(due), fileType: 'json' })).resolves.toMatchObject({
      artifact_id: due.artifactId,
    });
    expect(await fail(Subjects.artifact.rerun, { ...ref(due), sandbox: false })).toMatchObject({ code: 'source_purged' });
    await expect(call(Subjects.artifact.download, { ...ref(kept), fileType: 'raw' })).resolves.toMatchObject({ expires_in: 300 });
  });

  it('purges an `immediate` upload whose job was cancelled (every policy purges in every terminal state)', async () => {
    const a = await submit(acct(), { retention: 'immediate' });
    const rawKey = (await ds.query(`SELECT storage_key FROM "artifact"."artifacts" WHERE id = $1`, [a.artifactId]))[0]
      .storage_key as string;
    await call(Subjects.artifact.cancel, ref(a));
    await expectEventually(
      async () => {
        const [row] = await ds.query(`SELECT status, source_purged_at FROM "artifact"."artifacts" WHERE id = $1`, [a.artifactId]);
        expect({ status: row.status, purged: row.source_purged_at !== null }).toEqual({ status: 'cancelled', purged: true });
      },
      { what: 'retention sweep of a cancelled artifact' },
    );
    expect(await storage.head(rawKey)).toBeUndefined();
  });

  it('deletes record, jobs and objects; an in-flight job is cancelled first and its late results are dropped', async () => {
    const done = await submit(acct());
    await complete(done, done.jobId);
    const keys = resultKeys(done.accountId, done.artifactId, done.jobId);
    const rawKey = (await ds.query(`SELECT storage_key FROM "artifact"."artifacts" WHERE id = $1`, [done.artifactId]))[0]
      .storage_key as string;
    expect(await call(Subjects.artifact.delete, ref(done))).toEqual({ deleted: true });
    expect(await fail(Subjects.artifact.get, ref(done))).toMatchObject({ code: 'artifact_not_found' });
    expect(await fail(Subjects.artifact.delete, ref(done))).toMatchObject({ code: 'artifact_not_found' });
    for (const key of [rawKey, keys.json, keys.markdown]) expect(await storage.head(key)).toBeUndefined();
    expect(await ds.query(`SELECT id FROM "artifact"."jobs" WHERE artifact_id = $1`, [done.artifactId])).toEqual([]);
    // The outbox relay is asynchronous: wait for the success event; deleting a finished job adds no other event.
    await expectEventually(async () => expect(finished.filter((e) => e.jobId === done.jobId).map((e) => e.status)).toEqual(['success']), {
      what: 'success event only',
    });

    const running = await submit(acct());
    expect(await call(Subjects.artifact.jobStarted, { jobId: running.jobId, attempt: 1 })).toEqual({ proceed: true, attempt: 1 });
    await call(Subjects.artifact.delete, ref(running));
    await expectEventually(async () => expect(finished.find((e) => e.jobId === running.jobId)).toMatchObject({ status: 'cancelled' }), {
      what: 'cancel event of deleted job',
    });
    // The worker finishes anyway: its objects are removed and nothing is applied.
    const late = resultKeys(running.accountId, running.artifactId, running.jobId);
    await storage.put(late.json, '{}', 'application/json');
    expect(
      await call(Subjects.artifact.jobOutcome, { jobId: running.jobId, status: 'success', result: {}, resultKey: late.json, pages: 1 }),
    ).toEqual({ applied: false });
    expect(await storage.head(late.json)).toBeUndefined();
    expect(await call(Subjects.artifact.jobStarted, { jobId: running.jobId, attempt: 2 })).toEqual({ proceed: false });
  });
});
