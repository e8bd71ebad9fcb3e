// `npm run fuzz`: the no-5xx property test (apps/e2e/src/no-5xx.e2e-spec.ts) at full length against the
// started stack: 10,000 generated requests (FUZZ_RUNS overrides). `npm test` runs the same test with 400.
// Needs what `npm test` needs: Postgres on 5432 (or TEST_DATABASE_URL) and a nats-server binary.
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../dev/stack.mjs';

const runs = process.env.FUZZ_RUNS ?? '10000';
const env = { ...process.env, FUZZ_RUNS: runs, AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1' };
process.stdout.write(`[fuzz] build, then ${runs} generated requests\n`);
execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'], {
  cwd: ROOT,
  stdio: 'inherit',
  env,
});
const r = spawnSync(
  process.execPath,
  [
    join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
    'apps/e2e/src/no-5xx.e2e-spec.ts',
    '--selectProjects',
    'e2e',
    '--runInBand',
    '--forceExit',
  ],
  {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim() },
  },
);
process.exit(r.status ?? 1);
