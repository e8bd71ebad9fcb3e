// `npm start`: build, ensure infrastructure, start all six services, seed a development account,
// print its credentials and the Swagger URL. Ctrl-C stops everything this script started.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureInfra } from './infra.mjs';
import { ROOT, runAdmin, startServices, waitForHealthy } from './stack.mjs';

const say = (msg) => process.stdout.write(`\u001b[1m[docket]\u001b[0m ${msg}\n`);

say('building (tsc -b)…');
execFileSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });

const infra = await ensureInfra();
const gatewayPort = Number(process.env.PORT ?? 3000);
const env = { NODE_ENV: 'development', WEBHOOK_ALLOWLIST: process.env.WEBHOOK_ALLOWLIST ?? '', ...infra.env };
const stack = startServices({ env, serviceEnv: infra.serviceEnv, ports: { gateway: gatewayPort } });
const base = `http://127.0.0.1:${gatewayPort}`;

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  await stack.stop();
  await infra.stop();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

try {
  await waitForHealthy(base, 90_000);
} catch (err) {
  say(err.message);
  await shutdown();
}

// One development account, reused across restarts while its credentials still work.
const credFile = join(ROOT, '.data', 'dev-account.json');
let account;
if (existsSync(credFile)) {
  account = JSON.parse(readFileSync(credFile, 'utf8'));
  const auth = Buffer.from(`${account.live.api_key}:${account.live.secret}`).toString('base64');
  const r = await fetch(`${base}/api/v1/wallet`, { headers: { authorization: `Basic ${auth}` } }).catch(() => undefined);
  if (!r || r.status !== 200) account = undefined;
}
if (!account) {
  account = await runAdmin(['create-account', '--name', 'Development', '--credits', '1000'], { ...env, ...infra.serviceEnv.admin });
  writeFileSync(credFile, JSON.stringify(account, null, 2), { mode: 0o600 });
}

say('ready.');
say(`Swagger UI:   ${base}/docs`);
say(`OpenAPI JSON: ${base}/docs-json`);
say(`API base:     ${base}/api/v1`);
say(`account:      ${account.account_id}  (credentials also in .data/dev-account.json)`);
say(`sandbox key:  ${account.sandbox.api_key}  secret: ${account.sandbox.secret}`);
say(`live key:     ${account.live.api_key}  secret: ${account.live.secret}`);
say(`try:          curl -u ${account.live.api_key}:${account.live.secret} ${base}/api/v1/wallet`);
