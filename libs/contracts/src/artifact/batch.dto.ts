import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
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
import { AccountScoped, AccountScopedEnv } from '../common/account-scoped.js';
import { RETENTION_POLICIES, type RetentionPolicy } from '../common/constants.js';
import { ExtractionSchemaDto } from '../common/field-def.dto.js';
import { FILE_TOO_LARGE_RULE, IsSupportedArtifactType, MAX_ARTIFACT_BYTES, SUPPORTED_ARTIFACT_TYPES } from '../common/limits.js';
import { ARTIFACT_SIZE_DESCRIPTION, ARTIFACT_TYPE_DESCRIPTION, MIME_TYPE_PATTERN } from './extract.dto.js';

/** Files per batch (spec §4.3, §8). */
export const BATCH_MAX_FILES = 50;
/** Empty or over-long `files` is a 400 (spec §4.3), not a 422 shape error. */
const BATCH_SIZE_RULE = { context: { code: 'validation_failed' } };

export class BatchFileDescriptorDto {
  @ApiProperty({ example: 'invoice-1001.pdf', description: 'Unique within the batch.' })
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(255)
  @Matches(/^[^/\\\u0000-\u001f]+$/, { message: 'filename must not contain path separators or control characters' })
  filename: string;

  @ApiProperty({ example: 'application/pdf', enum: SUPPORTED_ARTIFACT_TYPES, description: ARTIFACT_TYPE_DESCRIPTION })
  @IsDefined()
  @IsString()
  @Matches(MIME_TYPE_PATTERN, { message: 'artifact_type must be a MIME type such as application/pdf' })
  @IsSupportedArtifactType()
  artifact_type: string;

  @ApiProperty({ example: 48213, minimum: 1, maximum: MAX_ARTIFACT_BYTES, description: ARTIFACT_SIZE_DESCRIPTION })
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(MAX_ARTIFACT_BYTES, FILE_TOO_LARGE_RULE)
  artifact_size: number;

  @ApiPropertyOptional({ enum: RETENTION_POLICIES, default: '30d' })
  @IsOptional()
  @IsIn(RETENTION_POLICIES as unknown as string[])
  retention_policy?: RetentionPolicy;
}

/** `POST /batch` and `POST /artifacts/request-batch-upload` (the latter's extra fields are not shown in the spec: same body). */
export class BatchSubmitRequestDto {
  @ApiProperty({
    type: [BatchFileDescriptorDto],
    minItems: 1,
    maxItems: BATCH_MAX_FILES,
    description: '1 to 50 files; filenames unique within the batch.',
  })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1, BATCH_SIZE_RULE)
  @ArrayMaxSize(BATCH_MAX_FILES, BATCH_SIZE_RULE)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => BatchFileDescriptorDto)
  files: BatchFileDescriptorDto[];

  @ApiPropertyOptional({ example: 'tpl_01JD3Q8Y4N6Z2X', description: 'Exclusive with extraction_schema.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  template_id?: string;

  @ApiPropertyOptional({ type: () => ExtractionSchemaDto, description: 'Inline schema; exclusive with template_id.' })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ExtractionSchemaDto)
  extraction_schema?: ExtractionSchemaDto;

  @ApiPropertyOptional({ example: 'wh_01JD3Q8Y4N6Z2X', description: 'Applies to all files.' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  webhook_id?: string;

  @ApiPropertyOptional({
    example: 'https://hooks.example.com/docket',
    description: 'One-shot HTTPS URL for all files; its signing secret is returned once.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(2083)
  webhook_url?: string;
}

export class BatchFileResponseDto {
  @ApiProperty({ example: 'invoice-1001.pdf' }) filename: string;
  @ApiProperty({ example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' }) job_id: string;
  @ApiProperty({ example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' }) artifact_id: string;
  @ApiProperty({
    description:
      'Presigned PUT for this file; `Content-Type` must equal its artifact_type and the body be exactly its artifact_size bytes (403 from storage otherwise).',
  })
  upload_url: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, example: {} }) fields: Record<string, string>;
}

export class BatchSubmitResponseDto {
  @ApiProperty({ example: 'bat_01jd3q8y4n6z2xk7m5t9w0abcd', description: 'Groups all files; also in webhook payloads.' }) batch_id: string;
  @ApiProperty({ example: 3 }) total: number;
  @ApiProperty({ type: [BatchFileResponseDto] }) files: BatchFileResponseDto[];
  @ApiProperty({ type: 'string', nullable: true, example: null, description: 'Set only if webhook_url was passed; shown once.' })
  webhook_signing_secret: string | null;
}

export class CreateBatchCommand extends AccountScopedEnv {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => BatchSubmitRequestDto)
  request: BatchSubmitRequestDto;
}

export class BatchRef extends AccountScoped {
  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  batchId: string;
}

/** Response of `POST /artifacts/confirm-batch-upload/{batch_id}` (not shown in the spec; ours, see docs/adr). Artifact ids. */
export class ConfirmBatchResponseDto {
  @ApiProperty({ example: 'bat_01jd3q8y4n6z2xk7m5t9w0abcd' }) batch_id: string;
  @ApiProperty({ type: [String], description: 'Uploaded files confirmed by this call: now `uploaded`, jobs `queued_for_processing`.' })
  confirmed: string[];
  @ApiProperty({
    type: [String],
    description:
      'Never uploaded: still `pending_upload`, jobs `pending`, nothing queued, and their holds released at once (spec §3.1: not held against the wallet). ' +
      'Upload them before the URL expires and call again: they are held again and queued (402 for the whole call if the wallet cannot cover them).',
  })
  pending: string[];
  @ApiProperty({ type: [String], description: 'Confirmed earlier (by a previous call or confirm-upload); skipped, nothing re-queued.' })
  already_confirmed: string[];
  @ApiProperty({ type: [String], description: 'Can no longer be confirmed (upload URL expired, cancelled); skipped.' }) closed: string[];
}
