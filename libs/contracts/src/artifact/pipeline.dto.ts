import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  MinLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { AccountScopedEnv } from '../common/account-scoped.js';
import { ExtractRequestDto } from './extract.dto.js';
import { IsOptionalNotNull } from '../common/optional.js';

/** Pipeline (legacy, spec §2.5). */
export class PipelineDto {
  @ApiProperty({ example: 'pipe_01jd3q8y4n6z2xk7m5t9w0abcd' }) id: string;
  @ApiProperty({ example: 'Default pipeline' }) name: string;
  @ApiProperty({ example: true, description: 'When false, no new jobs are accepted under the pipeline.' }) is_active: boolean;
  @ApiProperty({
    example: true,
    description: "The account's default pipeline: `POST /extract`, `POST /batch` and `POST /artifacts/upload` run under it. (Extension.)",
  })
  is_default: boolean;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'auto',
    description:
      'Default template when a request names neither template_id nor extraction_schema. New accounts start with the built-in `auto` ' +
      "(the engine classifies the document as invoice, receipt, form, table_document or other and extracts that kind's standard fields; the result's " +
      '`document_type` says which). null: such requests answer 400 `no_default_template`.',
  })
  template_id: string | null;
  @ApiProperty({
    type: 'string',
    nullable: true,
    example: null,
    description: 'Default webhook when a request names neither webhook_id nor webhook_url. (Extension.)',
  })
  webhook_id: string | null;
  @ApiProperty({ example: 12, description: 'Lifetime number of jobs submitted under the pipeline.' }) execution_count: number;
  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' }) created_at: string;
}

/** `POST /pipeline_async` (spec §4.7): an extract request under a named pipeline. */
export class PipelineAsyncRequestDto extends ExtractRequestDto {
  @ApiProperty({ example: 'pipe_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  pipeline_id: string;
}

/** `AsyncJobStartResponse`: like `ExtractResponse` without `artifact_id` (read it from the artifact list or record). */
export class AsyncJobStartResponseDto {
  @ApiProperty({ example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' }) job_id: string;
  @ApiProperty({ description: 'Presigned single-use PUT URL; `Content-Type` must equal artifact_type.' }) upload_url: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} }) fields: Record<string, string>;
  @ApiProperty({ example: 3600 }) expires_in: number;
  @ApiProperty({ type: 'string', nullable: true, example: null }) webhook_signing_secret: string | null;
}

export class CreatePipelineJobCommand extends AccountScopedEnv {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => PipelineAsyncRequestDto)
  request: PipelineAsyncRequestDto;
}

/**
 * `PATCH /pipelines/{pipeline_id}` (an extension: the spec shows no route to configure a pipeline). Omitted fields are
 * unchanged; `template_id` / `webhook_id` null clears the default. The template (or `auto`) and the webhook are checked
 * to exist in the account (404 otherwise).
 */
export class UpdatePipelineDto {
  @ApiPropertyOptional({ example: 'Invoices', minLength: 1, maxLength: 255 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  name?: string;

  @ApiPropertyOptional({ example: true, description: 'false: the pipeline accepts no new jobs (POST /pipeline_async answers 404).' })
  @IsOptionalNotNull()
  @IsBoolean()
  is_active?: boolean;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    example: 'tpl_01jd3q8y4n6z2xk7m5t9w0abcd',
    description: 'A template of the account, `auto`, or null.',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  template_id?: string | null;

  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    example: 'wh_01jd3q8y4n6z2xk7m5t9w0abcd',
    description: 'A webhook of the account, or null.',
  })
  @IsOptional()
  @ValidateIf((_o, v) => v !== null)
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  webhook_id?: string | null;
}

/** `pipelineId` of an update naming the account's default pipeline without knowing its id (admin CLI `set-defaults`). */
export const DEFAULT_PIPELINE_ALIAS = 'default';

/** Change a pipeline (`PATCH /pipelines/{id}`, admin CLI `set-defaults` with `pipelineId: "default"`). */
export class UpdatePipelineCommand extends UpdatePipelineDto {
  @IsDefined()
  @IsString()
  @Matches(/^acct_[0-9a-z]+$/)
  accountId: string;

  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  pipelineId: string;
}
