import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import {
  RESULT_CONTENT_TYPES,
  resultKeys,
  Subjects,
  type DownloadResponseDto,
  type ExtractResponseDto,
  type JobStatusResponseDto,
  type JobStorageReply,
} from '@docket/contracts';
import type { DocketError } from '@docket/errors';
import { natsAuth, RpcClient } from '@docket/messaging';
import { S3Storage, storageConfigFromEnv } from '@docket/storage';
import { rejectionOf } from '@docket/testing';
import { ulid } from 'ulid';
import { startArtifactHarness, type ArtifactHarness } from './testing/artifact-harness.test-helper.js';
import { billingStandIn } from './testing/billing-stand-in.test-helper.js';
import { artifactEnvSchema } from './config.js';

jest.setTimeout(60_000);

const acct = () => `acct_${ulid().toLowerCase()}`;
const SCHEMA = { fields: [{ key: 'order_ref', label: 'Order Ref', data_type: 'string' }] };
const BYTES = Buffer.from('Order Ref: invented-77\n');

/**
 * The worker's storage access (ADR 0009): it holds no storage credentials, gets presigned URLs for one job's own
 * objects from artifact, and artifact derives result keys itself: a worker message naming any other object
 * (another account's results) changes nothing. Every worker call here runs as the `extraction-worker` NATS user.
 */
