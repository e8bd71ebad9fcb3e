import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength, ValidateIf, ValidateNested } from 'class-validator';
import { AccountScoped, AccountScopedEnv } from '../common/account-scoped.js';
import { ExtractRequestDto } from './extract.dto.js';

/** Pipeline (legacy, spec §2.5). */
export class PipelineDto {
  @ApiProperty({ example: 'pipe_01jd3q8y4n6z2xk7m5t9w0abcd' }) id: string;
  @ApiProperty({ example: 'Default pipeline' }) name: string;
  @ApiProperty({ example: true, description: 'When false, no new jobs are accepted under the pipeline.' }) is_active: boolean;
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Default template; may be null.' }) template_id: string | null;
  @ApiProperty({ example: 12, description: 'Lifetime number of jobs submitted under the pipeline.' }) execution_count: number;
  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' }) created_at: string;
}

/** `POST /pipeline_async` (spec §4.7): an extract request under a named pipeline. */
export class PipelineAsyncRequestDto extends ExtractRequestDto {
  @ApiProperty({ example: 'pipe_01jd3q8y4n6z2xk7m5t9w0abcd' })
  @IsDefined() @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/)
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
  @IsDefined() @IsObject() @ValidateNested() @Type(() => PipelineAsyncRequestDto)
  request: PipelineAsyncRequestDto;
}

/**
 * Operator-only (NATS, no HTTP route in the spec): change a pipeline. Omitted fields are unchanged;
 * `template_id` / `webhook_id` null clears the default. The template and webhook are checked to exist.
 */
export class UpdatePipelineCommand extends AccountScoped {
  @IsDefined() @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  pipelineId: string;

  @IsOptional() @IsString() @MinLength(1) @MaxLength(255) name?: string;
  @IsOptional() @IsBoolean() is_active?: boolean;
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() @MaxLength(64) template_id?: string | null;
  @IsOptional() @ValidateIf((_o, v) => v !== null) @IsString() @MaxLength(64) webhook_id?: string | null;
}

/** The operator view of a pipeline: the public fields plus the default webhook. */
export class PipelineAdminDto extends PipelineDto {
  @ApiPropertyOptional({ type: 'string', nullable: true }) webhook_id: string | null;
  @ApiProperty() is_default: boolean;
}
