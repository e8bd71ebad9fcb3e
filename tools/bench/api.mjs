// `npm run bench:api`: throughput and latency of the public API on this machine, all six services as
// processes on private infrastructure (fresh database, private nats-server, embedded S3).
//
// Load comes from autocannon (a fetch loop tops out before the server does). In the same run:
//   - the ceiling: a bare Fastify route in its own process (what one Node HTTP server does here);
//   - GET /status (HTTP only), GET /wallet and GET /job/{id} (Basic auth, rate limit, NATS, Postgres),
//     once with tracing off and once on (spans exported over OTLP/HTTP to a local sink); metrics are on in both
//     (they have no off switch); and once more with tracing off and the credential cache off
//     (CREDENTIAL_CACHE_SECONDS=0: every request verifies its key and secret in Postgres, as before the cache);
//   - POST /extract and whole jobs (a bounded pool of sequential clients; tracing off).
// The three stacks run side by side and the reads are measured in interleaved rounds (ceiling, then every stack),
// reported as means over the rounds: on a shared machine, background load then falls on every configuration alike.
// Knobs: BENCH_SECONDS (10 per measurement), BENCH_ROUNDS (3), BENCH_CONNECTIONS (16), BENCH_JOBS (50).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createTestDatabase, freePort, startTestNats, startTestS3 } from '../../libs/testing/dist/index.js';
import { runAdmin, startServices, waitForHealthy } from '../dev/stack.mjs';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const JOBS = Number(process.env.BENCH_JOBS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const NAMES = ['gateway', 'artifact', 'template', 'billing', 'extraction-worker', 'webhook-dispatcher'];

function cannon(url, headers = {}) {
  return new Promise((resolve, reject) =>
    autocannon({ url, connections: CONNECTIONS, duration: SECONDS, headers }, (err, r) => {
      if (err) return reject(err);
      if (r.non2xx || r.errors) return reject(new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`));
      resolve({ perSecond: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 });
    }),
  );
}

/** The ceiling: one bare Fastify route, in its own process like a service. */
async function bareFastify() {
  const port = await freePort();
  const src = `import Fastify from 'fastify'; const f = Fastify(); f.get('/ping', async () => ({ ok: true }));
    await f.listen({ port: ${port}, host: '127.0.0.1' }); process.send('up');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', src], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await new Promise((r) => child.once('message', r));
  return { url: `http://127.0.0.1:${port}/ping`, stop: () => child.kill('SIGTERM') };
}

/** Accepts OTLP/HTTP exports and drops them (tracing "on" without a collector). */
async function otlpSink() {
  const port = await freePort();
  const server = createServer((req, res) => req.resume().on('end', () => res.writeHead(200).end('{}')));
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => server.close(r)) };
}

async function startStack(extraEnv) {
  const [db, nats, s3] = await Promise.all([createTestDatabase('docket_bench'), startTestNats(), startTestS3('docket-bench')]);
  const ports = Object.fromEntries(await Promise.all(NAMES.map(async (n) => [n, await freePort()])));
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'warn',
    DATABASE_URL: db.url,
    NATS_URL: nats.url,
    ...s3.env,
    RATE_LIMIT_LIVE_PER_MINUTE: '100000000',
    RATE_LIMIT_SANDBOX_PER_MINUTE: '100000000',
    ...extraEnv,
  };
  const stack = startServices({ env, ports, quiet: true });
  const root = `http://127.0.0.1:${ports.gateway}`;
  await waitForHealthy(root, 120_000);
  const acct = await runAdmin(['create-account', '--name', 'Bench', '--credits', '1000000'], env);
  const stop = async () => {
    await stack.stop();
    await s3.close();
    await nats.close();
    await db.drop();
  };
  return { base: `${root}/api/v1`, acct, stop };
}

const basic = (k) => ({ authorization: `Basic ${Buffer.from(`${k.api_key}:${k.secret}`).toString('base64')}` });
const schema = {
  fields: [
    { key: 'invoice_number', label: 'Invoice Number', data_type: 'string' },
    { key: 'total', label: 'Total', data_type: 'currency' },
  ],
};
const doc = Buffer.from('Invoice Number: INV-1\nTotal: EUR 10,00\n');

async function ok(res) {
  if (res.status >= 400) throw new Error(`${res.status} ${await res.text()}`);
  return res;
}

async function submit(base, key) {
  const body = JSON.stringify({ filename: 'a.txt', artifact_type: 'text/plain', artifact_size: doc.length, extraction_schema: schema });
  return (
    await ok(await fetch(`${base}/extract`, { method: 'POST', headers: { ...basic(key), 'content-type': 'application/json' }, body }))
  ).json();
}

/** The read targets of one stack (a job to poll, warmed up): GET /status, GET /wallet, GET /job/{id}. */
async function readTargets({ base, acct }) {
  const job = await submit(base, acct.live);
  const auth = basic(acct.live);
  for (let i = 0; i < 200; i++) await ok(await fetch(`${base}/wallet`, { headers: auth })); // warm-up
  return { status: [`${base}/status`, {}], wallet: [`${base}/wallet`, auth], job: [`${base}/job/${job.job_id}`, auth] };
}

/** Means over the rounds: req/s, p50, p99. */
function meanOf(results) {
  const mean = (k) => results.reduce((n, r) => n + r[k], 0) / results.length;
  return { perSecond: mean('perSecond'), p50: mean('p50'), p99: mean('p99'), each: results.map((r) => r.perSecond) };
}

/**
 * Every configuration's reads, interleaved: ROUNDS rounds, each measuring the ceiling and then every stack once,
 * so load from other work on the machine falls on all configurations alike instead of on whichever ran last.
 */
async function interleavedReads(ceilingUrl, stacks) {
  const targets = Object.fromEntries(await Promise.all(Object.entries(stacks).map(async ([k, st]) => [k, await readTargets(st)])));
  const raw = { ceiling: [] };
  for (const k of Object.keys(stacks)) raw[k] = { status: [], wallet: [], job: [] };
  for (let round = 0; round < ROUNDS; round++) {
    raw.ceiling.push(await cannon(ceilingUrl));
    for (const [k, t] of Object.entries(targets))
      for (const [route, [url, headers]] of Object.entries(t)) raw[k][route].push(await cannon(url, headers));
  }
  const out = { ceiling: meanOf(raw.ceiling) };
  for (const k of Object.keys(stacks)) out[k] = Object.fromEntries(Object.entries(raw[k]).map(([route, rs]) => [route, meanOf(rs)]));
  return out;
}

/** Sequential clients for the write paths (each request waits for the previous one of its client). */
async function pool(count, concurrency, fn) {
  const latencies = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        const t = performance.now();
        await fn();
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { perSecond: count / ((performance.now() - start) / 1000), p50: pct(50), p99: pct(99) };
}

async function writes({ base, acct }) {
  const extract = await pool(Math.min(500, JOBS * 5), CONNECTIONS, () => submit(base, acct.live));
  const jobs = await pool(JOBS, CONNECTIONS, async () => {
    const sub = await submit(base, acct.live);
    await ok(await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: doc }));
    await ok(await fetch(`${base}/artifacts/${sub.artifact_id}/confirm-upload`, { method: 'POST', headers: basic(acct.live) }));
    for (;;) {
      const j = await (await ok(await fetch(`${base}/job/${sub.job_id}`, { headers: basic(acct.live) }))).json();
      if (j.status === 'success') return;
      if (['failed', 'cancelled', 'expired'].includes(j.status)) throw new Error(`job ${j.status}: ${j.error}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  return { extract, jobs };
}

const row = (name, r, ceiling) =>
  `| ${name} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} | ${(r.perSecond / ceiling).toFixed(2)} |`;

const bare = await bareFastify();
const sink = await otlpSink();
const stacks = {};
let offWrites;
let measured;
try {
  // Started one after the other (boot is CPU-heavy), then all up while the reads are measured in turn.
  stacks.off = await startStack({});
  stacks.on = await startStack({ OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint });
  stacks.uncached = await startStack({ CREDENTIAL_CACHE_SECONDS: '0' });
  measured = await interleavedReads(bare.url, stacks);
  offWrites = await writes(stacks.off);
} finally {
  bare.stop();
  for (const st of Object.values(stacks)) await st.stop();
  await sink.stop();
}
const { ceiling, off: offReads, on: onReads, uncached: uncachedReads } = measured;

const c = ceiling.perSecond;
console.log(
  `\nDocket API benchmark — autocannon, ${CONNECTIONS} connections, ${SECONDS} s per read measurement, means of ${ROUNDS} interleaved rounds, ${JOBS} jobs, loopback\n`,
);
console.log('| measurement | req/s | p50 ms | p99 ms | × ceiling |');
console.log('|---|---:|---:|---:|---:|');
console.log(row('bare Fastify route (ceiling)', ceiling, c));
for (const [label, r] of [
  ['tracing off', offReads],
  ['tracing on', onReads],
  ['tracing off, credential cache off', uncachedReads],
]) {
  console.log(row(`GET /status, ${label}`, r.status, c));
  console.log(row(`GET /wallet, ${label}`, r.wallet, c));
  console.log(row(`GET /job/{id}, ${label}`, r.job, c));
}
console.log(row('POST /extract (live: hold, presign; sequential clients)', offWrites.extract, c));
console.log(row('job end to end (submit → PUT → confirm → success)', offWrites.jobs, c));
const spread = (r) => r.each.map((v) => v.toFixed(0)).join(' / ');
console.log(
  `\nreq/s per round — ceiling ${spread(ceiling)}; GET /job: tracing off ${spread(offReads.job)}, on ${spread(onReads.job)}, cache off ${spread(uncachedReads.job)}`,
);
const overhead = (k) => (1 - onReads[k].perSecond / offReads[k].perSecond) * 100;
console.log(`\ntracing overhead on req/s: /wallet ${overhead('wallet').toFixed(1)} %, /job ${overhead('job').toFixed(1)} %`);
const gain = (k) => offReads[k].perSecond / uncachedReads[k].perSecond;
console.log(`credential cache: /wallet ${gain('wallet').toFixed(2)}×, /job ${gain('job').toFixed(2)}× the req/s without it`);
