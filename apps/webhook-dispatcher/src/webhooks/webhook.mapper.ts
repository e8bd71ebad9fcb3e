import type { DeliveryLogEntryDto, WebhookDeliveryDto, WebhookEventType, WebhookResponseDto } from '@docket/contracts';
import type { DeliveryAttemptEntity } from '../entities/delivery-attempt.entity.js';
import type { WebhookEntity } from '../entities/webhook.entity.js';

export function toWebhookResponse(w: WebhookEntity): WebhookResponseDto {
  return {
    id: w.id,
    url: w.url,
    description: w.description,
    events: w.events as WebhookEventType[],
    is_active: w.isActive,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
  };
}

/** Stored for an attempt the dispatcher never finished (it stopped between sending and logging the answer). */
export const INTERRUPTED_ATTEMPT_BODY = 'no answer recorded: the attempt was interrupted';

/** Spec §2.4 fields exactly. */
export function toDeliveryLogEntry(a: DeliveryAttemptEntity): DeliveryLogEntryDto {
  return {
    attempt_number: a.attemptNumber,
    event_type: a.eventType,
    url: a.url,
    request_headers: a.requestHeaders,
    response_status_code: a.responseStatusCode,
    response_body: a.finishedAt ? a.responseBody : INTERRUPTED_ATTEMPT_BODY,
    is_success: a.isSuccess,
    duration_ms: a.durationMs,
    attempted_at: a.attemptedAt.toISOString(),
  };
}

export function toWebhookDelivery(a: DeliveryAttemptEntity): WebhookDeliveryDto {
  return { id: a.id, job_id: a.jobId, ...toDeliveryLogEntry(a) };
}
