import {
  TERMINAL_JOB_STATUSES,
  type ArtifactListItemDto,
  type ArtifactRecordDto,
  type ArtifactStatusResponseDto,
  type JobStatusResponseDto,
} from '@docket/contracts';
import type { ArtifactEntity } from './entities/artifact.entity.js';
import type { JobEntity } from './entities/job.entity.js';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toArtifactRecord(a: ArtifactEntity, jobs: JobEntity[]): ArtifactRecordDto {
  return {
    id: a.id,
    filename: a.filename,
    artifact_type: a.artifactType,
    artifact_size: a.artifactSize,
    status: a.status,
    retention_policy: a.retentionPolicy,
    description: a.description,
    tags: a.tags,
    created_at: iso(a.createdAt)!,
    uploaded_at: iso(a.uploadedAt),
    processed_at: iso(a.processedAt),
    status_message: a.statusMessage,
    confidence: a.confidence,
    needs_review: a.needsReview,
    latest_result: a.latestResult,
    jobs: jobs.map((j) => ({
      job_id: j.id,
      status: j.status,
      created_at: iso(j.createdAt)!,
      completed_at: iso(j.completedAt),
      error: j.error,
    })),
  };
}

export const isTerminal = (status: JobEntity['status']) => TERMINAL_JOB_STATUSES.includes(status);

/** Spec §2.2: fields present by state. */
export function toJobStatus(j: JobEntity, resultDownloadUrl?: string): JobStatusResponseDto {
  const out: JobStatusResponseDto = { job_id: j.id, artifact_id: j.artifactId, status: j.status, created_at: iso(j.createdAt)! };
  if (isTerminal(j.status) && j.completedAt) out.completed_at = iso(j.completedAt)!;
  if (j.status === 'success') {
    if (resultDownloadUrl) out.result_download_url = resultDownloadUrl;
    out.result = j.result ?? {};
    out.result_version = j.resultVersion ?? 1;
    out.needs_review = j.needsReview;
    if (j.memory) out.memory = j.memory as JobStatusResponseDto['memory'];
    // A partial reading (template `partial_pages`, wallet short): say how much of the document was read.
    if (j.pageCount !== null && j.pages !== null && j.pages < j.pageCount) {
      out.pages_read = j.pages;
      out.page_count = j.pageCount;
    }
  }
  if ((j.status === 'failed' || j.status === 'expired') && j.error) out.error = j.error;
  return out;
}

/** `ArtifactListResponse` (spec §2.1). */
export function toArtifactListItem(a: ArtifactEntity): ArtifactListItemDto {
  return {
    id: a.id,
    filename: a.filename,
    artifact_type: a.artifactType,
    artifact_size: a.artifactSize,
    status: a.status,
    uploaded_at: iso(a.uploadedAt),
    confidence: a.confidence,
    needs_review: a.needsReview,
  };
}

/** Lightweight status object (spec §2.1). */
export function toArtifactStatus(a: ArtifactEntity): ArtifactStatusResponseDto {
  return { id: a.id, status: a.status, processed_at: iso(a.processedAt), status_message: a.statusMessage };
}