describe("artifact: the worker reaches only its job's objects (real Postgres, NATS, S3)", () => {
  let h: ArtifactHarness;
  let worker: RpcClient;
  let storage: S3Storage;
  const asWorker = <T>(subject: string, payload: object) => worker.request<T>(subject, payload);
  const refusedForWorker = (subject: string, payload: object) => rejectionOf<DocketError>(worker.request(subject, payload), subject);

  beforeAll(async () => {
    h = await startArtifactHarness('worker_keys', billingStandIn().module);
    worker = new RpcClient({
      natsUrl: h.nats.url,
      auth: natsAuth(h.nats.env('extraction-worker')),
      name: 'worker-keys-test',
      timeoutMs: 10_000,
    });
    await worker.connect();
    storage = new S3Storage(storageConfigFromEnv(artifactEnvSchema.parse({ ...h.s3.env, DATABASE_URL: h.db.url })));
  });

  afterAll(async () => {
    storage?.destroy();
    await worker?.close();
    await h?.close();
  });

  /** POST /extract + PUT + confirm, as a client would. */
  async function submitted(accountId: string) {
    const sub = await h.call<ExtractResponseDto>(Subjects.artifact.createExtraction, {
      accountId,
      sandbox: false,
      apiKeyId: 'key_test',
      request: { filename: 'order.txt', artifact_type: 'text/plain', artifact_size: BYTES.length, extraction_schema: SCHEMA },
    });
    expect((await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: BYTES })).status).toBe(200);
    await h.call(Subjects.artifact.confirmUpload, { accountId, artifactId: sub.artifact_id });
    return { accountId, artifactId: sub.artifact_id, jobId: sub.job_id, keys: resultKeys(accountId, sub.artifact_id, sub.job_id) };
  }

  /** What the worker does up to extraction: storage access, then `started`. */
  async function pickedUp(job: { jobId: string }): Promise<Required<JobStorageReply>> {
    const access = await asWorker<Required<JobStorageReply>>(Subjects.artifact.jobStorage, { jobId: job.jobId });
    expect(access.proceed).toBe(true);
    expect(await asWorker(Subjects.artifact.jobStarted, { jobId: job.jobId, attempt: 1 })).toMatchObject({ proceed: true });
    return access;
  }

  async function finished(job: Awaited<ReturnType<typeof submitted>>, document: string) {
    const access = await pickedUp(job);
    expect(
      (await fetch(access.resultPutUrl, { method: 'PUT', headers: { 'content-type': RESULT_CONTENT_TYPES.json }, body: document })).status,
    ).toBe(200);
    expect(
      (await fetch(access.markdownPutUrl, { method: 'PUT', headers: { 'content-type': RESULT_CONTENT_TYPES.markdown }, body: '# done\n' }))
        .status,
    ).toBe(200);
    return asWorker(Subjects.artifact.jobOutcome, {
      jobId: job.jobId,
      status: 'success',
      result: {},
      resultKey: job.keys.json,
      markdownKey: job.keys.markdown,
      pages: 1,
    });
  }

  const resultOf = async (job: { accountId: string; artifactId: string }) => {
    const dl = await h.call<DownloadResponseDto>(Subjects.artifact.download, {
      accountId: job.accountId,
      artifactId: job.artifactId,
      fileType: 'json',
    });
    return (await fetch(dl.download_url)).text();
  };

  it("refuses an outcome naming another account's result keys and changes nothing", async () => {
    const victim = await submitted(acct());
    expect(await finished(victim, '{"owner":"victim"}')).toEqual({ applied: true });
    const attacker = await submitted(acct());
    await pickedUp(attacker);

    const refused = await refusedForWorker(Subjects.artifact.jobOutcome, {
      jobId: attacker.jobId,
      status: 'success',
      result: {},
      resultKey: victim.keys.json,
      markdownKey: victim.keys.markdown,
      pages: 1,
    });

    expect(refused).toMatchObject({ code: 'forbidden' });
    expect(
      await h.call<JobStatusResponseDto>(Subjects.artifact.getJob, { accountId: attacker.accountId, jobId: attacker.jobId }),
    ).toMatchObject({ status: 'running' });
    expect(
      await h.fail(Subjects.artifact.download, { accountId: attacker.accountId, artifactId: attacker.artifactId, fileType: 'json' }),
    ).toMatchObject({ code: 'not_found' });
    expect(await resultOf(victim)).toBe('{"owner":"victim"}');
    // The job's own keys still work afterwards.
    expect(await finished(attacker, '{"owner":"attacker"}')).toEqual({ applied: true });
    expect(await resultOf(attacker)).toBe('{"owner":"attacker"}');
  });

  it("never deletes another job's objects for an outcome of a deleted (or unknown) job", async () => {
    const victim = await submitted(acct());
    expect(await finished(victim, '{"owner":"victim"}')).toEqual({ applied: true });

    const reply = await asWorker(Subjects.artifact.jobOutcome, {
      jobId: `job_${ulid().toLowerCase()}`,
      status: 'success',
      result: {},
      resultKey: victim.keys.json,
      markdownKey: victim.keys.markdown,
      pages: 1,
    });

    expect(reply).toEqual({ applied: false });
    expect(await resultOf(victim)).toBe('{"owner":"victim"}');
    expect(await storage.head(victim.keys.markdown)).toMatchObject({ size: '# done\n'.length });
  });

  it('hands the worker URLs for its own job only: another key is refused by storage, a terminal job gets none', async () => {
    const other = await submitted(acct());
    const job = await submitted(acct());
    const access = await pickedUp(job);

    expect(Buffer.from(await (await fetch(access.sourceGetUrl)).arrayBuffer())).toEqual(BYTES);
    expect((await fetch(access.sourceHeadUrl, { method: 'HEAD' })).headers.get('content-length')).toBe(String(BYTES.length));
    // The signature covers the key: the same URL pointed at another account's object is refused by storage.
    const forged = access.resultPutUrl.replace(encodeURI(job.keys.json), encodeURI(other.keys.json));
    expect(forged).not.toBe(access.resultPutUrl);
    expect((await fetch(forged, { method: 'PUT', headers: { 'content-type': RESULT_CONTENT_TYPES.json }, body: '{}' })).status).toBe(403);

    await h.call(Subjects.artifact.cancel, { accountId: job.accountId, artifactId: job.artifactId });
    expect(await asWorker(Subjects.artifact.jobStorage, { jobId: job.jobId })).toEqual({ proceed: false });
  });
});
