import { afterAll, describe, expect, it, jest } from '@jest/globals';
import { chmodSync, lstatSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '@docket/testing';
/* eslint-disable @nx/enforce-module-boundaries -- deliberate: the helper npm start, npm test and npm run chaos use */
// @ts-expect-error plain ESM module without types
import { embeddedPostgresBinaryPackage, startDevelopmentPostgres, startEmbeddedPostgres } from '../../../tools/dev/embedded-postgres.mjs';
// @ts-expect-error plain ESM module without types
import { provisionDatabaseRoles } from '../../../tools/dev/infra.mjs';
/* eslint-enable @nx/enforce-module-boundaries */

jest.setTimeout(120_000);

/** The library links a fresh `npm install` leaves out (ignore-scripts=true skips the package's postinstall). */
function removeLibraryLinks(): number {
  const dir: string = embeddedPostgresBinaryPackage();
  const links: { target: string }[] = JSON.parse(readFileSync(join(dir, 'native', 'pg-symlinks.json'), 'utf8'));
  let removed = 0;
  for (const { target } of links) {
    const path = join(dir, target);
    try {
      if (!lstatSync(path).isSymbolicLink()) continue;
    } catch {
      continue;
    }
    unlinkSync(path);
    removed++;
  }
  return removed;
}

describe('embedded-postgres fallback on a fresh install (install scripts off)', () => {
  const work = mkdtempSync(join(tmpdir(), 'docket-embedded-pg-'));
  // As root, embedded-postgres runs the server as the `postgres` user, which must reach its data directory.
  chmodSync(work, 0o755);
  let server: { stop(): Promise<void> } | undefined;
  let dev: { url: string; stop(): Promise<void> } | undefined;

  afterAll(async () => {
    await server?.stop();
    await dev?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('creates and starts a cluster that answers queries', async () => {
    removeLibraryLinks();
    const port = await freePort();
    server = await startEmbeddedPostgres({
      databaseDir: join(work, 'pg'),
      port,
      user: 'postgres',
      password: 'postgres',
      authMethod: 'trust',
      persistent: false,
      onLog: () => undefined,
    });
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
    await client.connect();
    const { rows } = await client.query(`SELECT upper('invented') AS word`);
    await client.end();
    expect(rows).toEqual([{ word: 'INVENTED' }]);
  });

  it("npm start's fallback lets each service in as its own password-less role", async () => {
    dev = await startDevelopmentPostgres(join(work, 'dev-pg'), await freePort());
    const admin = new pg.Client({ connectionString: dev!.url.replace(/\/docket$/, '/postgres') });
    await admin.connect();
    await admin.query('CREATE DATABASE docket');
    await admin.end();
    const roles: Record<string, { DATABASE_URL: string }> = await provisionDatabaseRoles(dev!.url);
    const client = new pg.Client({ connectionString: roles.gateway.DATABASE_URL });
    await client.connect();
    const { rows } = await client.query('SELECT current_user AS role');
    await client.end();
    expect(rows).toEqual([{ role: 'docket_identity' }]);
  });
});
