import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { rawKey, Subjects, type ArtifactRecordDto, type ExtractResponseDto } from '@docket/contracts';
import { S3Storage, storageConfigFromEnv } from '@docket/storage';
import { ulid } from 'ulid';
import { artifactEnvSchema } from './config.js';
import { UploadExpiryService } from './expiry/upload-expiry.service.js';
import { startArtifactHarness, type ArtifactHarness } from './testing/artifact-harness.test-helper.js';
import { billingStandIn } from './testing/billing-stand-in.test-helper.js';

jest.setTimeout(60_000);

const SCHEMA = { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string' }] };
const BYTES = Buffer.from('%PDF-1.4 the bytes the client declared');
const billingStub = billingStandIn();
const { covers, broke } = billingStub.record;

describe('artifact: uploads bound to the declared size, holds covered at confirm, unconfirmed objects deleted (ADR 0005)', () => {
  let h: ArtifactHarness;
  let storage: S3Storage;

  beforeAll(async () => {
    h = await startArtifactHarness('artifact_binding', billingStub.module);
    storage = new S3Storage(storageConfigFromEnv(artifactEnvSchema.parse({ ...h.s3.env, DATABASE_URL: h.db.url })));
  });

  afterAll(async () => {
    storage?.destroy();
    await h?.close();
  });

  const submit = (accountId: string) =>
    h.call<ExtractResponseDto>(Subjects.artifact.createExtraction, {
      accountId,
      sandbox: false,
      apiKeyId: 'key_test',
      request: { filename: 'invoice.pdf', artifact_type: 'application/pdf', artifact_size: BYTES.length, extraction_schema: SCHEMA },
    });
  const put = (url: string, body: Buffer) =>
    fetch(url, { method: 'PUT', headers: { 'content-type': 'application/pdf' }, body: new Uint8Array(body) });

  it('storage refuses a body of another size than artifact_size (403); the declared size is accepted and confirm covers the hold from HEAD', async () => {
    const accountId = `acct_${ulid().toLowerCase()}`;
    const sub = await submit(accountId);
    expect((await put(sub.upload_url, Buffer.concat([BYTES, BYTES]))).status).toBe(403);
    expect((await put(sub.upload_url, BYTES.subarray(1))).status).toBe(403);
    expect(await h.fail(Subjects.artifact.confirmUpload, { accountId, artifactId: sub.artifact_id })).toMatchObject({
      code: 'upload_missing',
    });

    expect((await put(sub.upload_url, BYTES)).status).toBe(200);
    const rec = await h.call<ArtifactRecordDto>(Subjects.artifact.confirmUpload, { accountId, artifactId: sub.artifact_id });
    expect(rec.status).toBe('uploaded');
    expect(covers).toContainEqual({ accountId, jobId: sub.job_id, artifactSize: BYTES.length });
  });

  it('a wallet that cannot cover the stored size at confirm → 402; artifact stays pending_upload, job pending; a later confirm succeeds', async () => {
    const accountId = `acct_${ulid().toLowerCase()}`;
    const sub = await submit(accountId);
    expect((await put(sub.upload_url, BYTES)).status).toBe(200);
    broke.add(accountId);
    expect(await h.fail(Subjects.artifact.confirmUpload, { accountId, artifactId: sub.artifact_id })).toMatchObject({
      code: 'insufficient_funds',
      status: 402,
    });
    broke.delete(accountId);
    const still = await h.call<ArtifactRecordDto>(Subjects.artifact.get, { accountId, artifactId: sub.artifact_id });
    expect(still).toMatchObject({ status: 'pending_upload', jobs: [expect.objectContaining({ job_id: sub.job_id, status: 'pending' })] });
    expect((await h.call<ArtifactRecordDto>(Subjects.artifact.confirmUpload, { accountId, artifactId: sub.artifact_id })).status).toBe(
      'uploaded',
    );
  });

  it('upload expiry deletes an object that was PUT but never confirmed', async () => {
    const accountId = `acct_${ulid().toLowerCase()}`;
    const sub = await submit(accountId);
    expect((await put(sub.upload_url, BYTES)).status).toBe(200);
    const key = rawKey(accountId, sub.artifact_id, 'invoice.pdf');
    expect(await storage.head(key)).toBeDefined();
    const later = new Date(Date.now() + 2 * 3600_000);
    expect(await h.app.get(UploadExpiryService).sweep(later)).toBeGreaterThanOrEqual(1);
    expect(await storage.head(key)).toBeUndefined();
  });
});
