import { describe, expect, it } from '@jest/globals';
import { workerEnvSchema } from './config.js';

const ocrIssues = (env: Record<string, string>) => {
  const r = workerEnvSchema.safeParse(env);
  return r.success ? [] : r.error.issues.filter((i) => i.path[0] === 'OCR_LANGUAGES');
};

describe('worker env: OCR_LANGUAGES', () => {
  it('defaults to English and accepts +-separated supported languages', () => {
    const r = workerEnvSchema.safeParse({});
    expect(r.success && r.data.OCR_LANGUAGES).toBe('eng');
    expect(ocrIssues({ OCR_LANGUAGES: 'eng+deu+fra+nld' })).toEqual([]);
    expect(ocrIssues({ OCR_LANGUAGES: '' })).toEqual([]); // empty = unset: the engine's default
  });

  it('refuses unsupported languages at boot', () => {
    for (const v of ['eng+spa', 'klingon', 'eng,,xx']) expect(ocrIssues({ OCR_LANGUAGES: v })).toHaveLength(1);
  });
});

describe('worker env: shutdown grace period', () => {
  it('defaults to longer than the extraction deadline and refuses a shorter one', () => {
    const r = workerEnvSchema.safeParse({ EXTRACTION_TIMEOUT_MS: '300000' });
    expect(r.success && r.data.WORKER_SHUTDOWN_GRACE_MS).toBe(330_000);
    expect(workerEnvSchema.safeParse({ EXTRACTION_TIMEOUT_MS: '300000', WORKER_SHUTDOWN_GRACE_MS: '60000' }).success).toBe(false);
  });
});
