import type { components, paths } from './generated/openapi.js';

type Schemas = components['schemas'];

/** Every stable error `code` of the error envelope (generated from the API document). */
export type ErrorCode = Schemas['ErrorCode'];
export type ErrorEnvelope = Schemas['ErrorEnvelopeDto'];
export type ExtractRequest = Schemas['ExtractRequestDto'];
export type ExtractResponse = Schemas['ExtractResponseDto'];
export type ExtractionSchema = NonNullable<ExtractRequest['extraction_schema']>;
export type BatchSubmitResponse = Schemas['BatchSubmitResponseDto'];
export type ArtifactRecord = Schemas['ArtifactRecordDto'];
export type ArtifactPage = Schemas['ArtifactPageDto'];
export type JobStatus = Schemas['JobStatusResponseDto']['status'];
export type Template = Schemas['TemplateResponseDto'];
export type CreateTemplate = Schemas['CreateTemplateDto'];
export type Wallet = Schemas['WalletStatusResponseDto'];
export type RetentionPolicy = NonNullable<ExtractRequest['retention_policy']>;

/** A job as `GET /job/{id}` returns it; `T` types `result` (keyed by field key) when you know the template. */
export type Job<T extends Record<string, unknown> = Record<string, unknown>> = Omit<Schemas['JobStatusResponseDto'], 'result'> & {
  result?: T;
};

export const TERMINAL_STATUSES: readonly JobStatus[] = ['success', 'failed', 'cancelled', 'expired'];

export function isTerminal(status: JobStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}

export type { components, paths };
