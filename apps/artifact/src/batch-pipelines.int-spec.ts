import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Controller, Module } from '@nestjs/common';
import { MessagePattern, Payload } from '@nestjs/microservices';
import {
  RegisterOneShotCommand,
  Streams,
  Subjects,
  TemplateSnapshotQuery,
  WebhookRef,
  type ArtifactRecordDto,
  type AsyncJobStartResponseDto,
  type BatchSubmitResponseDto,
  type ConfirmBatchResponseDto,
  type ExtractResponseDto,
  type JobFinishedEvent,
  type JobRunMessage,
  type JobStatusResponseDto,
  type PipelineDto,
  type RegisterOneShotReply,
  type TemplateSnapshot,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { expectEventually } from '@docket/testing';
import pg from 'pg';
import { ulid } from 'ulid';
import { startArtifactHarness, type ArtifactHarness } from './testing/artifact-harness.test-helper.js';
import { billingStandIn } from './testing/billing-stand-in.test-helper.js';

jest.setTimeout(60_000);

const acct = () => `acct_${ulid().toLowerCase()}`;
const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true }] };
const TEMPLATE_FIELDS = [{ key: 'total', label: 'Total', data_type: 'currency' }];
const BYTES = Buffer.from('%PDF-1.4 pretend invoice bytes');

/** Stand-ins for billing, template and webhook: real NATS responders with the real contract classes. */
const billingStub = billingStandIn();
const { batchHolds, broke } = billingStub.record;
@Controller()
class StandIns {
  @MessagePattern(Subjects.template.snapshot)
  snapshot(@Payload() q: TemplateSnapshotQuery): TemplateSnapshot {
    if (!q.templateId.startsWith('tpl_')) throw new DocketError('template_not_found', 'Template not found');
    return {
      template_id: q.templateId,
      version: 3,
      fields: TEMPLATE_FIELDS as TemplateSnapshot['fields'],
      settings: { auto_save: false, confidence_threshold: 0.8, ocr_engine: 'tesseract', default_currency: null, partial_pages: false },
    };
  }

  @MessagePattern(Subjects.webhook.verify)
  verify(@Payload() ref: WebhookRef) {
    if (!ref.webhookId.startsWith('wh_')) throw new DocketError('webhook_not_found', 'Webhook not found');
    return { ok: true };
  }

  @MessagePattern(Subjects.webhook.registerOneShot)
  oneShot(@Payload() _cmd: RegisterOneShotCommand): RegisterOneShotReply {
    return { webhookId: `wh_oneshot_${ulid().toLowerCase()}`, secret: 'whsec_test' };
  }
}
@Module({ imports: [billingStub.module], controllers: [StandIns] })
class StandInModule {}

