import { describe, expect, it } from '@jest/globals';
/* eslint-disable @nx/enforce-module-boundaries -- deliberate: the rule `npm run chaos` judges its HTTP answers by */
// @ts-expect-error plain ESM module without types
import { FaultTimeline, isExcusable } from '../../../tools/chaos/verdict.mjs';
/* eslint-enable @nx/enforce-module-boundaries */

// Invented timeline (ms): the worker is killed at 1000 and healthy at 2000; storage is paused from 5000 to 6000.
function timeline() {
  const t = new FaultTimeline();
  t.end(t.begin('kill -9 extraction-worker', 'extraction-worker', 1000), 2000);
  t.end(t.begin('pause s3', 's3', 5000), 6000);
  return t;
}

describe('chaos run: a 503/504 is accepted only for a request whose own handler was hit', () => {
  it('accepts a 503 on the upload while storage is paused', () => {
    expect(timeline().excuse('upload', 5500, 5600)).toBe('pause s3');
  });

  it('accepts a 504 on confirm-upload that began before the storage pause and ended inside it', () => {
    expect(timeline().excuse('confirm', 4000, 5100)).toBe('pause s3');
  });

  it('refuses a 503 on the upload while only the extraction worker was down', () => {
    expect(timeline().excuse('upload', 1200, 1300)).toBeUndefined();
  });

  it('refuses a 503 on /extract while storage is paused (/extract never touches storage)', () => {
    expect(timeline().excuse('extract', 5200, 5300)).toBeUndefined();
  });

  it('refuses a 503 on confirm-upload outside every fault', () => {
    expect(timeline().excuse('confirm', 3000, 4000)).toBeUndefined();
  });

  it('keeps a fault open until it is ended, and names it as the current one', () => {
    const t = new FaultTimeline();
    t.begin('restart postgres', 'postgres', 100);
    expect(t.current()).toBe('restart postgres');
    expect(t.excuse('extract', 10_000, 10_100)).toBe('restart postgres');
  });

  it('only 503 and 504 can be excused', () => {
    expect([500, 502, 503, 504].map(isExcusable)).toEqual([false, false, true, true]);
  });
});
