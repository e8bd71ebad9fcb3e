import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { AccountScoped } from '../common/account-scoped.js';
import { TEMPLATE_CATEGORIES, TEMPLATE_STATUSES, type TemplateCategory, type TemplateStatus } from '../common/constants.js';
import { FieldDefDto, TemplateFieldDefDto, TemplateSettingsDto } from '../common/field-def.dto.js';
import { MAX_LIST_OFFSET } from '../common/limits.js';
import { IsOptionalNotNull } from '../common/optional.js';
import { PatternsWithinShare } from '../common/user-pattern.js';

export class CreateTemplateDto {
  @ApiProperty({ example: 'Supplier invoice', minLength: 3 })
  @IsDefined()
  @IsString()
  @MinLength(3)
  @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ example: 'Invoices from our EU suppliers' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ enum: TEMPLATE_CATEGORIES, default: 'custom', description: 'Read the live list from GET /templates/categories.' })
  @IsOptional()
  @IsString()
  @IsIn(TEMPLATE_CATEGORIES as unknown as string[])
  category?: TemplateCategory;

  @ApiPropertyOptional({ type: [String], example: ['finance'] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @ApiPropertyOptional({
    type: () => [TemplateFieldDefDto],
    default: [],
    description:
      'Ordered field definitions (`TemplateFieldDef`: `key`, `label` and `data_type` required). Optional: without it the template starts with no fields; add them with `PATCH /templates/{id}/schema`.',
    example: [
      { key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true },
      { key: 'total', label: 'Total', data_type: 'currency' },
    ],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => TemplateFieldDefDto)
  @PatternsWithinShare({ context: { code: 'patterns_too_large' } })
  fields?: TemplateFieldDefDto[];

  @ApiPropertyOptional({ type: () => TemplateSettingsDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TemplateSettingsDto)
  settings?: TemplateSettingsDto;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  is_public?: boolean;
}

export class TemplateSettingsResponse {
  @ApiProperty() auto_save: boolean;
  @ApiProperty() confidence_threshold: number;
  @ApiProperty() ocr_engine: string;
  @ApiProperty({
    nullable: true,
    example: null,
    description: 'ISO 4217 code for amounts printed without a currency; null: none (the amount keeps `currency: null`).',
  })
  default_currency: string | null;
  @ApiProperty({
    description: 'Read only the pages the wallet covers instead of failing with `insufficient_funds` (see TemplateSettingsDto).',
  })
  partial_pages: boolean;
}

export class TemplateResponseDto {
  @ApiProperty({ example: 'tpl_01JD3Q8Y4N6Z2XK7M5T9W0ABCD' }) id: string;
  @ApiProperty({ example: 'acct_01jd3q8y4n6z2xk7m5t9w0abcd' }) user_id: string;
  @ApiProperty({ example: 'Supplier invoice' }) name: string;
  @ApiProperty({ example: 'supplier-invoice' }) slug: string;
  @ApiProperty({ example: '' }) description: string;
  @ApiProperty({ example: 'invoice' }) category: TemplateCategory;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ example: { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true }] } })
  schema_definition: { fields: FieldDefDto[] };
  @ApiProperty({ example: 'active' }) status: TemplateStatus;
  @ApiProperty({ example: 1 }) version: number;
  @ApiProperty() is_public: boolean;
  @ApiProperty() usage_count: number;
  @ApiProperty({ type: () => TemplateSettingsResponse }) settings: TemplateSettingsResponse;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class CreateTemplateCommand extends AccountScoped {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => CreateTemplateDto)
  body: CreateTemplateDto;
}

export class TemplateRef extends AccountScoped {
  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  templateId: string;
}

/** Immutable schema snapshot a job runs against (spec §3.3: in-flight jobs keep their version). */
export class TemplateSnapshot {
  template_id: string;
  version: number;
  fields: FieldDefDto[];
  settings: TemplateSettingsResponse;
}

/** Snapshot request: the current version by default; `version` reads an older immutable version row. */
export class TemplateSnapshotQuery extends TemplateRef {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000_000)
  version?: number;
}