describe('artifact: batches and pipelines (real Postgres, NATS JetStream, S3)', () => {
  let h: ArtifactHarness;
  let client: pg.Client;
  let runs: JobRunMessage[];
  let finished: JobFinishedEvent[];

  const call = <T>(subject: string, payload: object) => h.call<T>(subject, payload);
  const fail = (subject: string, payload: object) => h.fail(subject, payload);
  const file = (filename: string) => ({ filename, artifact_type: 'application/pdf', artifact_size: BYTES.length });
  const batch = (accountId: string, request: object) =>
    call<BatchSubmitResponseDto>(Subjects.artifact.createBatch, { accountId, sandbox: false, apiKeyId: 'key_test', request });
  const put = async (url: string) =>
    expect((await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: BYTES })).status).toBe(200);
  const count = async (sql: string, params: unknown[]) => Number((await client.query(sql, params)).rows[0].n);
  const job = (accountId: string, jobId: string) => call<JobStatusResponseDto>(Subjects.artifact.getJob, { accountId, jobId });
  const jobRow = async (jobId: string) => (await client.query(`SELECT * FROM "artifact"."jobs" WHERE "id" = $1`, [jobId])).rows[0];

  beforeAll(async () => {
    h = await startArtifactHarness('artifact_batch', StandInModule, { UPLOAD_EXPIRY_SWEEP_MS: '200', UPLOAD_URL_TTL_SECONDS: '60' });
    ({ runs, finished } = h);
    client = new pg.Client({ connectionString: h.db.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await h?.close();
  });

  it('batch: 3 files, one hold call for all, jobs pending with batch_id; confirm queues the uploaded ones only, idempotently', async () => {
    const a = acct();
    const b = await batch(a, { files: [file('a.pdf'), file('b.pdf'), file('c.pdf')], extraction_schema: SCHEMA });
    expect(b).toMatchObject({ batch_id: expect.stringMatching(/^bat_/), total: 3, webhook_signing_secret: null });
    expect(b.files.map((f) => f.filename)).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
    expect(batchHolds.filter((h) => h.accountId === a)).toHaveLength(1);
    expect(batchHolds.find((h) => h.accountId === a)!.items.map((i) => i.jobId)).toEqual(b.files.map((f) => f.job_id));
    for (const f of b.files) {
      expect(await job(a, f.job_id)).toMatchObject({ status: 'pending' });
      expect(await jobRow(f.job_id)).toMatchObject({ batch_id: b.batch_id, hold_amount: 5 });
    }
    await put(b.files[0].upload_url);
    await put(b.files[1].upload_url);

    const first = await call<ConfirmBatchResponseDto>(Subjects.artifact.confirmBatch, { accountId: a, batchId: b.batch_id });
    expect(first).toEqual({
      batch_id: b.batch_id,
      confirmed: [b.files[0].artifact_id, b.files[1].artifact_id].sort(),
      pending: [b.files[2].artifact_id],
      already_confirmed: [],
      closed: [],
    });
    expect(await job(a, b.files[0].job_id)).toMatchObject({ status: 'queued_for_processing' });
    expect(await job(a, b.files[2].job_id)).toMatchObject({ status: 'pending' });
    expect((await call<ArtifactRecordDto>(Subjects.artifact.get, { accountId: a, artifactId: b.files[2].artifact_id })).status).toBe(
      'pending_upload',
    );

    // A second call skips the confirmed ones and picks up the straggler.
    await put(b.files[2].upload_url);
    const second = await call<ConfirmBatchResponseDto>(Subjects.artifact.confirmBatch, { accountId: a, batchId: b.batch_id });
    expect(second).toMatchObject({
      confirmed: [b.files[2].artifact_id],
      pending: [],
      already_confirmed: [b.files[0].artifact_id, b.files[1].artifact_id].sort(),
    });
    await expectEventually(async () => expect(runs.filter((r) => b.files.some((f) => f.job_id === r.jobId))).toHaveLength(3), {
      what: 'three runs',
    });
    // An inline schema has no template settings: the OCR engine is the worker's default.
    expect(runs.filter((r) => b.files.some((f) => f.job_id === r.jobId)).map((r) => r.ocrEngine)).toEqual([
      'default',
      'default',
      'default',
    ]);
    // Exactly one run per file was ever enqueued (the outbox is the only way onto the stream).
    const queued = await client.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM "artifact"."outbox" WHERE "subject" = $1 AND "payload"->>'jobId' = ANY($2)`,
      [Streams.jobs.run, b.files.map((f) => f.job_id)],
    );
    expect(queued.rows[0]!.count).toBe(3);

    // batch_id reaches the job-finished event (webhook payloads carry it).
    const j = b.files[0].job_id;
    expect(await call(Subjects.artifact.jobStarted, { jobId: j, attempt: 1 })).toEqual({ proceed: true, attempt: 1 });
    await call(Subjects.artifact.jobOutcome, { jobId: j, status: 'success', result: { invoice_number: 'X' }, confidence: 0.9, pages: 1 });
    await expectEventually(
      async () => expect(finished.find((e) => e.jobId === j)).toMatchObject({ batchId: b.batch_id, status: 'success' }),
      { what: 'finished event' },
    );
  });

  it('batch rules: 0 / 51 files, duplicate filenames, template + schema → 400; nothing created', async () => {
    const a = acct();
    const many = Array.from({ length: 51 }, (_, i) => file(`f${i}.pdf`));
    expect(
      await fail(Subjects.artifact.createBatch, { accountId: a, sandbox: false, request: { files: [], extraction_schema: SCHEMA } }),
    ).toMatchObject({ code: 'validation_failed' });
    expect(
      await fail(Subjects.artifact.createBatch, { accountId: a, sandbox: false, request: { files: many, extraction_schema: SCHEMA } }),
    ).toMatchObject({ code: 'validation_failed' });
    expect(
      await fail(Subjects.artifact.createBatch, {
        accountId: a,
        sandbox: false,
        request: { files: [file('x.pdf'), file('x.pdf')], extraction_schema: SCHEMA },
      }),
    ).toMatchObject({ code: 'duplicate_filename', details: { duplicate_filenames: ['x.pdf'] } });
    expect(
      await fail(Subjects.artifact.createBatch, {
        accountId: a,
        sandbox: false,
        request: { files: [file('x.pdf')], extraction_schema: SCHEMA, template_id: 'tpl_1' },
      }),
    ).toMatchObject({ code: 'template_and_schema_both_set' });
    expect(
      await fail(Subjects.artifact.createBatch, { accountId: a, sandbox: false, request: { files: [file('x.pdf')], template_id: 'nope' } }),
    ).toMatchObject({ code: 'template_not_found' });
    expect(
      await fail(Subjects.artifact.createBatch, {
        accountId: a,
        sandbox: false,
        request: { files: [file('x.pdf')], extraction_schema: SCHEMA, webhook_id: 'nope' },
      }),
    ).toMatchObject({ code: 'webhook_not_found' });
    expect(await count(`SELECT count(*) AS n FROM "artifact"."artifacts" WHERE "account_id" = $1`, [a])).toBe(0);
    expect(await count(`SELECT count(*) AS n FROM "artifact"."batches" WHERE "account_id" = $1`, [a])).toBe(0);
  });

  it('batch refused by billing (402) leaves no batch, artifact or job behind', async () => {
    const a = acct();
    broke.add(a);
    expect(
      await fail(Subjects.artifact.createBatch, {
        accountId: a,
        sandbox: false,
        request: { files: [file('a.pdf'), file('b.pdf')], extraction_schema: SCHEMA },
      }),
    ).toMatchObject({ code: 'wallet_frozen' });
    for (const t of ['artifacts', 'jobs', 'batches'])
      expect(await count(`SELECT count(*) AS n FROM "artifact"."${t}" WHERE "account_id" = $1`, [a])).toBe(0);
    broke.delete(a);
  });

  it("confirm-batch: unknown or another account's batch → 404; a never-uploaded file expires with its batch (hold released via the event)", async () => {
    const a = acct();
    const b = await batch(a, { files: [file('late.pdf')], extraction_schema: SCHEMA, webhook_url: 'https://hooks.example.com/x' });
    expect(b.webhook_signing_secret).toBe('whsec_test');
    expect(await fail(Subjects.artifact.confirmBatch, { accountId: acct(), batchId: b.batch_id })).toMatchObject({
      code: 'batch_not_found',
    });
    expect(await fail(Subjects.artifact.confirmBatch, { accountId: a, batchId: 'bat_unknown' })).toMatchObject({ code: 'batch_not_found' });
    // Upload window over: the sweep expires the job; billing releases its hold from the finished event.
    await client.query(`UPDATE "artifact"."jobs" SET "upload_expires_at" = now() - interval '1 second' WHERE "batch_id" = $1`, [
      b.batch_id,
    ]);
    await expectEventually(
      async () => expect(finished.find((e) => e.jobId === b.files[0].job_id)).toMatchObject({ status: 'expired', batchId: b.batch_id }),
      { what: 'expired event' },
    );
    expect(await call(Subjects.artifact.confirmBatch, { accountId: a, batchId: b.batch_id })).toMatchObject({
      closed: [b.files[0].artifact_id],
      pending: [],
      confirmed: [],
    });
  });

  it('pipelines: default created once on first use; lists; configurable; defaults apply to /extract and batch', async () => {
    const a = acct();
    const [l1, l2] = await Promise.all([
      call<PipelineDto[]>(Subjects.artifact.listPipelines, { accountId: a }),
      call<PipelineDto[]>(Subjects.artifact.listPipelines, { accountId: a }),
    ]);
    expect(l1).toEqual(l2);
    expect(l1).toEqual([
      {
        id: expect.stringMatching(/^pipe_/),
        name: 'Default pipeline',
        is_active: true,
        is_default: true,
        template_id: 'auto',
        webhook_id: null,
        execution_count: 0,
        created_at: expect.any(String),
      },
    ]);
    const pipeId = l1[0].id;

    // The built-in `auto` template is the default: /extract without template/schema works out of the box.
    const bare = { filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: BYTES.length };
    const auto = await call<ExtractResponseDto>(Subjects.artifact.createExtraction, { accountId: a, sandbox: false, request: bare });
    expect(await jobRow(auto.job_id)).toMatchObject({ template_id: 'auto', template_version: 1 });
    // Cleared (the `default` alias names the account's default pipeline): a 400 that says so.
    expect(await call(Subjects.artifact.updatePipeline, { accountId: a, pipelineId: 'default', template_id: null })).toMatchObject({
      id: pipeId,
      template_id: null,
    });
    expect(await fail(Subjects.artifact.createExtraction, { accountId: a, sandbox: false, request: bare })).toMatchObject({
      code: 'no_default_template',
      details: { reason: 'no_default_template' },
    });

    expect(await fail(Subjects.artifact.updatePipeline, { accountId: a, pipelineId: pipeId, template_id: 'nope' })).toMatchObject({
      code: 'template_not_found',
    });
    expect(await fail(Subjects.artifact.updatePipeline, { accountId: acct(), pipelineId: pipeId, name: 'x' })).toMatchObject({
      code: 'forbidden',
    });
    const updated = await call<PipelineDto>(Subjects.artifact.updatePipeline, {
      accountId: a,
      pipelineId: pipeId,
      template_id: 'tpl_default',
      webhook_id: 'wh_default',
    });
    expect(updated).toMatchObject({ id: pipeId, template_id: 'tpl_default', webhook_id: 'wh_default', is_default: true });

    const ex = await call<ExtractResponseDto>(Subjects.artifact.createExtraction, { accountId: a, sandbox: false, request: bare });
    // The template's settings travel with the job (the worker gets them from the job row via the run message).
    expect(await jobRow(ex.job_id)).toMatchObject({
      template_id: 'tpl_default',
      template_version: 3,
      webhook_id: 'wh_default',
      confidence_threshold: 0.8,
      ocr_engine: 'tesseract',
    });
    // Request webhook_id wins over the pipeline's; a one-shot URL too.
    const ex2 = await call<ExtractResponseDto>(Subjects.artifact.createExtraction, {
      accountId: a,
      sandbox: false,
      request: { ...bare, webhook_id: 'wh_mine', extraction_schema: SCHEMA },
    });
    expect(await jobRow(ex2.job_id)).toMatchObject({ template_id: null, webhook_id: 'wh_mine', ocr_engine: 'default' });
    const ex3 = await call<ExtractResponseDto>(Subjects.artifact.createExtraction, {
      accountId: a,
      sandbox: false,
      request: { ...bare, webhook_url: 'https://hooks.example.com/y' },
    });
    expect((await jobRow(ex3.job_id)).webhook_id).toMatch(/^wh_oneshot_/);
    const b = await batch(a, { files: [file('p.pdf')] });
    expect(await jobRow(b.files[0].job_id)).toMatchObject({
      template_id: 'tpl_default',
      webhook_id: 'wh_default',
      ocr_engine: 'tesseract',
    });

    expect((await call<PipelineDto[]>(Subjects.artifact.listPipelines, { accountId: a }))[0].execution_count).toBe(5);
  });

  it("pipeline_async: runs under the named pipeline, no artifact_id, overrides apply; missing/inactive → 404, another account's → 403", async () => {
    const a = acct();
    const [p] = await call<PipelineDto[]>(Subjects.artifact.listPipelines, { accountId: a });
    await call(Subjects.artifact.updatePipeline, { accountId: a, pipelineId: p.id, template_id: 'tpl_pipe' });
    const req = { pipeline_id: p.id, filename: 'p.pdf', artifact_type: 'application/pdf', artifact_size: BYTES.length };
    const r = await call<AsyncJobStartResponseDto>(Subjects.artifact.createPipelineJob, { accountId: a, sandbox: false, request: req });
    expect(Object.keys(r).sort()).toEqual(['expires_in', 'fields', 'job_id', 'upload_url', 'webhook_signing_secret']);
    expect(r.expires_in).toBe(60);
    expect(await jobRow(r.job_id)).toMatchObject({ template_id: 'tpl_pipe' });
    // Same upload and confirm flow as /extract.
    await put(r.upload_url);
    const artifactId = (await jobRow(r.job_id)).artifact_id;
    expect(await call<ArtifactRecordDto>(Subjects.artifact.confirmUpload, { accountId: a, artifactId })).toMatchObject({
      status: 'uploaded',
    });

    const over = await call<AsyncJobStartResponseDto>(Subjects.artifact.createPipelineJob, {
      accountId: a,
      sandbox: false,
      request: { ...req, template_id: 'tpl_other' },
    });
    expect(await jobRow(over.job_id)).toMatchObject({ template_id: 'tpl_other' });
    expect(
      await fail(Subjects.artifact.createPipelineJob, {
        accountId: a,
        sandbox: false,
        request: { ...req, template_id: 'tpl_x', extraction_schema: SCHEMA },
      }),
    ).toMatchObject({ code: 'template_and_schema_both_set' });
    expect(
      await fail(Subjects.artifact.createPipelineJob, { accountId: a, sandbox: false, request: { ...req, pipeline_id: 'pipe_missing' } }),
    ).toMatchObject({ code: 'pipeline_not_found' });
    expect(await fail(Subjects.artifact.createPipelineJob, { accountId: acct(), sandbox: false, request: req })).toMatchObject({
      code: 'forbidden',
    });
    await call(Subjects.artifact.updatePipeline, { accountId: a, pipelineId: p.id, is_active: false });
    expect(await fail(Subjects.artifact.createPipelineJob, { accountId: a, sandbox: false, request: req })).toMatchObject({
      code: 'pipeline_not_found',
    });
    expect((await call<PipelineDto[]>(Subjects.artifact.listPipelines, { accountId: a }))[0]).toMatchObject({
      is_active: false,
      execution_count: 2,
    });
  });
});
