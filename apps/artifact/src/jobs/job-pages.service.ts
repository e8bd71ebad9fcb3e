import { Inject, Injectable } from '@nestjs/common';
import { Subjects, type JobPagesCommand, type JobPagesReply, type ResizeHoldCommand, type ResizeHoldReply } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { JobEntity } from '../entities/job.entity.js';
import { LOGGER } from '../tokens.js';
import { JobProgressService } from './job-progress.service.js';

/** Billing's answers that mean "the wallet cannot pay for these pages": the job fails with them, nothing is read. */
const REFUSED_BY_WALLET = new Set(['insufficient_funds', 'wallet_frozen']);

/**
 * The worker counted the document's pages before reading any (ADR 0005). Artifact owns the job, so it asks billing to
 * re-size the hold to those pages (the worker has no billing rights) with the job's own `partial_pages` setting:
 * - covered: the job records the page count and the worker reads the pages billing covered (all, or the first ones);
 * - refused (`insufficient_funds` / `wallet_frozen`): the job fails with that code through the normal outcome path
 *   (billing then releases the hold from the job-finished event): nothing is read, nothing is charged.
 */
@Injectable()
export class JobPagesService {
  constructor(
    private readonly ds: DataSource,
    private readonly rpc: RpcClient,
    private readonly progress: JobProgressService,
    @Inject(LOGGER) private readonly log: Logger,
  ) {}

  async pages(cmd: JobPagesCommand): Promise<JobPagesReply> {
    const job = await this.ds.getRepository(JobEntity).findOneBy({ id: cmd.jobId });
    // Deleted, cancelled or otherwise terminal meanwhile: the worker stops.
    if (!job || job.status !== 'running') return { proceed: false };
    const resize: ResizeHoldCommand = { accountId: job.accountId, jobId: job.id, pages: cmd.pages, partial: job.partialPages };
    let hold: ResizeHoldReply;
    try {
      hold = await this.rpc.request<ResizeHoldReply>(Subjects.billing.resizeHold, resize);
    } catch (err) {
      if (err instanceof DocketError && REFUSED_BY_WALLET.has(err.code)) return this.refuse(job, cmd.pages, err);
      throw err;
    }
    await this.ds.getRepository(JobEntity).update({ id: job.id }, { pageCount: cmd.pages, holdAmount: hold.amount });
    if (hold.pages < cmd.pages)
      this.log.info(
        { jobId: job.id, pageCount: cmd.pages, pagesCovered: hold.pages },
        'wallet covers part of the document; reading the covered pages',
      );
    return { proceed: true, pages: hold.pages };
  }

  private async refuse(job: JobEntity, pages: number, err: DocketError): Promise<JobPagesReply> {
    await this.ds.getRepository(JobEntity).update({ id: job.id }, { pageCount: pages });
    await this.progress.outcome({ jobId: job.id, status: 'failed', pages: 0, error: `${err.code}: ${err.message}` });
    this.log.info(
      { jobId: job.id, accountId: job.accountId, pageCount: pages, code: err.code },
      'job failed: the wallet cannot cover its pages',
    );
    return { proceed: false };
  }
}
