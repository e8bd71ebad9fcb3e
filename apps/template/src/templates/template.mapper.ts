import type { TemplateResponseDto, TemplateSnapshot } from '@docket/contracts';
import type { TemplateEntity } from '../entities/template.entity.js';
import { withDefaultSettings } from './template.defaults.js';

/** The spec §2.3 shape: snake_case, ISO timestamps. */
export function toTemplateResponse(t: TemplateEntity): TemplateResponseDto {
  return {
    id: t.id,
    user_id: t.accountId,
    name: t.name,
    slug: t.slug,
    description: t.description,
    category: t.category,
    tags: t.tags,
    schema_definition: { fields: t.fields },
    status: t.status,
    version: t.version,
    is_public: t.isPublic,
    usage_count: t.usageCount,
    settings: withDefaultSettings(t.settings),
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

export function toSnapshot(t: TemplateEntity, version: number, fields: TemplateEntity['fields']): TemplateSnapshot {
  return { template_id: t.id, version, fields, settings: withDefaultSettings(t.settings) };
}
