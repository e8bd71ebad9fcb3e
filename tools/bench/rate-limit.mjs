#!/usr/bin/env node
// Cost of per-key rate limiting (ADR 0003): requests/s of `GET /api/v1/wallet` through two gateways
// in the same run, one with RATE_LIMIT_ENABLED=false and one counting every request in Postgres,
// sharing one billing process, one Postgres database and one NATS. Phases alternate (off, on, off,
// on, …) so drift hits both; prints req/s, mean latency and the on/off ratio.
//   npm run build && node tools/bench/rate-limit.mjs [-- --seconds 8 --concurrency 32 --rounds 3]
// Needs Postgres on 127.0.0.1:5432 and /usr/sbin/nats-server (as the tests do).
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const args = process.argv.slice(2);
const num = (n, d) => (args.includes(n) ? Number(args[args.indexOf(n) + 1]) : d);
const SECONDS = num('--seconds', 8);
const CONCURRENCY = num('--concurrency', 32);
const ROUNDS = num('--rounds', 3);

const { createTestDatabase, freePort, startTestNats } = await import(pathToFileURL(join(repo, 'libs/testing/dist/index.js')).href);
const { runAdmin } = await import(pathToFileURL(join(repo, 'tools/dev/stack.mjs')).href);

const db = await createTestDatabase('docket_bench');
const nats = await startTestNats();
const baseEnv = { NODE_ENV: 'production', LOG_LEVEL: 'warn', DATABASE_URL: db.url, NATS_URL: nats.url };
const children = [];

function start(app, env) {
  const child = spawn(process.execPath, [join(repo, 'apps', app, 'dist', 'main.js')], {
    cwd: repo,
    env: { ...process.env, ...baseEnv, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  children.push(child);
  return child;
}

async function waitFor(check, what, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms`);
}

async function load(url, auth) {
  const deadline = performance.now() + SECONDS * 1000;
  let ok = 0;
  let other = 0;
  let latency = 0;
  const worker = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      const r = await fetch(url, { headers: { authorization: auth } });
      await r.arrayBuffer();
      latency += performance.now() - t0;
      if (r.status === 200) ok++;
      else other++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const secs = (performance.now() - t0) / 1000;
  return { rps: ok / secs, meanMs: latency / (ok + other), other };
}

try {
  start('billing', { PORT: String(await freePort()) });
  const gateways = {};
  for (const [name, enabled] of [
    ['off', 'false'],
    ['on', 'true'],
  ]) {
    const port = await freePort();
    start('gateway', { PORT: String(port), RATE_LIMIT_ENABLED: enabled });
    gateways[name] = `http://127.0.0.1:${port}/api/v1`;
  }
  await waitFor(async () => (await fetch(`${gateways.off}/status`)).ok && (await fetch(`${gateways.on}/status`)).ok, 'gateways');
  const acct = await runAdmin(['create-account', '--name', 'Bench', '--credits', '10'], baseEnv);
  // The measured key must never be refused: the benchmark measures the counting, not 429s.
  await runAdmin(['set-rate-limit', '--api-key', acct.live.api_key, '--per-minute', '1000000'], baseEnv);
  const auth = `Basic ${Buffer.from(`${acct.live.api_key}:${acct.live.secret}`).toString('base64')}`;
  await waitFor(async () => (await fetch(`${gateways.on}/wallet`, { headers: { authorization: auth } })).status === 200, 'billing');
  const limit = (await fetch(`${gateways.on}/wallet`, { headers: { authorization: auth } })).headers.get('x-ratelimit-limit');
  if (limit !== '1000000') throw new Error(`the limited gateway reports limit ${limit}`);

  // Warm-up of both paths (JIT, pools, prepared plans).
  const keep = SECONDS;
  await load(`${gateways.off}/wallet`, auth);
  await load(`${gateways.on}/wallet`, auth);
  console.log(`GET /api/v1/wallet, ${CONCURRENCY} concurrent clients, ${keep} s per phase, ${ROUNDS} rounds`);
  const totals = { off: [], on: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of ['off', 'on']) {
      const r = await load(`${gateways[name]}/wallet`, auth);
      totals[name].push(r);
      console.log(
        `  round ${i + 1} limiting ${name.padEnd(3)} ${r.rps.toFixed(0).padStart(6)} req/s  mean ${r.meanMs.toFixed(2)} ms${r.other ? `  (${r.other} non-200)` : ''}`,
      );
    }
  }
  const mean = (xs, f) => xs.reduce((a, x) => a + f(x), 0) / xs.length;
  const off = mean(totals.off, (r) => r.rps);
  const on = mean(totals.on, (r) => r.rps);
  console.log(`limiting off: ${off.toFixed(0)} req/s  mean ${mean(totals.off, (r) => r.meanMs).toFixed(2)} ms`);
  console.log(`limiting on:  ${on.toFixed(0)} req/s  mean ${mean(totals.on, (r) => r.meanMs).toFixed(2)} ms`);
  console.log(`ratio on/off: ${(on / off).toFixed(3)}`);
} finally {
  await Promise.all(children.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => (c.once('exit', r), c.kill('SIGTERM'))))));
  await nats.close();
  await db.drop();
}
