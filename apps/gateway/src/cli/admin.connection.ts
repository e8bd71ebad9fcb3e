import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from '@docket/config';

/**
 * How the admin CLI reaches the stack `npm start` runs (a private nats-server on its own port, with one user per
 * service): written by tools/dev/start.mjs at `<repo>/.data/admin-connection.json`, mode 0600, removed when it
 * stops. It holds the admin NATS user's password, so it is never printed.
 */
export const DEV_CONNECTION_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '.data', 'admin-connection.json');

const devConnectionSchema = z.object({
  NATS_URL: z.string().min(1),
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  DATABASE_URL: z.string().min(1).optional(),
});

export type DevConnection = z.infer<typeof devConnectionSchema>;

export interface ResolvedEnv {
  env: NodeJS.ProcessEnv;
  /** The connection file the settings came from, when they did (named in connection errors). */
  source?: string;
}

/**
 * The CLI's environment: as given when it names a NATS server or user (NATS_URL / NATS_USER); otherwise, while
 * `npm start` runs, completed from its connection file (a variable set in the environment still wins).
 */
export function withDevConnection(env: NodeJS.ProcessEnv, file = DEV_CONNECTION_FILE): ResolvedEnv {
  if (env.NATS_URL || env.NATS_USER || !existsSync(file)) return { env };
  const parsed = devConnectionSchema.safeParse(parseJson(readFileSync(file, 'utf8')));
  if (!parsed.success) throw new Error(`${file} is not a connection file written by npm start; delete it or set NATS_URL`);
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [key, value] of Object.entries(parsed.data)) if (!merged[key]) merged[key] = value;
  return { env: merged, source: file };
}

/** Written by `npm start` once its infrastructure is up: owner-only from the first byte. */
export function writeDevConnection(connection: DevConnection, file = DEV_CONNECTION_FILE): void {
  writeFileSync(file, `${JSON.stringify(devConnectionSchema.parse(connection), null, 2)}\n`, { mode: 0o600 });
  // `mode` applies only when the file is created: an older file keeps its own unless reset.
  chmodSync(file, 0o600);
}

export function removeDevConnection(file = DEV_CONNECTION_FILE): void {
  rmSync(file, { force: true });
}

/** The NATS URL of a connection file, if there is a readable one (npm start checks whether that stack still runs). */
export function devConnectionUrl(file = DEV_CONNECTION_FILE): string | undefined {
  if (!existsSync(file)) return undefined;
  return devConnectionSchema.safeParse(parseJson(readFileSync(file, 'utf8'))).data?.NATS_URL;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
