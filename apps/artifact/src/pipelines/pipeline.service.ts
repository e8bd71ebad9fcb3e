import { Injectable } from '@nestjs/common';
import { AUTO_TEMPLATE_ID, DEFAULT_PIPELINE_ALIAS, Subjects, type PipelineDto, type UpdatePipelineCommand } from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { RpcClient } from '@docket/messaging';
import { DataSource, type EntityManager } from 'typeorm';
import { PipelineEntity } from '../entities/pipeline.entity.js';

export const DEFAULT_PIPELINE_NAME = 'Default pipeline';

/** The account's default pipeline id: deterministic, so concurrent first uses create one row. */
export const defaultPipelineId = (accountId: string) => `pipe_${accountId.replace(/^acct_/, '')}`.slice(0, 40);

export function toPipeline(p: PipelineEntity): PipelineDto {
  return {
    id: p.id,
    name: p.name,
    is_active: p.isActive,
    is_default: p.isDefault,
    template_id: p.templateId,
    webhook_id: p.webhookId,
    execution_count: p.executionCount,
    created_at: new Date(p.createdAt).toISOString(),
  };
}

/**
 * Pipelines (legacy, spec §2.5, §4.7). Each account gets a default pipeline on first use (any
 * submission or `GET /pipelines`), with the built-in `auto` template; its template and webhook are the defaults
 * of spec §4.1 rules 2–3. They are changed by `artifact.v1.pipeline.update`: `PATCH /pipelines/{id}` (a documented
 * extension) and the admin CLI's `set-defaults`.
 */
@Injectable()
export class PipelineService {
  constructor(
    private readonly ds: DataSource,
    private readonly rpc: RpcClient,
  ) {}

  async ensureDefault(accountId: string): Promise<PipelineEntity> {
    const id = defaultPipelineId(accountId);
    await this.ds
      .createQueryBuilder()
      .insert()
      .into(PipelineEntity)
      .values({
        id,
        accountId,
        name: DEFAULT_PIPELINE_NAME,
        isActive: true,
        isDefault: true,
        templateId: AUTO_TEMPLATE_ID,
        webhookId: null,
        executionCount: 0,
      })
      .orIgnore()
      .execute();
    return this.ds.getRepository(PipelineEntity).findOneByOrFail({ id, accountId });
  }

  async list(accountId: string): Promise<PipelineDto[]> {
    await this.ensureDefault(accountId);
    const rows = await this.ds.getRepository(PipelineEntity).find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map(toPipeline);
  }

  /** A pipeline that accepts jobs (spec §4.7): missing or inactive → 404, another account's → 403. */
  async active(accountId: string, pipelineId: string): Promise<PipelineEntity> {
    if (pipelineId === defaultPipelineId(accountId)) await this.ensureDefault(accountId);
    const p = await this.ds.getRepository(PipelineEntity).findOneBy({ id: pipelineId });
    if (!p) throw new DocketError('pipeline_not_found', 'Pipeline not found', { pipeline_id: pipelineId });
    if (p.accountId !== accountId) throw new DocketError('forbidden', 'This pipeline belongs to another account');
    if (!p.isActive)
      throw new DocketError('pipeline_not_found', 'Pipeline is inactive; it accepts no new jobs', { pipeline_id: pipelineId });
    return p;
  }

  /** Counts jobs submitted under the pipeline (`execution_count`), in the caller's transaction. */
  async countExecutions(m: EntityManager, pipelineId: string, jobs: number): Promise<void> {
    await m.increment(PipelineEntity, { id: pipelineId }, 'executionCount', jobs);
  }

  async update(cmd: UpdatePipelineCommand): Promise<PipelineDto> {
    const pipelineId = cmd.pipelineId === DEFAULT_PIPELINE_ALIAS ? defaultPipelineId(cmd.accountId) : cmd.pipelineId;
    if (pipelineId === defaultPipelineId(cmd.accountId)) await this.ensureDefault(cmd.accountId);
    const repo = this.ds.getRepository(PipelineEntity);
    const p = await repo.findOneBy({ id: pipelineId });
    if (!p) throw new DocketError('pipeline_not_found', 'Pipeline not found', { pipeline_id: cmd.pipelineId });
    if (p.accountId !== cmd.accountId) throw new DocketError('forbidden', 'This pipeline belongs to another account');
    if (cmd.template_id && cmd.template_id !== AUTO_TEMPLATE_ID)
      await this.rpc.request(Subjects.template.snapshot, { accountId: cmd.accountId, templateId: cmd.template_id });
    if (cmd.webhook_id) await this.rpc.request(Subjects.webhook.verify, { accountId: cmd.accountId, webhookId: cmd.webhook_id });
    const patch: Partial<PipelineEntity> = {};
    if (cmd.name !== undefined) patch.name = cmd.name;
    if (cmd.is_active !== undefined) patch.isActive = cmd.is_active;
    if (cmd.template_id !== undefined) patch.templateId = cmd.template_id;
    if (cmd.webhook_id !== undefined) patch.webhookId = cmd.webhook_id;
    if (Object.keys(patch).length) await repo.update({ id: p.id }, patch);
    return toPipeline(await repo.findOneByOrFail({ id: p.id }));
  }
}
