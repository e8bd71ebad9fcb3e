import { Logger } from '@nestjs/common';
import { PinoNestLogger } from '@docket/config';
import { pino } from 'pino';

/**
 * The admin CLI's logging: stdout carries exactly one JSON object, so every log line (Nest's NATS client included)
 * goes to stderr, at LOG_LEVEL (warn by default). Used by admin.ts and by the e2e tier, which runs the same
 * runAdmin in its Jest workers (tools/jest/node-environment.mjs).
 */
export function adminLogging(level = process.env.LOG_LEVEL ?? 'warn'): void {
  const log = pino({ name: 'docket-admin', level }, pino.destination({ dest: 2, sync: true }));
  Logger.overrideLogger(new PinoNestLogger(log));
}
