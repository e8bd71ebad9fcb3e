import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  Streams,
  Subjects,
  type ExemplarPageDto,
  type ExtractResponseDto,
  type JobExemplarsReply,
  type JobStatusResponseDto,
  type LayoutLearnMessage,
  type LearnSourceReply,
} from '@docket/contracts';
import { JetStreamBus } from '@docket/messaging';
import { expectEventually, testLogger } from '@docket/testing';
import { ulid } from 'ulid';
import { startArtifactHarness, type ArtifactHarness } from './testing/artifact-harness.test-helper.js';
import { billingStandIn } from './testing/billing-stand-in.test-helper.js';

jest.setTimeout(60_000);

// Invented values; the exemplar data is opaque to artifact (the engine's fingerprint and anchors).
const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string' }] };
const BYTES = Buffer.from('%PDF-1.4 pretend invoice bytes');
const LEARNED = { fingerprint: { ids: [], header: ['0a1b2c3d4e5f6a7b'] }, anchors: [{ key: 'invoice_number', page: 1 }] };
const billingStub = billingStandIn();

describe('artifact: layout memory (exemplars per account, learning queued with the confirmation, ADR 0014)', () => {
  let h: ArtifactHarness;
  let bus: JetStreamBus;
  const learns: LayoutLearnMessage[] = [];

  beforeAll(async () => {
    h = await startArtifactHarness('artifact_memory', billingStub.module);
    bus = new JetStreamBus(h.nats.url, testLogger(), 'artifact-memory-test');
    await bus.connect();
    await bus.consume<LayoutLearnMessage>({
      stream: Streams.jobs.name,
      durable: 'test-learn',
      filterSubject: Streams.jobs.learn,
      ackWaitMs: 30_000,
      maxDeliver: 1,
      handler: async (m) => {
        learns.push(m);
        return { ack: true };
      },
    });
  });

  afterAll(async () => {
    await bus?.close();
    await h?.close();
  });

  /** A successful job of a new account, as the worker would report it. */
  async function succeeded(): Promise<{ accountId: string; jobId: string; artifactId: string }> {
    const accountId = `acct_${ulid().toLowerCase()}`;
    const sub = await h.call<ExtractResponseDto>(Subjects.artifact.createExtraction, {
      accountId,
      sandbox: false,
      apiKeyId: 'key_test',
      request: { filename: 'invoice.pdf', artifact_type: 'application/pdf', artifact_size: BYTES.length, extraction_schema: SCHEMA },
    });
    await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: BYTES });
    await h.call(Subjects.artifact.confirmUpload, { accountId, artifactId: sub.artifact_id });
    await h.call(Subjects.artifact.jobStarted, { jobId: sub.job_id, attempt: 1 });
    await h.call(Subjects.artifact.jobOutcome, {
      jobId: sub.job_id,
      status: 'success',
      result: { invoice_number: 'QX-11' },
      pages: 1,
      memory: { exemplar_id: 'lex_earlier', similarity: 0.9, fields: ['invoice_number'] },
    });
    return { accountId, jobId: sub.job_id, artifactId: sub.artifact_id };
  }

  const save = (jobId: string, version: number) =>
    h.call<{ saved: boolean }>(Subjects.artifact.saveExemplar, { jobId, version, source: 'correction', ...LEARNED });
  const list = (accountId: string) => h.call<ExemplarPageDto>(Subjects.artifact.listExemplars, { accountId, page: 1, size: 10 });

  it('queues learning with a correction, keeps the newest version per job, and lends it to no other account', async () => {
    const a = await succeeded();
    const job = await h.call<JobStatusResponseDto>(Subjects.artifact.getJob, { accountId: a.accountId, jobId: a.jobId });
    expect(job.memory).toEqual({ exemplar_id: 'lex_earlier', similarity: 0.9, fields: ['invoice_number'] });
    await h.call(Subjects.artifact.correctJob, { accountId: a.accountId, jobId: a.jobId, fields: { invoice_number: 'QX-12' } });
    const msg = await expectEventually(() => {
      const m = learns.find((l) => l.jobId === a.jobId);
      expect(m).toBeDefined();
      return m!;
    });
    expect(msg).toMatchObject({ accountId: a.accountId, source: 'correction', version: 2, values: { invoice_number: 'QX-12' } });
    const src = await h.call<LearnSourceReply>(Subjects.artifact.learnSource, { jobId: a.jobId });
    expect(src).toMatchObject({ proceed: true, mimeType: 'application/pdf', filename: 'invoice.pdf' });
    expect(Buffer.from(await (await fetch(src.sourceGetUrl!)).arrayBuffer())).toEqual(BYTES);

    expect(await save(a.jobId, 2)).toEqual({ saved: true });
    expect(await save(a.jobId, 1)).toEqual({ saved: false }); // an older confirmation never replaces a newer one
    const page = await list(a.accountId);
    expect(page).toMatchObject({ total: 1, items: [{ job_id: a.jobId, source: 'correction', fields: ['invoice_number'] }] });
    const forJob = await h.call<JobExemplarsReply>(Subjects.artifact.jobExemplars, { jobId: a.jobId });
    expect(forJob.exemplars).toEqual([{ id: page.items[0]!.id, ...LEARNED }]);

    const b = await succeeded();
    expect((await list(b.accountId)).total).toBe(0);
    expect((await h.call<JobExemplarsReply>(Subjects.artifact.jobExemplars, { jobId: b.jobId })).exemplars).toEqual([]);
    const foreign = await h.fail(Subjects.artifact.deleteExemplar, { accountId: b.accountId, exemplarId: page.items[0]!.id });
    expect(foreign.code).toBe('exemplar_not_found');
    expect((await list(a.accountId)).total).toBe(1);
  });

  it('with memory off: nothing queued, no source, nothing saved, no exemplar lent; on again: lent again', async () => {
    const a = await succeeded();
    expect(await save(a.jobId, 1)).toEqual({ saved: true });
    expect(await h.call(Subjects.artifact.setMemorySettings, { accountId: a.accountId, enabled: false })).toEqual({ enabled: false });
    expect(await h.call(Subjects.artifact.getMemorySettings, { accountId: a.accountId })).toEqual({ enabled: false });
    await h.call(Subjects.artifact.approveJob, { accountId: a.accountId, jobId: a.jobId });
    expect(await h.call(Subjects.artifact.learnSource, { jobId: a.jobId })).toEqual({ proceed: false });
    expect(await save(a.jobId, 2)).toEqual({ saved: false });
    expect((await h.call<JobExemplarsReply>(Subjects.artifact.jobExemplars, { jobId: a.jobId })).exemplars).toEqual([]);
    await h.call(Subjects.artifact.setMemorySettings, { accountId: a.accountId, enabled: true });
    expect((await h.call<JobExemplarsReply>(Subjects.artifact.jobExemplars, { jobId: a.jobId })).exemplars).toHaveLength(1);
    // The approval made while memory was off queued nothing (a later correction or approval does).
    await h.call(Subjects.artifact.approveJob, { accountId: a.accountId, jobId: a.jobId });
    await expectEventually(() => expect(learns.filter((l) => l.jobId === a.jobId).map((l) => l.source)).toEqual(['approval']));
  });
});
