export const RETENTION_POLICIES = ['immediate', '3h', '6h', '12h', '1d', '3d', '7d', '30d', '90d', '365d', 'never'] as const;
export type RetentionPolicy = (typeof RETENTION_POLICIES)[number];

export const JOB_STATUSES = ['pending', 'queued_for_processing', 'running', 'success', 'failed', 'cancelled', 'expired'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const TERMINAL_JOB_STATUSES: readonly JobStatus[] = ['success', 'failed', 'cancelled', 'expired'];

export const ARTIFACT_STATUSES = ['pending_upload', 'uploaded', 'processing', 'completed', 'failed', 'cancelled', 'expired'] as const;
export type ArtifactStatus = (typeof ARTIFACT_STATUSES)[number];

/** `job.corrected` (spec extension): a person stored a correction of a job's result; sent only to webhooks that list it. */
export const WEBHOOK_EVENT_TYPES = ['extraction.completed', 'extraction.failed', 'artifact.processed', 'job.corrected'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const TEMPLATE_CATEGORIES = ['invoice', 'receipt', 'id_card', 'contract', 'custom'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const TEMPLATE_STATUSES = ['draft', 'active', 'archived'] as const;
export type TemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/** Upload URL validity (spec §8). */
export const UPLOAD_URL_TTL_SECONDS = 3600;
/** Download URL validity (spec §8). */
export const DOWNLOAD_URL_TTL_SECONDS = 300;

/** Money: integer micro-credits inside, JSON numbers outside. */
export const MICRO = 1_000_000;
export const toCredits = (micro: number | bigint | string): number => Number(micro) / MICRO;
export const toMicro = (credits: number): number => Math.round(credits * MICRO);
