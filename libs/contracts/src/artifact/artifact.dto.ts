import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
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
import type { ArtifactStatus, JobStatus, RetentionPolicy } from '../common/constants.js';
import { IsOptionalNotNull } from '../common/optional.js';

export class ArtifactJobSummaryDto {
  @ApiProperty() job_id: string;
  @ApiProperty() status: JobStatus;
  @ApiProperty() created_at: string;
  @ApiPropertyOptional({ type: 'string', nullable: true }) completed_at: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) error: string | null;
}

/** Full artifact record (spec §2.1; field names beyond those named there are ours, see docs/adr). */
export class ArtifactRecordDto {
  @ApiProperty({ example: 'art_01JD3Q8Y4N6Z2XK7M5T9W0ABCD' }) id: string;
  @ApiProperty({ example: 'invoice-1001.pdf' }) filename: string;
  @ApiProperty({ example: 'application/pdf' }) artifact_type: string;
  @ApiProperty({ example: 48213 }) artifact_size: number;
  @ApiProperty({ example: 'uploaded' }) status: ArtifactStatus;
  @ApiProperty({ example: '30d' }) retention_policy: RetentionPolicy;
  @ApiPropertyOptional({ type: 'string', nullable: true }) description: string | null;
  @ApiProperty({ type: [String] }) tags: string[];
  @ApiProperty() created_at: string;
  @ApiPropertyOptional({ type: 'string', nullable: true }) uploaded_at: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) processed_at: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true }) status_message: string | null;
  @ApiPropertyOptional({ type: 'number', nullable: true }) confidence: number | null;
  @ApiProperty() needs_review: boolean;
  @ApiPropertyOptional({ type: 'object', nullable: true, additionalProperties: true }) latest_result: Record<string, unknown> | null;
  @ApiProperty({ type: [ArtifactJobSummaryDto] }) jobs: ArtifactJobSummaryDto[];
}

export class ArtifactRef extends AccountScoped {
  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  artifactId: string;
}

/** Largest `size` accepted by `GET /artifacts/` (the spec leaves the maximum open; ours is 100). */
export const ARTIFACT_PAGE_MAX_SIZE = 100;
export const ARTIFACT_PAGE_DEFAULT_SIZE = 50;

/** `GET /artifacts/` query (spec §4.2): 1-based page, default size 50, at most 100. */
export class ArtifactListQueryDto {
  @ApiPropertyOptional({ default: 1, minimum: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number = 1;

  @ApiPropertyOptional({ default: ARTIFACT_PAGE_DEFAULT_SIZE, minimum: 1, maximum: ARTIFACT_PAGE_MAX_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(ARTIFACT_PAGE_MAX_SIZE)
  size?: number = ARTIFACT_PAGE_DEFAULT_SIZE;
}

/** Gateway → artifact: one page of the account's artifacts, newest first. */
export class ArtifactListQuery extends AccountScoped {
  @IsInt() @Min(1) @Max(1_000_000) page: number;
  @IsInt() @Min(1) @Max(ARTIFACT_PAGE_MAX_SIZE) size: number;
}

/** `ArtifactListResponse` (spec §2.1). */
export class ArtifactListItemDto {
  @ApiProperty({ example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' }) id: string;
  @ApiProperty({ example: 'invoice-1001.pdf' }) filename: string;
  @ApiProperty({ example: 'application/pdf' }) artifact_type: string;
  @ApiProperty({ example: 48213 }) artifact_size: number;
  @ApiProperty({ example: 'completed' }) status: ArtifactStatus;
  @ApiPropertyOptional({ type: 'string', nullable: true, example: '2026-11-23T10:00:01.000Z' }) uploaded_at: string | null;
  @ApiPropertyOptional({ type: 'number', nullable: true, example: 0.93 }) confidence: number | null;
  @ApiProperty({ example: false }) needs_review: boolean;
}

/** `Page[ArtifactListResponse]` (spec §2.1). */
export class ArtifactPageDto {
  @ApiProperty({ type: [ArtifactListItemDto] }) items: ArtifactListItemDto[];
  @ApiProperty({ example: 1 }) total: number;
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 50 }) size: number;
  @ApiProperty({ example: 1, description: 'ceil(total / size); 0 when there are no artifacts.' }) pages: number;
}

/** Lightweight status object (spec §2.1, `GET /artifacts/{id}/status`). */
export class ArtifactStatusResponseDto {
  @ApiProperty({ example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' }) id: string;
  @ApiProperty({ example: 'processing' }) status: ArtifactStatus;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Null while unprocessed.' }) processed_at: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true, description: 'Error text, if any.' }) status_message: string | null;
}

/** `PATCH /artifacts/{id}` body: only these three are user-mutable; anything else is stripped. */
export class UpdateArtifactDto {
  @ApiPropertyOptional({ example: 'invoice-1001-march.pdf', minLength: 3, maxLength: 255 })
  @IsOptionalNotNull()
  @IsString()
  @MinLength(3)
  @MaxLength(255)
  @Matches(/^[^/\\\u0000-\u001f]+$/, { message: 'filename must not contain path separators or control characters' })
  filename?: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: 1000, example: 'March invoice from Acme' })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string | null;

  @ApiPropertyOptional({
    type: [String],
    example: ['acme', 'q1'],
    description: 'Replaces the whole list; at most 100 tags of up to 100 characters.',
  })
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];
}

export class UpdateArtifactCommand extends ArtifactRef {
  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => UpdateArtifactDto)
  body: UpdateArtifactDto;
}

export const DOWNLOAD_FILE_TYPES = ['raw', 'json', 'md'] as const;
export type DownloadFileType = (typeof DOWNLOAD_FILE_TYPES)[number];

export class DownloadQueryDto {
  @ApiPropertyOptional({ enum: DOWNLOAD_FILE_TYPES, default: 'json' })
  @IsOptional()
  @IsIn(DOWNLOAD_FILE_TYPES as unknown as string[])
  file_type?: DownloadFileType = 'json';
}

export class DownloadArtifactCommand extends ArtifactRef {
  @IsIn(DOWNLOAD_FILE_TYPES as unknown as string[]) fileType: DownloadFileType;
}

export class DownloadResponseDto {
  @ApiProperty({ description: 'Presigned GET; do not cache.' }) download_url: string;
  @ApiProperty({ example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' }) artifact_id: string;
  @ApiProperty({
    example: 'invoice-1001.pdf',
    description: 'Suggested file name: the artifact filename for raw; its stem with .json or .md otherwise.',
  })
  filename: string;
  @ApiProperty({ example: 300 }) expires_in: number;
}

/** Gateway → artifact: rerun with the caller's key (its sandbox flag decides synthetic vs. charged). */
export class RerunArtifactCommand extends AccountScopedEnv {
  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  artifactId: string;
}

export class RerunResponseDto {
  @ApiProperty({ example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' }) job_id: string;
  @ApiProperty({ example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' }) artifact_id: string;
  @ApiProperty({ example: 'queued_for_processing' }) status: JobStatus;
}

// Batch and pipeline contracts live in their own files; re-exported here so `@docket/contracts` exposes them.