/** Query strings arrive as text over HTTP and as JSON booleans over NATS; both become booleans. */
const toBoolean = ({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value);

export class ListTemplatesQueryDto {
  @ApiPropertyOptional({ enum: TEMPLATE_CATEGORIES })
  @IsOptional()
  @IsString()
  @IsIn(TEMPLATE_CATEGORIES as unknown as string[])
  category?: TemplateCategory;

  @ApiPropertyOptional({ description: 'Case-insensitive prefix match on name and description.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  search?: string;

  @ApiPropertyOptional({ default: 50, minimum: 1, maximum: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ default: 0, minimum: 0, maximum: MAX_LIST_OFFSET })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(0)
  @Max(MAX_LIST_OFFSET)
  offset?: number;

  @ApiPropertyOptional({ default: false, description: 'Archived templates are excluded unless this is true.' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  include_archived?: boolean;
}

export class ListTemplatesCommand extends AccountScoped {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ListTemplatesQueryDto)
  query?: ListTemplatesQueryDto;
}

/** PUT semantics of spec §4.5: every field optional, omitted fields unchanged, the schema never changes. */
export class UpdateTemplateDto {
  @ApiPropertyOptional({ minLength: 3 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(3)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ enum: TEMPLATE_CATEGORIES })
  @IsOptionalNotNull()
  @IsString()
  @IsIn(TEMPLATE_CATEGORIES as unknown as string[])
  category?: TemplateCategory;

  @ApiPropertyOptional({ type: [String] })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(50)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];

  @ApiPropertyOptional({ enum: TEMPLATE_STATUSES, description: 'draft→active, active→archived, archived→active.' })
  @IsOptionalNotNull()
  @IsString()
  @IsIn(TEMPLATE_STATUSES as unknown as string[])
  status?: TemplateStatus;

  @ApiPropertyOptional({ type: () => TemplateSettingsDto, description: 'Given keys are merged into the current settings.' })
  @IsOptionalNotNull()
  @IsObject()
  @ValidateNested()
  @Type(() => TemplateSettingsDto)
  settings?: TemplateSettingsDto;

  @ApiPropertyOptional()
  @IsOptionalNotNull()
  @IsBoolean()
  is_public?: boolean;
}

export class UpdateTemplateCommand extends TemplateRef {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateTemplateDto)
  body: UpdateTemplateDto;
}

export class DeleteTemplateQueryDto {
  @ApiPropertyOptional({ default: false, description: 'Irreversible; refused (409) while an in-flight job uses the template.' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean()
  hard_delete?: boolean;
}

export class DeleteTemplateCommand extends TemplateRef {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => DeleteTemplateQueryDto)
  query?: DeleteTemplateQueryDto;
}

export class DeleteTemplateReply {
  id: string;
  deleted: true;
  hard_delete: boolean;
}

/** Reply of `Subjects.artifact.templateInUse` (payload: TemplateRef). */
export class TemplateInUseReply {
  in_use: boolean;
}

export class PatchTemplateSchemaDto {
  @ApiPropertyOptional({ type: () => [TemplateFieldDefDto], description: 'Appended; 400 if a key already exists.' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => TemplateFieldDefDto)
  @PatternsWithinShare({ context: { code: 'patterns_too_large' } })
  add_fields?: TemplateFieldDefDto[];

  @ApiPropertyOptional({
    type: () => [TemplateFieldDefDto],
    description: 'Whole field replaced by key (omitted attributes reset); 404 if the key is missing.',
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(200)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => TemplateFieldDefDto)
  @PatternsWithinShare({ context: { code: 'patterns_too_large' } })
  update_fields?: TemplateFieldDefDto[];

  @ApiPropertyOptional({ type: [String], description: 'Keys to delete; missing keys are ignored.' })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(200)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  remove_fields?: string[];
}

export class PatchTemplateSchemaCommand extends TemplateRef {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PatchTemplateSchemaDto)
  body: PatchTemplateSchemaDto;
}

export class CloneTemplateDto {
  @ApiPropertyOptional({ minLength: 3, description: 'Default: the name followed by " (clone)".' })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(3)
  @MaxLength(200)
  new_name?: string;

  @ApiPropertyOptional({ default: true, description: 'When false, settings reset to defaults.' })
  @IsOptionalNotNull()
  @IsBoolean()
  include_settings?: boolean;
}

export class CloneTemplateCommand extends TemplateRef {
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => CloneTemplateDto)
  body?: CloneTemplateDto;
}
