import { Injectable } from '@nestjs/common';
import type {
  CloneTemplateCommand,
  CreateTemplateCommand,
  PatchTemplateSchemaCommand,
  TemplateResponseDto,
  TemplateStatus,
  UpdateTemplateCommand,
} from '@docket/contracts';
import { DocketError } from '@docket/errors';
import { DataSource } from 'typeorm';
import { TemplateEntity } from '../entities/template.entity.js';
import { applySchemaPatch, assertUniqueKeys, isEmptyPatch, normalizeFields } from './schema-patch.js';
import { DEFAULT_SETTINGS, mergeSettings } from './template.defaults.js';
import { toTemplateResponse } from './template.mapper.js';
import { TemplateStore } from './template.store.js';

/** Spec §3.3 status transitions through PUT; setting the current status again is a no-op. */
const TRANSITIONS: Record<TemplateStatus, readonly TemplateStatus[]> = {
  draft: ['active'],
  active: ['archived'],
  archived: ['active'],
};

export function assertTransition(from: TemplateStatus, to: TemplateStatus): void {
  if (from === to || TRANSITIONS[from].includes(to)) return;
  throw new DocketError('validation_failed', `A template cannot go from ${from} to ${to}`, [{ field: 'status', from, to }]);
}

/** Writes: create, PUT update, schema patch (new immutable version), clone. */
@Injectable()
export class TemplateCommandService {
  constructor(
    private readonly ds: DataSource,
    private readonly store: TemplateStore,
  ) {}

  async create(cmd: CreateTemplateCommand): Promise<TemplateResponseDto> {
    const b = cmd.body;
    const fields = normalizeFields(b.fields ?? []);
    assertUniqueKeys(fields);
    const t = await this.store.insertNew({
      accountId: cmd.accountId,
      name: b.name,
      description: b.description ?? '',
      category: b.category ?? 'custom',
      tags: b.tags ?? [],
      status: 'active',
      isPublic: b.is_public ?? false,
      settings: mergeSettings(DEFAULT_SETTINGS, b.settings),
      fields,
    });
    return toTemplateResponse(t);
  }

  /** PUT: omitted fields unchanged, settings merged key by key, slug and schema never change. */
  async update(cmd: UpdateTemplateCommand): Promise<TemplateResponseDto> {
    const b = cmd.body;
    return this.ds.transaction(async (manager) => {
      const t = await this.store.findOwned(cmd.accountId, cmd.templateId, { manager, lock: true });
      if (b.status !== undefined) assertTransition(t.status, b.status);
      if (b.name !== undefined) t.name = b.name;
      if (b.description !== undefined) t.description = b.description;
      if (b.category !== undefined) t.category = b.category;
      if (b.tags !== undefined) t.tags = b.tags;
      if (b.status !== undefined) t.status = b.status;
      if (b.is_public !== undefined) t.isPublic = b.is_public;
      if (b.settings !== undefined) t.settings = mergeSettings(t.settings, b.settings);
      t.updatedAt = new Date();
      await manager.getRepository(TemplateEntity).update(
        { id: t.id, accountId: cmd.accountId },
        {
          name: t.name,
          description: t.description,
          category: t.category,
          tags: t.tags,
          status: t.status,
          isPublic: t.isPublic,
          settings: t.settings,
          updatedAt: t.updatedAt,
        },
      );
      return toTemplateResponse(t);
    });
  }

  /** Each successful patch cuts a new immutable version row; older rows stay readable. */
  async patchSchema(cmd: PatchTemplateSchemaCommand): Promise<TemplateResponseDto> {
    if (isEmptyPatch(cmd.body)) {
      throw new DocketError('validation_failed', 'Give at least one of add_fields, update_fields, remove_fields');
    }
    return this.ds.transaction(async (manager) => {
      const t = await this.store.findOwned(cmd.accountId, cmd.templateId, { manager, lock: true });
      if (t.status === 'archived') {
        throw new DocketError('validation_failed', 'An archived template cannot be patched; set it active first', [
          { field: 'status', value: 'archived' },
        ]);
      }
      t.fields = applySchemaPatch(t.fields, cmd.body);
      t.version += 1;
      t.updatedAt = new Date();
      await manager
        .getRepository(TemplateEntity)
        .update({ id: t.id, accountId: cmd.accountId }, { fields: t.fields, version: t.version, updatedAt: t.updatedAt });
      await this.store.insertVersion(manager, t);
      return toTemplateResponse(t);
    });
  }

  /** A private-to-the-account draft at version 1 with the source's current schema. */
  async clone(cmd: CloneTemplateCommand): Promise<TemplateResponseDto> {
    const src = await this.store.findOwned(cmd.accountId, cmd.templateId);
    const b = cmd.body ?? {};
    const t = await this.store.insertNew({
      accountId: cmd.accountId,
      name: b.new_name ?? `${src.name} (clone)`,
      description: src.description,
      category: src.category,
      tags: [...src.tags],
      status: 'draft',
      isPublic: src.isPublic,
      settings: b.include_settings === false ? { ...DEFAULT_SETTINGS } : { ...src.settings },
      fields: src.fields,
    });
    return toTemplateResponse(t);
  }
}
