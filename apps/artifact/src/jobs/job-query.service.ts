import { Injectable } from '@nestjs/common';
import { DOWNLOAD_URL_TTL_SECONDS, resultKeys, type JobRef, type JobSettlementReply, type JobStatusResponseDto } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { S3Storage } from '@docket/storage';
import { DataSource } from 'typeorm';
import { isTerminal, toJobStatus } from '../artifact.mapper.js';
import { JobEntity } from '../entities/job.entity.js';

@Injectable()
export class JobQueryService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
  ) {}

  /** Spec §4.4: 404 unknown job, 403 a job of another account. */
  async get(ref: JobRef): Promise<JobStatusResponseDto> {
    const job = await this.ds.getRepository(JobEntity).findOneBy({ id: ref.jobId });
    if (!job) throw new DocketError('job_not_found', 'Job not found');
    if (job.accountId !== ref.accountId) throw new DocketError('forbidden', 'This job belongs to another account');
    const url =
      job.status === 'success' && job.resultKey
        ? await this.storage.presignGet(resultKeys(job.accountId, job.artifactId, job.id).json, DOWNLOAD_URL_TTL_SECONDS)
        : undefined;
    return toJobStatus(job, url);
  }

  /** Asked by billing's reconciliation sweep about a job whose hold is still open. */
  async settlement(ref: JobRef): Promise<JobSettlementReply> {
    const job = await this.ds.getRepository(JobEntity).findOneBy({ id: ref.jobId, accountId: ref.accountId });
    if (!job) return { exists: false, terminal: false, pages: 0 };
    return { exists: true, status: job.status, terminal: isTerminal(job.status), pages: job.pages ?? 0 };
  }

  /** Asked by `template` before a hard delete: is any in-flight job using it? */
  async templateInUse(accountId: string, templateId: string): Promise<{ in_use: boolean }> {
    const count = await this.ds
      .getRepository(JobEntity)
      .createQueryBuilder('j')
      .where('j.account_id = :accountId AND j.template_id = :templateId', { accountId, templateId })
      .andWhere('j.status IN (:...live)', { live: ['pending', 'queued_for_processing', 'running'] })
      .getCount();
    return { in_use: count > 0 };
  }
}
