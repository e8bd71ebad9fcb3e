import { Injectable } from '@nestjs/common';
import {
  TEMPLATE_CATEGORIES,
  type ListTemplatesCommand,
  type TemplateRef,
  type TemplateResponseDto,
  type TemplateSnapshot,
  type TemplateSnapshotQuery,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { DataSource } from 'typeorm';
import { TemplateEntity } from '../entities/template.entity.js';
import { toSnapshot, toTemplateResponse } from './template.mapper.js';
import { TemplateStore } from './template.store.js';

const DEFAULT_LIMIT = 50;

/** Reads: one template, the schema snapshot a new job runs against, listing, categories. */
@Injectable()
export class TemplateQueryService {
  constructor(
    private readonly ds: DataSource,
    private readonly store: TemplateStore,
  ) {}

  async get(ref: TemplateRef): Promise<TemplateResponseDto> {
    return toTemplateResponse(await this.store.findOwned(ref.accountId, ref.templateId));
  }

  /**
   * Without `version`: the current version for a new job — counts one use. Draft and archived
   * templates are allowed (archiving only hides a template from default listings and the
   * dashboard's picker, spec §3.3); soft-deleted ones are 404 (they cannot be referenced by new jobs).
   * With `version`: that immutable version row (reruns, audits); no use is counted, and a
   * soft-deleted template still answers because its existing jobs are unaffected.
   */
  async snapshot(q: TemplateSnapshotQuery): Promise<TemplateSnapshot> {
    if (q.version !== undefined) {
      const t = await this.store.findOwned(q.accountId, q.templateId, { includeDeleted: true });
      const v = await this.store.findVersion(t.id, q.version);
      if (!v) throw new DocketError('template_not_found', `Template ${t.id} has no version ${q.version}`);
      return toSnapshot(t, v.version, v.fields);
    }
    const t = await this.store.findOwned(q.accountId, q.templateId);
    await this.ds.getRepository(TemplateEntity).increment({ id: t.id, accountId: q.accountId }, 'usageCount', 1);
    return toSnapshot(t, t.version, t.fields);
  }

  async list(cmd: ListTemplatesCommand): Promise<TemplateResponseDto[]> {
    const q = cmd.query ?? {};
    const qb = this.ds
      .getRepository(TemplateEntity)
      .createQueryBuilder('t')
      .where('t.accountId = :accountId AND t.deletedAt IS NULL', { accountId: cmd.accountId });
    if (!q.include_archived) qb.andWhere('t.status <> :archived', { archived: 'archived' });
    if (q.category) qb.andWhere('t.category = :category', { category: q.category });
    if (q.search) qb.andWhere('(t.name ILIKE :prefix OR t.description ILIKE :prefix)', { prefix: `${escapeLike(q.search)}%` });
    const rows = await qb
      .orderBy('t.createdAt', 'DESC')
      .addOrderBy('t.id', 'DESC')
      .take(q.limit ?? DEFAULT_LIMIT)
      .skip(q.offset ?? 0)
      .getMany();
    return rows.map(toTemplateResponse);
  }

  /** The canonical list clients read instead of hard-coding the enum (spec §9.3). */
  categories(): string[] {
    return [...TEMPLATE_CATEGORIES];
  }
}

/** `search` is a literal prefix: LIKE wildcards in it match themselves. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
