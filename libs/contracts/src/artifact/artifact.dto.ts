import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString, Matches } from 'class-validator';
import { AccountScoped } from '../common/account-scoped.js';
import type { ArtifactStatus, JobStatus, RetentionPolicy } from '../common/constants.js';

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
  @IsDefined() @IsString() @Matches(/^[A-Za-z0-9_-]{1,64}$/)
  artifactId: string;
}
