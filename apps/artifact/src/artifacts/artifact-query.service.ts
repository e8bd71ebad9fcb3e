import { Injectable } from '@nestjs/common';
import {
  DOWNLOAD_URL_TTL_SECONDS,
  resultKeys,
  type ArtifactListQuery,
  type ArtifactPageDto,
  type ArtifactRecordDto,
  type ArtifactRef,
  type ArtifactStatusResponseDto,
  type DownloadArtifactCommand,
  type DownloadResponseDto,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { S3Storage } from '@docket/storage';
import { DataSource } from 'typeorm';
import { toArtifactListItem, toArtifactRecord, toArtifactStatus } from '../artifact.mapper.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { findOwned } from './artifact-access.js';

/** Read side of the artifact resource (spec §4.2): list, record, status, download links. */
@Injectable()
export class ArtifactQueryService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
  ) {}

  /** This account only, newest first (ids are ulids, so `id` breaks ties in the same millisecond). */
  async list(q: ArtifactListQuery): Promise<ArtifactPageDto> {
    const [rows, total] = await this.ds.getRepository(ArtifactEntity).findAndCount({
      where: { accountId: q.accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: (q.page - 1) * q.size,
      take: q.size,
    });
    return { items: rows.map(toArtifactListItem), total, page: q.page, size: q.size, pages: Math.ceil(total / q.size) };
  }

  async get(ref: ArtifactRef): Promise<ArtifactRecordDto> {
    const artifact = await findOwned(this.ds.manager, ref);
    const jobs = await this.ds
      .getRepository(JobEntity)
      .find({ where: { artifactId: artifact.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    return toArtifactRecord(artifact, jobs);
  }

  async status(ref: ArtifactRef): Promise<ArtifactStatusResponseDto> {
    return toArtifactStatus(await findOwned(this.ds.manager, ref));
  }

  /**
   * Presigned GET, 300 s. `raw`: the upload, 404 once purged or if never uploaded. `json` / `md`: the
   * documents of the most recent successful job, 404 when no job succeeded.
   */
  async download(cmd: DownloadArtifactCommand): Promise<DownloadResponseDto> {
    const artifact = await findOwned(this.ds.manager, cmd);
    let key: string | null;
    let filename = artifact.filename;
    if (cmd.fileType === 'raw') {
      if (artifact.sourcePurgedAt) throw new DocketError('not_found', 'The source file was purged by the retention policy');
      if (!artifact.uploadedAt) throw new DocketError('not_found', 'The source file was never uploaded');
      key = artifact.storageKey;
    } else {
      const job = await this.ds.getRepository(JobEntity).findOne({
        where: { artifactId: artifact.id, status: 'success' },
        order: { completedAt: 'DESC', id: 'DESC' },
      });
      // The keys derived from account, artifact and job: a stored column only says that the worker wrote the object.
      const own = job ? resultKeys(job.accountId, job.artifactId, job.id) : undefined;
      key = (cmd.fileType === 'json' ? job?.resultKey && own?.json : job?.markdownKey && own?.markdown) || null;
      if (!key) throw new DocketError('not_found', `No ${cmd.fileType} result: no extraction of this artifact has succeeded yet`);
      filename = `${stem(artifact.filename)}.${cmd.fileType}`;
    }
    const url = await this.storage.presignGet(key, DOWNLOAD_URL_TTL_SECONDS);
    return { download_url: url, artifact_id: artifact.id, filename, expires_in: DOWNLOAD_URL_TTL_SECONDS };
  }
}

function stem(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot > 0 ? filename.slice(0, dot) : filename;
}
