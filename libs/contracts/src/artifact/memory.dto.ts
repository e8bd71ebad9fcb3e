import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsInt, IsNumber, IsObject, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { ArtifactListQuery, ArtifactListQueryDto } from './artifact.dto.js';
import { AccountScoped } from '../common/account-scoped.js';
import type { FieldDefDto } from '../common/field-def.dto.js';

/**
 * Layout memory (ADR 0014): a corrected or approved result becomes a layout exemplar of its account; a later document
 * of that account that matches it has the remembered fields read where the exemplar's anchors say they stand.
 */
export const EXEMPLAR_SOURCES = ['correction', 'approval'] as const;
export type ExemplarSource = (typeof EXEMPLAR_SOURCES)[number];

/** Most exemplars one account keeps; learning one more drops the oldest. */
export const MAX_EXEMPLARS_PER_ACCOUNT = 500;

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** The note in a job's result metadata naming the exemplar that helped (`memory` of `GET /job/{job_id}`). */
export class MemoryNoteDto {
  @ApiProperty({ example: 'lex_01jd3q8y4n6z2xk7m5t9w0abcd', description: 'The layout exemplar whose anchors gave the fields.' })
  @IsString()
  exemplar_id: string;
  @ApiProperty({ example: 0.93, description: 'How alike the document and the exemplar’s layout are, 0..1.' })
  @IsNumber()
  @Min(0)
  @Max(1)
  similarity: number;
  @ApiProperty({ example: ['invoice_number', 'total_amount'], description: 'Fields read where the exemplar’s anchors put them.' })
  @IsString({ each: true })
  fields: string[];
}

/** `jobs.v1.learn` on stream JOBS: a person confirmed a job's values; the worker learns the layout from its source. */
export interface LayoutLearnMessage {
  jobId: string;
  artifactId: string;
  accountId: string;
  templateId: string | null;
  source: ExemplarSource;
  /** The result version confirmed (1 for an approval of the engine's reading). */
  version: number;
  schema: { fields: FieldDefDto[] };
  values: Record<string, unknown>;
}

/** Worker → artifact: the job whose source to learn from, or whose account's exemplars to use. */
export class MemoryJobCommand {
  @IsDefined() @IsString() @Matches(ID) jobId: string;
}

/** Artifact → worker: a presigned GET of the learned job's source; `proceed: false` when it is gone or memory is off. */
export class LearnSourceReply {
  proceed: boolean;
  sourceGetUrl?: string;
  mimeType?: string;
  filename?: string;
}

/** Artifact → worker: the job's account's exemplars (none when its memory is off), newest first. */
export class JobExemplarsReply {
  exemplars: { id: string; fingerprint: unknown; anchors: unknown }[];
}

/** Worker → artifact: what the engine learned (`learnLayout`) from a confirmed job. */
export class SaveExemplarCommand {
  @IsDefined() @IsString() @Matches(ID) jobId: string;
  @IsInt() @Min(1) version: number;
  @IsIn(EXEMPLAR_SOURCES) source: ExemplarSource;
  @IsObject() fingerprint: Record<string, unknown>;
  @IsDefined() anchors: Record<string, unknown>[];
}

export class ExemplarDto {
  @ApiProperty({ example: 'lex_01jd3q8y4n6z2xk7m5t9w0abcd' }) id: string;
  @ApiProperty({ example: 'job_01jd3q8y4n6z2xk7m5t9w0abcd', description: 'The corrected or approved job it was learned from.' })
  job_id: string;
  @ApiProperty({ example: 'art_01jd3q8y4n6z2xk7m5t9w0abcd' }) artifact_id: string;
  @ApiPropertyOptional({ type: 'string', nullable: true, example: 'tpl_01jd3q8y4n6z2xk7m5t9w0abcd' }) template_id: string | null;
  @ApiProperty({ enum: EXEMPLAR_SOURCES, example: 'correction' }) source: ExemplarSource;
  @ApiProperty({ example: ['invoice_number', 'total_amount'], description: 'Fields whose place on the page it remembers.' })
  fields: string[];
  @ApiProperty({
    example: [{ key: 'invoice_number', page: 1, label: '3f1c9a0b7d2e4c68', direction: 'right', region: [0.62, 0.15, 0.74, 0.17] }],
    description:
      'Per field: a digest of the label printed next to the value, where the value stands from it (`right` / `below`), and its box ' +
      'as fractions of the page. No text of the document is kept: labels, identifiers, header words and confirmed text values ' +
      '(a name or address found again where printed) only as digests.',
  })
  anchors: Record<string, unknown>[];
  @ApiProperty({ example: '2026-11-23T10:05:00.000Z' }) created_at: string;
}

export class ExemplarPageDto {
  @ApiProperty({ type: [ExemplarDto] }) items: ExemplarDto[];
  @ApiProperty({ example: 1 }) total: number;
  @ApiProperty({ example: 1 }) page: number;
  @ApiProperty({ example: 20 }) size: number;
  @ApiProperty({ example: 1 }) pages: number;
}

/** `GET /memory/exemplars` query: the artifacts' paging (1-based page, default 50, at most 100). */
export class ExemplarQueryDto extends ArtifactListQueryDto {}

export class ExemplarListQuery extends ArtifactListQuery {}

export class ExemplarRef extends AccountScoped {
  @IsDefined() @IsString() @Matches(ID) exemplarId: string;
}

export class MemorySettingsDto {
  @ApiProperty({
    example: true,
    description:
      'Layout memory on (the default): corrections and approvals teach layouts, and matching documents use them. Off: nothing is ' +
      'learned and no exemplar is used; the exemplars already learned are kept until deleted.',
  })
  @IsDefined()
  @IsBoolean()
  enabled: boolean;
}

export class MemorySettingsCommand extends AccountScoped {
  @IsOptional() @IsBoolean() enabled?: boolean;
}
