import type { ResultVersionDto, ReviewItemDto } from '@docket/contracts';
import type { JobResultEntity } from '../entities/job-result.entity.js';
import type { JobEntity } from '../entities/job.entity.js';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toReviewItem(j: JobEntity, filename: string): ReviewItemDto {
  return {
    job_id: j.id,
    artifact_id: j.artifactId,
    filename,
    template_id: j.templateId,
    confidence: j.confidence,
    result_version: j.resultVersion,
    created_at: iso(j.createdAt)!,
    completed_at: iso(j.completedAt),
  };
}

export function toResultVersion(r: JobResultEntity): ResultVersionDto {
  return {
    version: r.version,
    source: r.source,
    api_key_id: r.apiKeyId,
    created_at: iso(r.createdAt)!,
    changed_fields: r.changedFields,
    result: r.result,
  };
}

/** A job never corrected has one version, the engine's reading, held in the job row itself. */
export function engineVersion(j: JobEntity): ResultVersionDto {
  return {
    version: 1,
    source: 'engine',
    api_key_id: null,
    created_at: iso(j.completedAt ?? j.createdAt)!,
    changed_fields: [],
    result: j.result ?? {},
  };
}
