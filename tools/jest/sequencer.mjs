// The order in which Jest starts the test files of a tier (jest.config.mjs `testSequencer`): files that failed last
// time first, then the longest first — by the duration Jest recorded in its cache, else by the one measured below on
// the 2-core CI machine — then the files with neither, largest first. (Jest's own order is the same, except that it
// has only its recorded durations, which a clean clone lacks, and runs files without one first, by size. File size
// says little here: `admin-readme.e2e-spec.ts` is short and runs `npm start`, over a minute, so it started among the
// last files and ended the e2e tier alone.) Longest first keeps both workers busy to the end. The numbers only order
// the files: a missing or stale one changes when a file starts, never its verdict.
import TestSequencer from '@jest/test-sequencer';
import { relative } from 'node:path';

/** Seconds a file took in a cold `npm test` (2026-11-29, docs/performance.md "npm test time"); files of 15 s and more. */
const MEASURED_SECONDS = {
  'apps/e2e/src/no-5xx.e2e-spec.ts': 190,
  'apps/e2e/src/sdk.e2e-spec.ts': 88,
  'apps/e2e/src/admin-readme.e2e-spec.ts': 80,
  'apps/e2e/src/templates-webhooks.e2e-spec.ts': 61,
  'apps/e2e/src/defaults-secrets.e2e-spec.ts': 58,
  'apps/e2e/src/batch-pipelines.e2e-spec.ts': 53,
  'apps/e2e/src/dashboard.e2e-spec.ts': 50,
  'apps/e2e/src/input-limits.e2e-spec.ts': 35,
  'apps/e2e/src/scanned.e2e-spec.ts': 34,
  'apps/e2e/src/rate-limit.e2e-spec.ts': 34,
  'apps/e2e/src/review.e2e-spec.ts': 32,
  'apps/e2e/src/main-flow.e2e-spec.ts': 28,
  'apps/e2e/src/tracing.e2e-spec.ts': 25,
  'apps/e2e/src/admin-http.e2e-spec.ts': 24,
  'apps/e2e/src/charging.e2e-spec.ts': 19,
  'libs/extraction/src/readers/ocr.engines.int-spec.ts': 58,
  'apps/extraction-worker/src/extraction-worker.int-spec.ts': 49,
  'apps/artifact/src/batch-pipelines.int-spec.ts': 41,
  'libs/extraction/src/readers/ocr.threads.int-spec.ts': 37,
  'apps/artifact/src/artifact.int-spec.ts': 25,
  'libs/extraction/src/ocr.int-spec.ts': 23,
  'apps/billing/src/billing.int-spec.ts': 23,
  'apps/artifact/src/processing-deadline.int-spec.ts': 21,
  'apps/webhook-dispatcher/src/webhook-dispatcher.int-spec.ts': 20,
  'libs/database/src/roles-handover.int-spec.ts': 18,
  'libs/extraction/src/locate/semantic.labels.spec.ts': 76,
  'libs/extraction/src/locate/semantic.invoice.spec.ts': 41,
  'libs/extraction/src/locate/semantic.invoice3.spec.ts': 35,
  'libs/extraction/src/locate/table.extractor.spec.ts': 32,
  'libs/extraction/src/extraction.engine.spec.ts': 28,
  'libs/extraction/src/locate/semantic.invoice2.spec.ts': 28,
  'libs/extraction/src/field.validator.spec.ts': 27,
  'libs/extraction/src/ocr.settings.spec.ts': 20,
  'libs/extraction/src/readers/paddle.ocr.spec.ts': 18,
  'libs/extraction/src/readers/image.reader.spec.ts': 17,
};

export default class DocketSequencer extends TestSequencer {
  /** Jest's recorded duration (ms) of the file, else the measured one, else none (then Jest's file-size order). */
  time(test) {
    const recorded = super.time(test);
    if (recorded != null) return recorded;
    const seconds = MEASURED_SECONDS[relative(test.context.config.rootDir, test.path).split('\\').join('/')];
    return seconds === undefined ? undefined : seconds * 1000;
  }

  sort(tests) {
    const size = (t) => t.context.hasteFS.getSize(t.path) ?? 0;
    for (const t of tests) t.duration = this.time(t);
    return tests.sort((a, b) => {
      const failed = Number(this.hasFailed(b)) - Number(this.hasFailed(a));
      if (failed) return failed;
      return (b.duration ?? -1) - (a.duration ?? -1) || size(b) - size(a);
    });
  }
}
