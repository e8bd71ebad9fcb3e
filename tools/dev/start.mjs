// `npm start`: build, ensure infrastructure, start all six services, seed a development account,
// print its credentials and the Swagger URL. Ctrl-C stops everything this script started.
// `npm start -- --check`: the same, then stop and exit 0 once everything answered (CI's start-up check).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureInfra, freePort, portOpen } from './infra.mjs';
import { ROOT, SERVICES, runAdmin, startServices, waitForHealthy } from './stack.mjs';

const say = (msg) => process.stdout.write(`\u001b[1m[docket]\u001b[0m ${msg}\n`);
const CHECK_ONLY = process.argv.includes('--check');
/** How long the six services may take to report healthy. */
const HEALTH_TIMEOUT_MS = 90_000;

say('building (tsc -b)…');
execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'], {
  cwd: ROOT,
  stdio: 'inherit',
});
const { DEV_CONNECTION_FILE, devConnectionUrl, removeDevConnection, writeDevConnection } =
  await import('../../apps/gateway/dist/cli/admin.connection.js');

await refuseSecondStack();
// Postgres roles that cannot be created stop here with the reason (ADR 0009), as does any infrastructure that won't start.
const infra = await ensureInfra().catch((err) => {
  say(err.message);
  process.exit(1);
});
const gatewayPort = Number(process.env.PORT ?? 3000);
const env = { NODE_ENV: 'development', WEBHOOK_ALLOWLIST: process.env.WEBHOOK_ALLOWLIST ?? '', ...infra.env };
const adminEnv = { ...env, ...infra.serviceEnv.admin };
// The admin CLI in another terminal reads this (no NATS_URL/NATS_USER there); 0600, never printed.
writeDevConnection({
  NATS_URL: adminEnv.NATS_URL,
  NATS_USER: adminEnv.NATS_USER,
  NATS_PASSWORD: adminEnv.NATS_PASSWORD,
  DATABASE_URL: adminEnv.DATABASE_URL,
});
// Admin mode for the dashboard (ADR 0015): ADMIN_TOKEN from the environment, or a fresh one per run, printed below
// like the development credentials. The admin routes call billing as the `admin` NATS user.
const adminToken = process.env.ADMIN_TOKEN || `adm_${randomBytes(24).toString('base64url')}`;
const gatewayAdmin = { ADMIN_TOKEN: adminToken, ADMIN_NATS_USER: 'admin', ADMIN_NATS_PASSWORD: adminEnv.NATS_PASSWORD ?? '' };
const serviceEnv = { ...infra.serviceEnv, gateway: { ...infra.serviceEnv.gateway, ...gatewayAdmin } };
const stack = startServices({ env, serviceEnv, ports: await servicePorts(gatewayPort) });
const base = `http://127.0.0.1:${gatewayPort}`;

let stopping = false;
const shutdown = async (code = 0) => {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  removeDevConnection();
  await stack.stop();
  await infra.stop();
  process.exit(code);
};
process.on('SIGINT', () => shutdown());
process.on('SIGTERM', () => shutdown());

let account;
try {
  await waitForHealthy(base, HEALTH_TIMEOUT_MS);
  account = await developmentAccount();
} catch (err) {
  say(err.message);
  await shutdown(1);
}
say('ready.');
say(`Swagger UI:   ${base}/docs`);
say(`OpenAPI JSON: ${base}/docs-json`);
say(`API base:     ${base}/api/v1`);
say(`account:      ${account.account_id}  (credentials also in .data/dev-account.json)`);
say(`sandbox key:  ${account.sandbox.api_key}  secret: ${account.sandbox.secret}`);
say(`live key:     ${account.live.api_key}  secret: ${account.live.secret}`);
say(`try:          curl -u ${account.live.api_key}:${account.live.secret} ${base}/api/v1/wallet`);
say(`dashboard:    ${base}/app/   admin token: ${adminToken}`);
say('admin CLI:    npm run --silent admin -- help   (from any terminal while this runs; connection in .data/admin-connection.json)');
if (CHECK_ONLY) await shutdown(0);

/** Two `npm start` in one checkout would share `.data/` (its Postgres, NATS store and connection file): refuse. */
async function refuseSecondStack() {
  const url = devConnectionUrl();
  if (!url) return;
  const { hostname, port } = new URL(url);
  if (!(await portOpen(Number(port), hostname))) return; // left behind by a stack that was killed
  say(`another npm start is running in this checkout (its NATS answers at ${url}; ${DEV_CONNECTION_FILE}). Stop it first.`);
  process.exit(1);
}

/** The gateway on PORT (3000); every other service on its usual port, or a free one when that is taken. */
async function servicePorts(gateway) {
  const ports = { gateway };
  for (const svc of SERVICES.filter((s) => s.name !== 'gateway')) {
    ports[svc.name] = (await portOpen(svc.port)) ? await freePort() : svc.port;
    if (ports[svc.name] !== svc.port) say(`${svc.name}: port ${svc.port} is taken, using ${ports[svc.name]}`);
  }
  return ports;
}

/** One development account, reused across restarts while its credentials still work. */
async function developmentAccount() {
  const credFile = join(ROOT, '.data', 'dev-account.json');
  if (existsSync(credFile)) {
    const saved = JSON.parse(readFileSync(credFile, 'utf8'));
    const auth = Buffer.from(`${saved.live.api_key}:${saved.live.secret}`).toString('base64');
    const r = await fetch(`${base}/api/v1/wallet`, { headers: { authorization: `Basic ${auth}` } }).catch(() => undefined);
    if (r?.status === 200) return saved;
  }
  const created = await runAdmin(['create-account', '--name', 'Development', '--credits', '1000'], adminEnv);
  writeFileSync(credFile, JSON.stringify(created, null, 2), { mode: 0o600 });
  return created;
}
