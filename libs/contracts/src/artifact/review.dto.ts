import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsObject, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { ArtifactListQuery, ArtifactListQueryDto } from './artifact.dto.js';
import { JobRef } from './job.dto.js';

/** Where a result version came from: the engine's reading (version 1) or a person's correction. */
export const RESULT_VERSION_SOURCES = ['engine', 'correction'] as const;
export type ResultVersionSource = (typeof RESULT_VERSION_SOURCES)[number];

/** At most this many fields in one correction (a template has at most 200). */
export const MAX_CORRECTED_FIELDS = 200;

/** `GET /review` query: the artifacts' paging, and a template to filter by. */
export class ReviewQueryDto extends ArtifactListQueryDto {
  @ApiPropertyOptional({ example: 'tpl_01jd3q8y4n6z2xk7m5t9w0abcd', description: 'Only jobs run with this template.' })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  template_id?: string;
}

/** Gateway → artifact: one page of the account's jobs that need review, newest first. */
export class ReviewListQuery extends ArtifactListQuery {
  @IsOptional() @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/) templateId?: string;
}

export class ReviewItemDto {
  @ApiProperty({ example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' }) job_id: string;
  @ApiProperty({ example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' }) artifact_id: string;
  @ApiProperty({ example: 'invoice-1001.pdf' }) filename: string;
  @ApiPropertyOptional({ type: 'string', nullable: true, example: 'tpl_01jd3q8y4n6z2xk7m5t9w0abcd' }) template_id: string | null;
  @ApiPropertyOptional({ type: 'number', nullable: true, example: 0.54 }) confidence: number | null;
  @ApiProperty({ example: 1, description: 'The latest result version (1 = the engine’s reading).' }) result_version: number;
  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' }) created_at: string;
  @ApiPropertyOptional({ type: 'string', nullable: true, example: '2026-11-23T10:00:04.120Z' }) completed_at: string | null;
}

export class ReviewPageDto {
  @ApiProperty({ type: [ReviewItemDto] }) items: ReviewItemDto[];
  @ApiProperty({ example: 1 }) total: number;
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 50 }) size: number;
  @ApiProperty({ example: 1 }) pages: number;
}

export class CorrectionRequestDto {
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    example: { invoice_number: 'INV-2001', total: { value: 99.5, currency: 'EUR' }, invoice_date: '2026-03-01' },
    description:
      'Corrected values keyed by field key (fields left out keep their value; `null` clears an optional field). Each value must fit ' +
      'the field’s `data_type` — `string`: a string; `number`: a number; `date`: `YYYY-MM-DD`; `currency`: ' +
      '`{ "value": number, "currency": "EUR" | null }`; `boolean`: true/false; `table`: an array of row objects keyed by column key — ' +
      'and its `validation` rules (`regex`, `min_value`, `max_value`, `required`). Otherwise 422 `invalid_correction` with one `details` ' +
      'entry per refused field.',
  })
  @IsDefined()
  @IsObject()
  fields: Record<string, unknown>;
}

/** Gateway → artifact: store a correction as the job's next result version. */
export class CorrectJobCommand extends JobRef {
  @IsOptional() @IsString() @MaxLength(64) apiKeyId?: string;
  @IsDefined() @IsObject() fields: Record<string, unknown>;
}

/** Gateway → artifact: a person approved the result as it is. */
export class ApproveJobCommand extends JobRef {
  @IsOptional() @IsString() @MaxLength(64) apiKeyId?: string;
}

export class FieldProvenanceDto {
  @ApiProperty({ example: 0.91 }) confidence: number;
  @ApiPropertyOptional({ example: 1 }) page?: number;
  @ApiPropertyOptional({
    example: [72, 96, 210, 110],
    description: '[x0, y0, x1, y1] in page units (PDF points or pixels), origin top-left.',
  })
  bbox?: [number, number, number, number];
  @ApiPropertyOptional({ example: [] }) errors?: string[];
}

export class ResultVersionDto {
  @ApiProperty({ example: 2 }) version: number;
  @ApiProperty({ enum: RESULT_VERSION_SOURCES, example: 'correction' }) source: ResultVersionSource;
  @ApiPropertyOptional({
    type: 'string',
    nullable: true,
    example: 'key_01jd3q8y4n6z2xk7m5t9w0abcd',
    description: 'The API key that made the correction; null for the engine’s reading.',
  })
  api_key_id: string | null;
  @ApiProperty({ example: '2026-11-23T10:05:00.000Z' }) created_at: string;
  @ApiProperty({ example: ['invoice_number'], description: 'Fields whose value differs from the previous version.' })
  changed_fields: string[];
  @ApiProperty({ type: 'object', additionalProperties: true, example: { invoice_number: 'INV-2001' } })
  result: Record<string, unknown>;
}

export class ResultVersionsDto {
  @ApiProperty({ example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd' }) job_id: string;
  @ApiProperty({ example: false }) needs_review: boolean;
  @ApiPropertyOptional({ type: 'string', nullable: true, example: '2026-11-23T10:06:00.000Z' }) reviewed_at: string | null;
  @ApiPropertyOptional({ type: 'string', nullable: true, example: 'key_01jd3q8y4n6z2xk7m5t9w0abcd' }) reviewed_by: string | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'object' },
    description: 'The engine’s provenance per field (confidence, page, bounding box, validation messages) — where each value stood.',
    example: { invoice_number: { confidence: 0.91, page: 1, bbox: [72, 96, 210, 110], errors: [] } },
  })
  fields: Record<string, FieldProvenanceDto>;
  @ApiProperty({ type: [ResultVersionDto], description: 'Oldest first: version 1 is the engine’s reading, kept unchanged.' })
  versions: ResultVersionDto[];
}

/**
 * `events.v1.job.corrected` on stream EVENTS, published by `artifact` through its outbox when a correction is stored.
 * Billing never reads it: a correction changes no money. The webhook dispatcher delivers `job.corrected`.
 */
export interface JobCorrectedEvent {
  eventId: string;
  jobId: string;
  artifactId: string;
  accountId: string;
  version: number;
  apiKeyId: string | null;
  changedFields: string[];
  correctedAt: string;
}
