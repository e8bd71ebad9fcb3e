import { Inject, Injectable } from '@nestjs/common';
import { RESULT_CONTENT_TYPES, resultKeys, type JobStorageCommand, type JobStorageReply } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { S3Storage } from '@docket/storage';
import { DataSource } from 'typeorm';
import { isTerminal } from '../artifact.mapper.js';
import type { ArtifactConfig } from '../config.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { CONFIG } from '../tokens.js';

/**
 * The worker's only access to storage (it holds no credentials): per delivery, presigned URLs for the job's own
 * source and for its result objects at the keys derived here from account, artifact and job (`resultKeys`).
 */
@Injectable()
export class JobStorageService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
    @Inject(CONFIG) private readonly cfg: ArtifactConfig,
  ) {}

  async access(cmd: JobStorageCommand): Promise<JobStorageReply> {
    const job = await this.ds.getRepository(JobEntity).findOneBy({ id: cmd.jobId });
    if (!job || isTerminal(job.status)) return { proceed: false };
    if (job.status === 'pending') throw new DocketError('conflict', 'Job was never queued');
    const artifact = await this.ds.getRepository(ArtifactEntity).findOneByOrFail({ id: job.artifactId });
    const keys = resultKeys(job.accountId, job.artifactId, job.id);
    const ttl = this.cfg.WORKER_URL_TTL_SECONDS;
    const [sourceHeadUrl, sourceGetUrl, resultPutUrl, markdownPutUrl] = await Promise.all([
      this.storage.presignInternal('HEAD', artifact.storageKey, ttl),
      this.storage.presignInternal('GET', artifact.storageKey, ttl),
      this.storage.presignInternal('PUT', keys.json, ttl, RESULT_CONTENT_TYPES.json),
      this.storage.presignInternal('PUT', keys.markdown, ttl, RESULT_CONTENT_TYPES.markdown),
    ]);
    return { proceed: true, sourceHeadUrl, sourceGetUrl, resultPutUrl, markdownPutUrl };
  }
}
