import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsIn, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateNested,
} from 'class-validator';
import { AccountScoped } from '../common/account-scoped.js';
import { TEMPLATE_CATEGORIES, type TemplateCategory, type TemplateStatus } from '../common/constants.js';
import { FieldDefDto, TemplateSettingsDto } from '../common/field-def.dto.js';

export class CreateTemplateDto {
  @ApiProperty({ example: 'Supplier invoice', minLength: 3 })
  @IsDefined() @IsString() @MinLength(3) @MaxLength(200)
  name: string;

  @ApiPropertyOptional({ example: 'Invoices from our EU suppliers' })
  @IsOptional() @IsString() @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ enum: TEMPLATE_CATEGORIES, default: 'custom', description: 'Read the live list from GET /templates/categories.' })
  @IsOptional() @IsString() @IsIn(TEMPLATE_CATEGORIES as unknown as string[])
  category?: TemplateCategory;

  @ApiPropertyOptional({ type: [String], example: ['finance'] })
  @IsOptional() @IsArray() @ArrayMaxSize(50) @IsString({ each: true }) @MaxLength(100, { each: true })
  tags?: string[];

  @ApiProperty({
    type: () => [FieldDefDto],
    example: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true }, { key: 'total', label: 'Total', data_type: 'currency' }],
  })
  @IsDefined() @IsArray() @ArrayMaxSize(200) @ValidateNested({ each: true }) @Type(() => FieldDefDto)
  fields: FieldDefDto[];

  @ApiPropertyOptional({ type: () => TemplateSettingsDto })
  @IsOptional() @IsObject() @ValidateNested() @Type(() => TemplateSettingsDto)
  settings?: TemplateSettingsDto;

  @ApiPropertyOptional({ default: false }) @IsOptional() @IsBoolean()
  is_public?: boolean;
}

export class TemplateSettingsResponse {
  @ApiProperty() auto_save: boolean;
  @ApiProperty() confidence_threshold: number;
  @ApiProperty() ocr_engine: string;
}

export class TemplateResponseDto {
  @ApiProperty({ example: 'tpl_01JD3Q8Y4N6Z2XK7M5T9W0ABCD' }) id: string;
  @ApiProperty({ example: 'acct_01jd3q8y4n6z2xk7m5t9w0abcd' }) user_id: string;
  @ApiProperty({ example: 'Supplier invoice' }) name: string;
  @ApiProperty({ example: 'supplier-invoice' }) slug: string;
  @ApiProperty({ example: '' }) description: string;
  @ApiProperty({ example: 'invoice' }) category: TemplateCategory;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty({ example: { fields: [{ key: 'invoice_number', label: 'Invoice Number', data_type: 'string', required: true }] } }) schema_definition: { fields: FieldDefDto[] };
  @ApiProperty({ example: 'active' }) status: TemplateStatus;
  @ApiProperty({ example: 1 }) version: number;
  @ApiProperty() is_public: boolean;
  @ApiProperty() usage_count: number;
  @ApiProperty({ type: () => TemplateSettingsResponse }) settings: TemplateSettingsResponse;
  @ApiProperty() created_at: string;
  @ApiProperty() updated_at: string;
}

export class CreateTemplateCommand extends AccountScoped {
  @IsDefined() @IsObject() @ValidateNested() @Type(() => CreateTemplateDto)
  body: CreateTemplateDto;
}

export class TemplateRef extends AccountScoped {
  @IsDefined() @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  templateId: string;
}

/** Immutable schema snapshot a job runs against (spec §3.3: in-flight jobs keep their version). */
export class TemplateSnapshot {
  template_id: string;
  version: number;
  fields: FieldDefDto[];
  settings: TemplateSettingsResponse;
}
