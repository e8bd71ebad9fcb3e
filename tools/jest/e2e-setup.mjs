// The e2e tier's global setup (jest.config.mjs): a folder where Jest workers write down the stacks they share between
// their test files (apps/e2e/src/stack.test-helper.ts), for the global teardown to stop. Workers inherit the variable.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function e2eSetup() {
  process.env.DOCKET_E2E_LEFTOVERS = mkdtempSync(join(tmpdir(), 'docket-e2e-stacks-'));
}
