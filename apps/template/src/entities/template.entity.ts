import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { FieldDefDto, TemplateCategory, TemplateStatus } from '@docket/contracts';
import type { TemplateSettings } from '../templates/template.defaults.js';

/** The mutable head of a template. `fields` mirrors the row in `template_versions` for `version`. */
@Entity({ schema: 'template', name: 'templates' })
@Index('templates_account_slug_uq', ['accountId', 'slug'], { unique: true })
@Index('templates_account_created_idx', ['accountId', 'createdAt'])
export class TemplateEntity {
  @PrimaryColumn({ type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_templates' })
  id: string;

  @Column({ name: 'account_id', type: 'varchar', length: 64 })
  accountId: string;

  @Column({ type: 'varchar', length: 250 })
  name: string;

  @Column({ type: 'varchar', length: 250 })
  slug: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'varchar', length: 50 })
  category: TemplateCategory;

  @Column({ type: 'jsonb' })
  tags: string[];

  @Column({ type: 'varchar', length: 16 })
  status: TemplateStatus;

  @Column({ type: 'integer' })
  version: number;

  @Column({ name: 'is_public', type: 'boolean' })
  isPublic: boolean;

  @Column({ name: 'usage_count', type: 'integer' })
  usageCount: number;

  @Column({ type: 'jsonb' })
  settings: TemplateSettings;

  @Column({ type: 'jsonb' })
  fields: FieldDefDto[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  /** Soft delete: the row stays for history, every read treats it as missing. */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;
}
