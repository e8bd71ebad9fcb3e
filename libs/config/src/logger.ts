import { pino, type DestinationStream, type Logger } from 'pino';
import { logContextFields } from './log-context.js';

/**
 * Structured JSON logs. Credentials, secrets and presigned URLs never reach a log line; every line written
 * while a request is served carries its `request_id` (and `trace_id` with tracing on).
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
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

export function createLogger(service: string, level = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  const options = {
    name: service,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service },
    // The request (and trace) being served, on every line written while it runs.
    mixin: logContextFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

export type { Logger };
