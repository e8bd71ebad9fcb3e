// `npm run bench:api`: throughput and latency of the public API on this machine, all six services as
// processes on private infrastructure (fresh database, private nats-server, embedded S3).
// Baseline in the same run: GET /status (HTTP only, no NATS or database); every other figure is
// printed with its ratio to it. Bounded: fixed request counts on loopback only.
import { performance } from 'node:perf_hooks';
import { createTestDatabase, freePort, startTestNats, startTestS3 } from '../../libs/testing/dist/index.js';
import { runAdmin, startServices, waitForHealthy } from '../dev/stack.mjs';

const N = Number(process.env.BENCH_REQUESTS ?? 2000);
const JOBS = Number(process.env.BENCH_JOBS ?? 100);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

async function pool(count, concurrency, fn) {
  const latencies = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        const i = next++;
        const t = performance.now();
        await fn(i);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))];
  return { perSecond: count / seconds, p50: pct(50), p95: pct(95) };
}

const db = await createTestDatabase('docket_bench');
const nats = await startTestNats();
const s3 = await startTestS3('docket-bench');
const names = ['gateway', 'artifact', 'template', 'billing', 'extraction-worker', 'webhook-dispatcher'];
const ports = Object.fromEntries(await Promise.all(names.map(async (n) => [n, await freePort()])));
const env = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'warn',
  DATABASE_URL: db.url,
  NATS_URL: nats.url,
  ...s3.env,
  RATE_LIMIT_LIVE_PER_MINUTE: '1000000',
  RATE_LIMIT_SANDBOX_PER_MINUTE: '1000000',
};
const stack = startServices({ env, ports, quiet: true });
const base = `http://127.0.0.1:${ports.gateway}/api/v1`;
try {
  await waitForHealthy(`http://127.0.0.1:${ports.gateway}`, 90_000);
  const acct = await runAdmin(['create-account', '--name', 'Bench', '--credits', '1000000'], env);
  const auth = (k) => ({ authorization: `Basic ${Buffer.from(`${k.api_key}:${k.secret}`).toString('base64')}` });
  const ok = async (res) => {
    if (res.status >= 400) throw new Error(`${res.status} ${await res.text()}`);
    return res;
  };
  const schema = {
    fields: [
      { key: 'invoice_number', label: 'Invoice Number', data_type: 'string' },
      { key: 'total', label: 'Total', data_type: 'currency' },
    ],
  };
  const body = Buffer.from('Invoice Number: INV-1\nTotal: EUR 10,00\n');
  const submit = async (key) => {
    const r = await ok(
      await fetch(`${base}/extract`, {
        method: 'POST',
        headers: { ...auth(key), 'content-type': 'application/json' },
        body: JSON.stringify({ filename: 'a.txt', artifact_type: 'text/plain', artifact_size: body.length, extraction_schema: schema }),
      }),
    );
    return r.json();
  };

  // Warm-up so JIT and pools are not measured.
  for (let i = 0; i < 50; i++) await ok(await fetch(`${base}/wallet`, { headers: auth(acct.live) }));

  const rows = [];
  const status = await pool(N, CONCURRENCY, async () => ok(await fetch(`${base}/status`)).then((r) => r.arrayBuffer()));
  rows.push(['GET /status (baseline: HTTP only)', status]);
  rows.push([
    'GET /wallet (auth + NATS + billing)',
    await pool(N, CONCURRENCY, async () => ok(await fetch(`${base}/wallet`, { headers: auth(acct.live) })).then((r) => r.arrayBuffer())),
  ]);
  rows.push(['POST /extract (live: template-free, hold, presign)', await pool(Math.min(N, 500), CONCURRENCY, () => submit(acct.live))]);

  // Whole pipeline: submit, PUT to storage, confirm, poll until terminal (live text/plain jobs through the engine).
  const pipeline = await pool(JOBS, CONCURRENCY, async () => {
    const sub = await submit(acct.live);
    await ok(await fetch(sub.upload_url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body }));
    await ok(await fetch(`${base}/artifacts/${sub.artifact_id}/confirm-upload`, { method: 'POST', headers: auth(acct.live) }));
    for (;;) {
      const j = await (await ok(await fetch(`${base}/job/${sub.job_id}`, { headers: auth(acct.live) }))).json();
      if (['success', 'failed', 'cancelled', 'expired'].includes(j.status)) {
        if (j.status !== 'success') throw new Error(`job ${j.status}: ${j.error}`);
        return;
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  rows.push(['job end to end (submit → PUT → confirm → success)', pipeline]);

  console.log(`\nDocket API benchmark — ${N} requests per endpoint, ${JOBS} jobs, concurrency ${CONCURRENCY}, loopback\n`);
  console.log('| measurement | per second | p50 ms | p95 ms | ratio to baseline |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [name, r] of rows) {
    console.log(
      `| ${name} | ${r.perSecond.toFixed(0)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${(r.perSecond / status.perSecond).toFixed(3)} |`,
    );
  }
} finally {
  await stack.stop();
  await s3.close();
  await nats.close();
  await db.drop();
}
