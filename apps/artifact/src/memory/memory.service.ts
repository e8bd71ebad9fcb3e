import { Inject, Injectable } from '@nestjs/common';
import {
  MAX_EXEMPLARS_PER_ACCOUNT,
  type ExemplarDto,
  type ExemplarListQuery,
  type ExemplarPageDto,
  type ExemplarRef,
  type JobExemplarsReply,
  type LearnSourceReply,
  type MemoryJobCommand,
  type MemorySettingsCommand,
  type MemorySettingsDto,
  type SaveExemplarCommand,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { S3Storage } from '@docket/storage';
import { DataSource } from 'typeorm';
import { ulid } from 'ulid';
import type { ArtifactConfig } from '../config.js';
import { AccountMemoryEntity } from '../entities/account-memory.entity.js';
import { ArtifactEntity } from '../entities/artifact.entity.js';
import { JobEntity } from '../entities/job.entity.js';
import { LayoutExemplarEntity } from '../entities/layout-exemplar.entity.js';
import { CONFIG } from '../tokens.js';
import { memoryEnabled } from './memory-learning.js';

/**
 * Layout memory (ADR 0014): the account's exemplars through the API (list, delete, the on/off setting), and the
 * worker's side — the source of a confirmed job to learn from, saving what it learned, the exemplars a job may use.
 * Every query names the account; an exemplar is never read for another account's job.
 */
@Injectable()
export class MemoryService {
  constructor(
    private readonly ds: DataSource,
    private readonly storage: S3Storage,
    @Inject(CONFIG) private readonly cfg: ArtifactConfig,
  ) {}

  async list(q: ExemplarListQuery): Promise<ExemplarPageDto> {
    const [rows, total] = await this.ds.getRepository(LayoutExemplarEntity).findAndCount({
      where: { accountId: q.accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: (q.page - 1) * q.size,
      take: q.size,
    });
    return { items: rows.map(toExemplarDto), total, page: q.page, size: q.size, pages: Math.ceil(total / q.size) };
  }

  /** 404 for an exemplar of no account or of another one: its id says nothing about other tenants. */
  async delete(ref: ExemplarRef): Promise<void> {
    const res = await this.ds.getRepository(LayoutExemplarEntity).delete({ id: ref.exemplarId, accountId: ref.accountId });
    if (!res.affected) throw new DocketError('exemplar_not_found', 'Layout exemplar not found');
  }

  async settings(cmd: MemorySettingsCommand): Promise<MemorySettingsDto> {
    if (cmd.enabled !== undefined)
      await this.ds
        .getRepository(AccountMemoryEntity)
        .upsert({ accountId: cmd.accountId, enabled: cmd.enabled, updatedAt: new Date() }, ['accountId']);
    return { enabled: await memoryEnabled(this.ds.manager, cmd.accountId) };
  }

  /** The exemplars a job may use: its own account's, newest first; none for sandbox jobs or when memory is off. */
  async forJob(cmd: MemoryJobCommand): Promise<JobExemplarsReply> {
    const job = await this.ds.getRepository(JobEntity).findOneBy({ id: cmd.jobId });
    if (!job || job.sandbox || !(await memoryEnabled(this.ds.manager, job.accountId))) return { exemplars: [] };
    const rows = await this.ds.getRepository(LayoutExemplarEntity).find({
      where: { accountId: job.accountId },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: MAX_EXEMPLARS_PER_ACCOUNT,
    });
    return { exemplars: rows.map((r) => ({ id: r.id, fingerprint: r.fingerprint, anchors: r.anchors })) };
  }

  /** A presigned GET of a confirmed job's source; `proceed: false` when it is gone or its account turned memory off. */
  async learnSource(cmd: MemoryJobCommand): Promise<LearnSourceReply> {
    const job = await this.ds.getRepository(JobEntity).findOneBy({ id: cmd.jobId });
    if (!job || job.status !== 'success' || !(await memoryEnabled(this.ds.manager, job.accountId))) return { proceed: false };
    const artifact = await this.ds.getRepository(ArtifactEntity).findOneBy({ id: job.artifactId, accountId: job.accountId });
    if (!artifact) return { proceed: false };
    const sourceGetUrl = await this.storage.presignInternal('GET', artifact.storageKey, this.cfg.WORKER_URL_TTL_SECONDS);
    return { proceed: true, sourceGetUrl, mimeType: artifact.artifactType, filename: artifact.filename };
  }

  /** Stores what the worker learned: one exemplar per job (a later confirmation replaces it), the account's newest kept. */
  async save(cmd: SaveExemplarCommand): Promise<{ saved: boolean }> {
    return this.ds.transaction(async (m) => {
      const job = await m.findOneBy(JobEntity, { id: cmd.jobId });
      const artifact = job && (await m.findOneBy(ArtifactEntity, { id: job.artifactId, accountId: job.accountId }));
      if (!job || !artifact || !(await memoryEnabled(m, job.accountId))) return { saved: false };
      const existing = await m.findOneBy(LayoutExemplarEntity, { jobId: job.id, accountId: job.accountId });
      if (existing && existing.resultVersion > cmd.version) return { saved: false };
      await m.delete(LayoutExemplarEntity, { jobId: job.id, accountId: job.accountId });
      await m.insert(LayoutExemplarEntity, {
        id: `lex_${ulid().toLowerCase()}`,
        accountId: job.accountId,
        jobId: job.id,
        artifactId: job.artifactId,
        templateId: job.templateId,
        source: cmd.source,
        resultVersion: cmd.version,
        fingerprint: cmd.fingerprint as LayoutExemplarEntity['fingerprint'],
        anchors: cmd.anchors as LayoutExemplarEntity['anchors'],
        createdAt: new Date(),
      });
      await m.query(
        `DELETE FROM artifact.layout_exemplars WHERE account_id = $1 AND id NOT IN
           (SELECT id FROM artifact.layout_exemplars WHERE account_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2)`,
        [job.accountId, MAX_EXEMPLARS_PER_ACCOUNT],
      );
      return { saved: true };
    });
  }
}

function toExemplarDto(r: LayoutExemplarEntity): ExemplarDto {
  return {
    id: r.id,
    job_id: r.jobId,
    artifact_id: r.artifactId,
    template_id: r.templateId,
    source: r.source,
    fields: r.anchors.map((a) => String(a.key)),
    anchors: r.anchors.map(({ key, page, label, direction, region }) => ({ key, page, label, direction, region })),
    created_at: r.createdAt.toISOString(),
  };
}
