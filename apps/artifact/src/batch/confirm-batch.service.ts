import { Injectable } from '@nestjs/common';
import { Subjects, type BatchRef, type ConfirmBatchResponseDto } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import { S3Storage } from '@docket/storage';
import { DataSource, In } from 'typeorm';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { BatchEntity } from '../entities/batch.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { ConfirmUploadService } from '../extraction/confirm-upload.service.js';

const CONFIRMED = new Set(['uploaded', 'processing', 'completed', 'failed']);

/**
 * `POST /artifacts/confirm-batch-upload/{batch_id}` (spec §3.1, §4.2). Idempotent: each file whose
 * object exists is confirmed exactly like confirm-upload (one transaction + outbox per file); files
 * never uploaded stay `pending_upload` (job `pending`, nothing queued) and their holds are released at once
 * (spec §3.1: "not held against the wallet"); files confirmed earlier are skipped, so a second call picks up
 * stragglers (confirming one holds it again; 402 when the wallet cannot cover it, files confirmed before it stay
 * confirmed). Unknown batch or another account's → 404, as confirm-upload.
 */
@Injectable()
export class ConfirmBatchService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
    private readonly confirmer: ConfirmUploadService,
    private readonly rpc: RpcClient,
  ) {}

  async confirm(ref: BatchRef): Promise<ConfirmBatchResponseDto> {
    const batch = await this.ds.getRepository(BatchEntity).findOneBy({ id: ref.batchId, accountId: ref.accountId });
    if (!batch) throw new DocketError('batch_not_found', 'Batch not found', { batch_id: ref.batchId });
    const jobs = await this.ds
      .getRepository(JobEntity)
      .find({ where: { batchId: batch.id, accountId: ref.accountId }, order: { id: 'ASC' } });
    const artifacts = jobs.length
      ? await this.ds.getRepository(ArtifactEntity).findBy({ id: In(jobs.map((j) => j.artifactId)), accountId: ref.accountId })
      : [];
    const out: ConfirmBatchResponseDto = { batch_id: batch.id, confirmed: [], pending: [], already_confirmed: [], closed: [] };
    for (const a of artifacts.sort((x, y) => x.id.localeCompare(y.id))) {
      if (CONFIRMED.has(a.status)) {
        out.already_confirmed.push(a.id);
        continue;
      }
      if (a.status !== 'pending_upload') {
        out.closed.push(a.id);
        continue;
      }
      const head = await this.storage.head(a.storageKey);
      if (!head) {
        await this.releaseStraggler(a);
        out.pending.push(a.id);
        continue;
      }
      ((await this.confirmer.queueUploaded(a, head.size)) ? out.confirmed : out.already_confirmed).push(a.id);
    }
    return out;
  }

  /** Releases a never-uploaded file's hold; if a concurrent confirm-upload queued it meanwhile, holds it again. */
  private async releaseStraggler(a: ArtifactEntity): Promise<void> {
    await this.rpc.request(Subjects.billing.releaseHold, { accountId: a.accountId, jobId: a.latestJobId, reason: 'unconfirmed' });
    const now = await this.ds.getRepository(ArtifactEntity).findOneByOrFail({ id: a.id });
    if (CONFIRMED.has(now.status)) {
      await this.rpc.request(Subjects.billing.coverHold, {
        accountId: a.accountId,
        jobId: a.latestJobId,
        artifactSize: Math.max(1, now.artifactSize),
      });
    }
  }
}
