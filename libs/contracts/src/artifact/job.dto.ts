import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { AccountScoped } from '../common/account-scoped.js';
import type { JobStatus } from '../common/constants.js';
import { MAX_DOCUMENT_PAGES } from '../common/limits.js';
import { MemoryNoteDto } from './memory.dto.js';

export class JobStatusResponseDto {
  @ApiProperty({ example: 'job_01JD3Q8Y4N6Z2XK7M5T9W0ABCD' }) job_id: string;
  @ApiProperty({
    example: 'art_01JD3Q8Y4N6Z2XK7M5T9W0ABCD',
    description: 'The artifact the job runs against (spec §4.7: how pipeline_async callers find it).',
  })
  artifact_id: string;
  @ApiProperty({ example: 'success', enum: ['pending', 'queued_for_processing', 'running', 'success', 'failed', 'cancelled', 'expired'] })
  status: JobStatus;
  @ApiProperty({ example: '2026-11-23T10:00:00.000Z' }) created_at: string;
  @ApiPropertyOptional({ example: '2026-11-23T10:00:04.120Z', description: 'Terminal states only.' }) completed_at?: string;
  @ApiPropertyOptional({ description: 'Status `success` only; presigned, short-lived.' }) result_download_url?: string;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { invoice_number: 'INV-1001', total: { value: 1234.5, currency: 'USD' } },
    description: 'Status `success` only; keyed by field key.',
  })
  result?: Record<string, unknown>;
  @ApiPropertyOptional({
    example: 1,
    description:
      'Status `success` only (extension): the version `result` is — 1 is the engine’s reading, each correction adds one (`GET /job/{job_id}/results`).',
  })
  result_version?: number;
  @ApiPropertyOptional({
    example: false,
    description: 'Status `success` only (extension): the result waits in the review queue (`GET /review`) until corrected or approved.',
  })
  needs_review?: boolean;
  @ApiPropertyOptional({
    example: 'unsupported_type: image/svg+xml is not supported',
    description:
      "`<code>: <message>`; status `failed` or `expired`. `insufficient_funds: …` when the wallet could not cover the document's pages (nothing was read or charged).",
  })
  error?: string;
  @ApiPropertyOptional({
    example: 5,
    description:
      'Status `success`, present only when fewer pages were read than the document has (template setting `partial_pages`: the wallet covered only these): the pages read, from the first.',
  })
  pages_read?: number;
  @ApiPropertyOptional({ example: 30, description: 'With `pages_read`: the pages the document has.' }) page_count?: number;
  @ApiPropertyOptional({
    type: MemoryNoteDto,
    description:
      'Status `success`, present only when a layout exemplar of the account helped (extension, ADR 0014): which one, how alike, and ' +
      'the fields read where it remembers them (their provenance in `GET /job/{job_id}/results` is `memory`).',
  })
  memory?: MemoryNoteDto;
}

export class JobRef extends AccountScoped {
  @IsDefined()
  @IsString()
  @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  jobId: string;
}

/**
 * Artifact → billing's reconciliation sweep: what a job's hold should become. `exists: false` when no such job
 * belongs to the account (its artifact was deleted, or its creation was aborted after the hold).
 */
export interface JobSettlementReply {
  exists: boolean;
  status?: JobStatus;
  terminal: boolean;
  /** Pages processed (a successful job is charged for them). */
  pages: number;
}

/** Worker → artifact: the worker picked the job up. Reply says whether to go on (false when terminal). */
export class JobStartedCommand {
  @IsDefined() @IsString() jobId: string;
  @IsInt() @Min(1) @Max(1000) attempt: number;
}

export class JobStartedReply {
  proceed: boolean;
  /**
   * Processing attempts of the job so far, this one included (kept by artifact, ADR 0008): deliveries that failed
   * before reaching artifact (an outage) are not counted. Absent from older artifact versions.
   */
  attempt?: number;
}

/** Worker → artifact at each delivery of `jobs.v1.run`: storage access for that job's objects only. */
export class JobStorageCommand {
  @IsDefined() @IsString() jobId: string;
}

/**
 * Presigned URLs for one job (the worker holds no storage credentials): HEAD and GET of its source, PUT of its
 * result JSON and Markdown at the keys artifact derives itself (`resultKeys`), Content-Type signed
 * (`RESULT_CONTENT_TYPES`). `proceed: false` (no URLs) when the job is terminal or gone: nothing to do.
 */
export class JobStorageReply {
  proceed: boolean;
  sourceHeadUrl?: string;
  sourceGetUrl?: string;
  resultPutUrl?: string;
  markdownPutUrl?: string;
}

/**
 * Worker → artifact, once the worker knows the document's page count and before it reads any page (ADR 0005):
 * artifact, which owns the job, asks billing to re-size the job's hold to those pages.
 */
export class JobPagesCommand {
  @IsDefined() @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/) jobId: string;
  @IsInt() @Min(1) @Max(MAX_DOCUMENT_PAGES) pages: number;
}

export class JobPagesReply {
  /**
   * false: stop without reporting — the job is terminal, or the wallet could not cover its pages and artifact failed
   * it with `insufficient_funds` (or `wallet_frozen`) itself: nothing is read and nothing is charged.
   */
  proceed: boolean;
  /** Pages to read from the first: all of them, or fewer when the template opted in to `partial_pages`. */
  pages?: number;
}

export class FieldMetaDto {
  @IsNumber() @Min(0) @Max(1) confidence: number;
  @IsOptional() @IsInt() @Min(1) @Max(100_000) page?: number;
  @IsOptional() bbox?: [number, number, number, number];
  @IsOptional() errors?: string[];
  /**
   * `embedded_xml`: taken from an e-invoice's own data (its page box, when given, is where the page prints it); `memory`:
   * read where a layout exemplar of the account prints it (ADR 0014); `page` or absent: read from the page.
   */
  @IsOptional() @IsIn(['page', 'embedded_xml', 'memory']) provenance?: 'page' | 'embedded_xml' | 'memory';
}

/** Worker → artifact: the outcome of one attempt. Applying it is idempotent; terminal jobs never change. */
export class JobOutcomeCommand {
  @IsDefined() @IsString() jobId: string;
  @IsIn(['success', 'failed']) status: 'success' | 'failed';
  @IsOptional() @IsObject() result?: Record<string, unknown>;
  @IsOptional() @IsObject() fields?: Record<string, FieldMetaDto>;
  /** Must be `resultKeys(account, artifact, job).json` when given: artifact refuses any other key (403 `forbidden`, nothing applied). */
  @IsOptional() @IsString() resultKey?: string;
  /** Must be `resultKeys(account, artifact, job).markdown` when given. */
  @IsOptional() @IsString() markdownKey?: string;
  @IsOptional() @IsNumber() @Min(0) @Max(1) confidence?: number;
  @IsOptional() @IsBoolean() needsReview?: boolean;
  @IsInt() @Min(0) @Max(MAX_DOCUMENT_PAGES) pages: number;
  /** `<code>: <message>` when failed. */
  @IsOptional() @IsString() error?: string;
  /** The layout exemplar that gave some fields (ADR 0014). */
  @IsOptional() @ValidateNested() @Type(() => MemoryNoteDto) memory?: MemoryNoteDto;
}

export class JobOutcomeReply {
  applied: boolean;
}
