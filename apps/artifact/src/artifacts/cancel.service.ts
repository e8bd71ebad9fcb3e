import { Injectable } from '@nestjs/common';
import type { ArtifactRef, JobStatusResponseDto } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { DataSource } from 'typeorm';
import { isTerminal, toJobStatus } from '../artifact.mapper.js';
import { findOwned } from './artifact-access.js';
import { cancelLockedJob, lockLatestJob } from './job-cancel.js';

/** `POST /artifacts/{id}/cancel` (spec §3.2): the latest job, if in flight, becomes `cancelled`; a terminal one is 409. */
@Injectable()
export class CancelService {
  constructor(private readonly ds: DataSource) {}

  async cancel(ref: ArtifactRef): Promise<JobStatusResponseDto> {
    return this.ds.transaction(async (m) => {
      const artifact = await findOwned(m, ref, true);
      const job = await lockLatestJob(m, artifact);
      if (!job || isTerminal(job.status)) {
        throw new DocketError('job_terminal', `The latest job is already ${job?.status ?? 'finished'}; nothing to cancel`, {
          job_id: job?.id ?? null,
        });
      }
      return toJobStatus(await cancelLockedJob(m, job, artifact));
    });
  }
}
