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
 * The CLI's environment, completed while `npm start` runs from its connection file (a variable set in the environment
 * still wins): when the environment names no NATS server or user, or names the file's NATS server (NATS_URL, same
 * host and port) but no user. A NATS_URL naming another server, or a NATS_USER, leaves the file unread: its admin
 * password is never sent to a server it was not issued for.
 */
export function withDevConnection(env: NodeJS.ProcessEnv, file = DEV_CONNECTION_FILE): ResolvedEnv {
  if (env.NATS_USER || !existsSync(file)) return { env };
  const connection = readDevConnection(file);
  if (env.NATS_URL && !(connection && sameNatsServer(env.NATS_URL, connection.NATS_URL))) return { env };
  if (!connection) throw new Error(`${file} is not a connection file written by npm start; delete it or set NATS_URL`);
  const merged: NodeJS.ProcessEnv = { ...env };
  for (const [key, value] of Object.entries(connection)) if (!merged[key]) merged[key] = value;
  return { env: merged, source: file };
}

/** The file's settings; undefined when it is not one npm start wrote. */
function readDevConnection(file: string): DevConnection | undefined {
  return devConnectionSchema.safeParse(parseJson(readFileSync(file, 'utf8'))).data;
}

/** The loopback names of this machine: one host for the comparison of NATS servers. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const NATS_DEFAULT_PORT = '4222';

/**
 * Whether every server of `url` (NATS_URL: one URL or a comma-separated list; `nats://` optional) is `server`:
 * the same host (localhost = 127.0.0.1 = ::1) and port (4222 when none). A URL carrying its own user never matches.
 */
export function sameNatsServer(url: string, server: string): boolean {
  const target = natsServerKey(server);
  const servers = url.split(',').map((u) => natsServerKey(u));
  return target !== undefined && servers.every((key) => key === target);
}

/** `host:port` of one NATS server URL, loopback names folded into one; undefined when it does not parse or names a user. */
function natsServerKey(url: string): string | undefined {
  const text = url.trim();
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `nats://${text}`);
  } catch {
    return undefined;
  }
  if (parsed.username || parsed.password || !parsed.hostname) return undefined;
  const host = parsed.hostname.toLowerCase();
  return `${LOOPBACK.has(host) ? 'loopback' : host}:${parsed.port || NATS_DEFAULT_PORT}`;
}

/** A URL as it may be shown: without a user or password in it. */
export function withoutCredentials(url: string): string {
  return url
    .split(',')
    .map((u) => u.replace(/^(\s*[a-z][a-z0-9+.-]*:\/\/)?[^/@]*@/i, '$1'))
    .join(',');
}

/** What went wrong on NATS for the CLI, and with which settings (never the password). */
export interface NatsTrouble {
  problem: 'unauthorized' | 'no_responders';
  natsUrl: string;
  user?: string;
  /** The connection file the settings came from, if they did. */
  source?: string;
}

/** What the operator should do about it: one or two sentences for the CLI's error message, no secrets. */
export function natsAdvice({ problem, natsUrl, user, source }: NatsTrouble): string {
  const at = `the NATS server at ${withoutCredentials(natsUrl)}`;
  const fromFile = source ? ` (taken from ${source}: is the npm start that wrote it still running?)` : '';
  if (problem === 'unauthorized' && user) return `${cap(at)} refused user "${user}": check NATS_PASSWORD${fromFile}.`;
  if (problem === 'unauthorized') {
    return `${cap(at)} requires a user: set NATS_USER=admin and NATS_PASSWORD, or run the CLI from the checkout whose \`npm start\` is running (it reads .data/admin-connection.json there).`;
  }
  return `Is the stack running behind ${at}${fromFile}? \`npm start\` runs a NATS server of its own (it logs "NATS: private … at nats://…"): run the CLI from that checkout, or set NATS_URL to that server.`;
}

const cap = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

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
  return existsSync(file) ? readDevConnection(file)?.NATS_URL : undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
