import 'reflect-metadata';
import { describe, expect, it } from '@jest/globals';
import { artifactEnvSchema } from '../config.js';
import { processingTimeoutError } from './processing-deadline.service.js';

describe('processing deadline', () => {
  it('defaults to a 30-minute running deadline and a one-day queue deadline, checked every minute', () => {
    const cfg = artifactEnvSchema.parse({ DATABASE_URL: 'postgres://x@127.0.0.1/x' });
    expect(cfg.JOB_PROCESSING_DEADLINE_MS).toBe(30 * 60_000);
    expect(cfg.JOB_DEADLINE_SWEEP_MS).toBe(60_000);
    expect(cfg.JOB_QUEUE_DEADLINE_MS).toBe(24 * 3600_000);
    expect(() => artifactEnvSchema.parse({ DATABASE_URL: 'postgres://x@127.0.0.1/x', JOB_PROCESSING_DEADLINE_MS: '1000' })).toThrow();
  });

  it('states the deadline in minutes in the `<code>: <message>` form', () => {
    expect(processingTimeoutError(30 * 60_000)).toBe('processing_timeout: the job did not finish within 30 minutes; it was not charged');
    expect(processingTimeoutError(60_000)).toBe('processing_timeout: the job did not finish within 1 minute; it was not charged');
    expect(processingTimeoutError(90_000)).toMatch(/^processing_timeout: the job did not finish within 1\.5 minutes;/);
    expect(processingTimeoutError(24 * 3600_000, true)).toBe(
      'processing_timeout: no worker picked the job up within 24 hours; it was not charged',
    );
  });
});
