import { pino, type Logger } from 'pino';

/**
 * Structured JSON logs. Credentials, secrets and presigned URLs never reach a log line.
 */
export const REDACT_PATHS = [
  'authorization',
  '*.authorization',
  'req.headers.authorization',
  'headers.authorization',
  'secret',
  '*.secret',
  'secret_key',
  '*.secret_key',
  'signing_secret',
  '*.signing_secret',
  'webhook_signing_secret',
  '*.webhook_signing_secret',
  'upload_url',
  '*.upload_url',
  'download_url',
  '*.download_url',
  'result_download_url',
  '*.result_download_url',
  'password',
  '*.password',
];

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({ name: service, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service } });
}

export type { Logger };
