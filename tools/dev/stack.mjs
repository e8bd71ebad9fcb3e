// Starts Docket's six services as separate Node processes with prefixed logs, and stops exactly
// those processes. Used by `npm start` (tools/dev/start.mjs) and by the e2e suite.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const SERVICES = [
  { name: 'template', port: 3102 },
  { name: 'billing', port: 3103 },
  { name: 'webhook-dispatcher', port: 3105 },
  { name: 'artifact', port: 3101 },
  { name: 'extraction-worker', port: 3104 },
  { name: 'gateway', port: 3000 },
];

const COLORS = [36, 33, 35, 32, 34, 31];

/**
 * `serviceEnv[name]` adds one service's own settings (its NATS user, its database role) to the shared `env`.
 * @param {{ env: Record<string,string>, serviceEnv?: Record<string, Record<string,string>>, ports?: Record<string, number>, onLine?: (service: string, line: string) => void, onExit?: (service: string, code: number | null, signal: string | null) => void, quiet?: boolean }} opts
 */
export function startServices(opts) {
  const children = [];
  SERVICES.forEach((svc, i) => {
    const port = opts.ports?.[svc.name] ?? svc.port;
    children.push(startService(svc.name, port, COLORS[i % COLORS.length], opts));
  });
  return {
    children,
    /** kill -9 one service and start it again with the same settings (chaos runs); resolves once it was started. */
    async restart(name, signal = 'SIGKILL') {
      const i = children.findIndex((c) => c.name === name);
      const old = children[i];
      old.child.stopping = true;
      if (old.child.exitCode === null && old.child.signalCode === null) {
        const exited = new Promise((r) => old.child.once('exit', r));
        old.child.kill(signal);
        await exited;
      }
      children[i] = startService(name, old.port, COLORS[SERVICES.findIndex((s) => s.name === name) % COLORS.length], opts);
    },
    /**
     * Lets this process exit while the services run on: whoever outlives it stops them by pid (the e2e tier's stacks
     * shared by the files of one Jest worker).
     */
    detach() {
      for (const { child } of children) {
        // Stopped by SIGTERM from elsewhere: a clean exit is no news (a crash still prints its last lines).
        child.detached = true;
        child.unref();
        child.stdout?.unref();
        child.stderr?.unref();
      }
    },
    async stop() {
      await Promise.all(
        children.map(({ child }) => {
          if (child.exitCode !== null || child.signalCode !== null) return undefined;
          child.stopping = true;
          return new Promise((resolve) => {
            const timer = setTimeout(() => child.kill('SIGKILL'), 8000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve(undefined);
            });
            child.kill('SIGTERM');
          });
        }),
      );
    },
  };
}

/** Lines of a quiet service's output kept for the report of an unexpected exit. */
const LAST_LINES_KEPT = 30;

/** Services that hold no storage credentials: the worker gets presigned URLs per job from artifact (ADR 0009). */
const NO_STORAGE_CREDENTIALS = new Set(['extraction-worker']);

/** One service's environment: the shared one plus its own, without the S3_* settings where it must not have them. */
function serviceEnvOf(name, port, opts) {
  const env = {
    ...process.env,
    ...opts.env,
    ...opts.serviceEnv?.[name],
    PORT: String(port),
    AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1',
  };
  if (NO_STORAGE_CREDENTIALS.has(name)) for (const key of Object.keys(env)) if (key.startsWith('S3_')) delete env[key];
  return env;
}

function startService(name, port, color, opts) {
  const child = spawn(process.execPath, [join(ROOT, 'apps', name, 'dist', 'main.js')], {
    cwd: ROOT,
    env: serviceEnvOf(name, port, opts),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const prefix = `\u001b[${color}m[${name}]\u001b[0m`;
  // Quiet stacks keep a service's last lines, printed if it dies unexpectedly (why a test stack never got healthy).
  const recent = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      opts.onLine?.(name, line);
      if (!opts.quiet) process.stdout.write(`${prefix} ${line}\n`);
      else if (recent.push(line) > LAST_LINES_KEPT) recent.shift();
    });
  }
  child.on('exit', (code, signal) => {
    if (child.stopping || (child.detached && code === 0)) return;
    for (const line of recent) process.stdout.write(`${prefix} ${line}\n`);
    process.stdout.write(`${prefix} exited (${signal ?? code})\n`);
    opts.onExit?.(name, code, signal);
  });
  return { name, port, child };
}

/** Polls the gateway's /health until every dependency is up, or throws with the last report. */
export async function waitForHealthy(baseUrl, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    try {
      const r = await fetch(`${baseUrl}/api/v1/health`);
      const body = await r.json();
      if (r.status === 200) return body;
      last = JSON.stringify(body.checks);
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`services not healthy after ${timeoutMs} ms: ${last}`);
}

/** Runs the admin CLI and parses its one JSON object. */
export function runAdmin(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'apps', 'gateway', 'dist', 'cli', 'admin.js'), ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env, AWS_SDK_JS_SUPPRESS_NODE_VERSION_WARNING: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('exit', (code) => {
      try {
        resolve(adminOutcome(args, code, out, err));
      } catch (e) {
        reject(e);
      }
    });
  });
}

/** An admin command's one JSON object from its exit code and output, or an error naming the command. */
export function adminOutcome(args, code, out, err = '') {
  let parsed;
  try {
    parsed = JSON.parse(out);
  } catch {
    throw new Error(`admin ${args[0]} printed no JSON (exit ${code}): ${out}${err ? `\n${err}` : ''}`);
  }
  if (code !== 0) throw new Error(`admin ${args[0]} failed: ${out || err}`);
  return parsed;
}
