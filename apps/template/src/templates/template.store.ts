import { Injectable } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import { DataSource, type EntityManager } from 'typeorm';
import { monotonicFactory } from 'ulid';
import { TemplateVersionEntity } from '../entities/template-version.entity.js';
import { TemplateEntity } from '../entities/template.entity.js';
import { pickFreeSlug, slugCandidatesPattern, slugify } from './slug.js';

export type NewTemplate = Omit<TemplateEntity, 'id' | 'slug' | 'version' | 'usageCount' | 'createdAt' | 'updatedAt' | 'deletedAt'>;

export interface FindOwnedOptions {
  manager?: EntityManager;
  /** SELECT … FOR UPDATE inside the caller's transaction. */
  lock?: boolean;
  /** Historical reads (an old version's snapshot) still see a soft-deleted template. */
  includeDeleted?: boolean;
}

const UNIQUE_VIOLATION = '23505';
const SLUG_ATTEMPTS = 5;

/** Monotonic within a process, so ids created in the same millisecond still sort by creation. */
const ulid = monotonicFactory();
export const newTemplateId = () => `tpl_${ulid().toLowerCase()}`;

/** Data access shared by the template use cases. Every read is scoped to one account. */
@Injectable()
export class TemplateStore {
  constructor(private readonly ds: DataSource) {}

  /**
   * The live (not soft-deleted) template of `accountId`: missing or soft-deleted → 404, another
   * account's → 403. A soft-deleted template of another account is a 404 too (nothing to protect).
   */
  async findOwned(accountId: string, id: string, o: FindOwnedOptions = {}): Promise<TemplateEntity> {
    const qb = (o.manager ?? this.ds.manager).getRepository(TemplateEntity).createQueryBuilder('t').where('t.id = :id', { id });
    if (o.lock) qb.setLock('pessimistic_write');
    const t = await qb.getOne();
    if (!t || (t.deletedAt && !o.includeDeleted)) throw new DocketError('template_not_found', `Template ${id} not found`);
    if (t.accountId !== accountId) throw new DocketError('forbidden', `Template ${id} belongs to another account`);
    return t;
  }

  async findVersion(templateId: string, version: number): Promise<TemplateVersionEntity | null> {
    return this.ds.getRepository(TemplateVersionEntity).findOneBy({ templateId, version });
  }

  /**
   * Inserts a template at version 1 with its first immutable version row, under a slug unique
   * for the account. A concurrent insert of the same slug loses on the unique index and retries.
   */
  async insertNew(data: NewTemplate): Promise<TemplateEntity> {
    const base = slugify(data.name);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.ds.transaction(async (m) => {
          const taken = await m
            .getRepository(TemplateEntity)
            .createQueryBuilder('t')
            .select('t.slug', 'slug')
            .where('t.accountId = :accountId AND t.slug LIKE :pattern', { accountId: data.accountId, pattern: slugCandidatesPattern(base) })
            .getRawMany<{ slug: string }>();
          const now = new Date();
          const row = m.getRepository(TemplateEntity).create({
            ...data,
            id: newTemplateId(),
            slug: pickFreeSlug(
              base,
              taken.map((r) => r.slug),
            ),
            version: 1,
            usageCount: 0,
            createdAt: now,
            updatedAt: now,
            deletedAt: null,
          });
          await m.getRepository(TemplateEntity).insert(row);
          await this.insertVersion(m, row);
          return row;
        });
      } catch (err) {
        if ((err as { code?: string }).code !== UNIQUE_VIOLATION || attempt >= SLUG_ATTEMPTS) throw err;
      }
    }
  }

  /** Version rows are only ever inserted; nothing updates or deletes one short of a hard delete. */
  async insertVersion(m: EntityManager, t: TemplateEntity): Promise<void> {
    await m.getRepository(TemplateVersionEntity).insert({
      templateId: t.id,
      version: t.version,
      accountId: t.accountId,
      fields: t.fields,
      createdAt: t.updatedAt,
    });
  }
}
