/**
 * Every stable error code Docket emits, and the one table that maps a code to an HTTP status.
 * Services throw `DocketError(code, …)`; the code crosses NATS as a string; the gateway maps it here.
 */
export const ERROR_STATUS = {
  // 400
  validation_failed: 400,
  template_and_schema_both_set: 400,
  invalid_webhook_url: 400,
  duplicate_field_key: 400,
  invalid_data_type: 400,
  source_purged: 400,
  duplicate_filename: 400,
  no_default_template: 400,
  file_too_large: 400,
  unsupported_artifact_type: 400,
  invalid_regex: 400,
  patterns_too_large: 400,
  // 401 / 402 / 403 / 404
  unauthorized: 401,
  wallet_frozen: 402,
  insufficient_funds: 402,
  forbidden: 403,
  not_found: 404,
  artifact_not_found: 404,
  job_not_found: 404,
  template_not_found: 404,
  webhook_not_found: 404,
  wallet_not_found: 404,
  account_not_found: 404,
  field_not_found: 404,
  batch_not_found: 404,
  pipeline_not_found: 404,
  exemplar_not_found: 404,
  // 409
  conflict: 409,
  upload_missing: 409,
  artifact_past_uploaded: 409,
  job_terminal: 409,
  template_in_use: 409,
  job_not_reviewable: 409,
  // 413
  payload_too_large: 413,
  // 422
  invalid_body: 422,
  invalid_query: 422,
  invalid_payload: 422,
  invalid_correction: 422,
  // 429
  rate_limited: 429,
  // 5xx
  internal_error: 500,
  service_unavailable: 503,
  upstream_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export function statusForCode(code: string): number {
  return (ERROR_STATUS as Record<string, number>)[code] ?? 500;
}

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && code in ERROR_STATUS;
}
