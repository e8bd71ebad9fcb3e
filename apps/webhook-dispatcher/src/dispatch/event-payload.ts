import type { JobFinishedEvent, WebhookEventType } from '@docket/contracts';

/**
 * Spec §6: one delivery per job as it finishes, only for subscribed types. The specific type wins:
 * success → extraction.completed, failed/expired/cancelled → extraction.failed; a webhook subscribed to
 * neither but to artifact.processed gets that one for success or failure.
 */
export function eventTypesFor(status: JobFinishedEvent['status'], subscribed: readonly string[]): WebhookEventType[] {
  const specific: WebhookEventType = status === 'success' ? 'extraction.completed' : 'extraction.failed';
  if (subscribed.includes(specific)) return [specific];
  if ((status === 'success' || status === 'failed') && subscribed.includes('artifact.processed')) return ['artifact.processed'];
  return [];
}

export interface WebhookBody {
  type: WebhookEventType;
  timestamp: string;
  data: Record<string, unknown>;
}

/**
 * The signed body. `result` is the job's result as artifact holds it now: events carry references, not results
 * (ADR 0008), so the dispatcher fetches it (null when the job was deleted before delivery).
 */
export function buildBody(
  type: WebhookEventType,
  ev: JobFinishedEvent,
  now: Date,
  result: Record<string, unknown> | null = ev.result ?? null,
): WebhookBody {
  const data: Record<string, unknown> = {
    job_id: ev.jobId,
    artifact_id: ev.artifactId,
    status: ev.status,
  };
  if (ev.status === 'success') data.result = result;
  else data.error = ev.error;
  data.confidence = ev.confidence;
  data.needs_review = ev.needsReview;
  if (ev.batchId) data.batch_id = ev.batchId;
  data.filename = ev.filename;
  data.completed_at = ev.finishedAt;
  return { type, timestamp: now.toISOString(), data };
}

/** `X-Webhook-Id` and the Standard Webhooks message id: stable across attempts so receivers can dedupe. */
export function deliveryId(jobId: string, type: WebhookEventType): string {
  return `${jobId}:${type}`;
}
