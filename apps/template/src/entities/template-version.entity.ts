import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { FieldDefDto } from '@docket/contracts';

/** One immutable row per schema version (the ordered fields): inserted once, never updated (spec §3.3, §9.4). */
@Entity({ schema: 'template', name: 'template_versions' })
export class TemplateVersionEntity {
  @PrimaryColumn({ name: 'template_id', type: 'varchar', length: 40, primaryKeyConstraintName: 'PK_template_versions' })
  templateId: string;

  @PrimaryColumn({ type: 'integer', primaryKeyConstraintName: 'PK_template_versions' })
  version: number;

  @Column({ name: 'account_id', type: 'varchar', length: 64 })
  accountId: string;

  @Column({ type: 'jsonb' })
  fields: FieldDefDto[];

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
