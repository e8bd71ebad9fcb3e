import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { call, createDocketApi } from './client.js';
import {
  DocketNotFoundError,
  DocketRateLimitError,
  DocketServerError,
  DocketTimeoutError,
  DocketValidationError,
  parseRetryAfterSeconds,
} from './errors.js';
import { waitForJob } from './poll.js';
import { backoffMs, safeToRepeat } from './retry.js';

/** A scripted HTTP server: each request gets the next planned answer for its path; every request is recorded. */
type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
let server: Server;
let base: string;
const plans = new Map<string, Answer[]>();
const seen: { method: string; path: string; headers: IncomingMessage['headers']; at: number }[] = [];

function plan(path: string, ...answers: Answer[]) {
  plans.set(path, answers);
}

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    const path = new URL(req.url!, 'http://x').pathname;
    seen.push({ method: req.method!, path, headers: req.headers, at: Date.now() });
    const list = plans.get(path) ?? [];
    const answer = list.length > 1 ? list.shift()! : (list[0] ?? { status: 404, body: { code: 'not_found', message: 'nothing planned' } });
    res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
    res.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
});
afterAll(() => new Promise((r) => server.close(r)));

const api = () => createDocketApi({ baseUrl: base, apiKey: 'dk_test_k', secret: 'sk_s', retry: { baseDelayMs: 5, maxDelayMs: 20 } });
const envelope = (statusCode: number, code: string) => ({
  statusCode,
  error: 'x',
  code,
  message: `${code} happened`,
  request_id: 'req_1',
  details: [{ field: 'f' }],
});
const job = (status: string) => ({
  job_id: 'job_1',
  artifact_id: 'art_1',
  status,
  created_at: '2026-01-01T00:00:00Z',
  confidence: null,
  needs_review: false,
});

describe('generated client with auth, idempotency keys and retries', () => {
  it('sends Basic auth, and one Idempotency-Key per write, the same on each retry of a 429 (after its Retry-After)', async () => {
    seen.length = 0;
    plan(
      '/api/v1/templates',
      { status: 429, body: envelope(429, 'rate_limited'), headers: { 'retry-after': '1' } },
      { status: 201, body: { id: 'tpl_1' } },
    );
    const created = await call(
      api().POST('/templates', { body: { name: 'Invented', fields: [{ key: 'a', label: 'A', data_type: 'string' }] } }),
    );
    expect(created).toEqual({ id: 'tpl_1' });
    expect(seen).toHaveLength(2);
    expect(seen[0].headers.authorization).toBe(`Basic ${Buffer.from('dk_test_k:sk_s').toString('base64')}`);
    expect(seen[0].headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[1].headers['idempotency-key']).toBe(seen[0].headers['idempotency-key']);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(900); // waited Retry-After: 1 s
    await call(api().POST('/templates', { body: { name: 'Invented', fields: [{ key: 'a', label: 'A', data_type: 'string' }] } }));
    expect(seen[2].headers['idempotency-key']).not.toBe(seen[0].headers['idempotency-key']);
  });

  it('retries a 503 on reads and idempotent POSTs, never on a POST that may have done its work', async () => {
    seen.length = 0;
    plan('/api/v1/wallet', { status: 503, body: envelope(503, 'service_unavailable') }, { status: 200, body: { balance: 5 } });
    expect(await call(api().GET('/wallet'))).toEqual({ balance: 5 });
    plan('/api/v1/extract', { status: 503, body: envelope(503, 'service_unavailable') }, { status: 202, body: {} });
    const err = await call(
      api().POST('/extract', { body: { filename: 'a.pdf', artifact_type: 'application/pdf', artifact_size: 3 } }),
    ).catch((e) => e);
    expect(err).toBeInstanceOf(DocketServerError);
    expect(seen.filter((s) => s.path === '/api/v1/extract')).toHaveLength(1);
    expect(safeToRepeat('POST', 'http://h/api/v1/artifacts/art_1/confirm-upload')).toBe(true);
    expect(safeToRepeat('POST', 'http://h/api/v1/batch')).toBe(false);
  });

  it("throws typed errors carrying the envelope's code, details and request id", async () => {
    plan('/api/v1/job/job_404', { status: 404, body: envelope(404, 'job_not_found') });
    const err = (await call(api().GET('/job/{job_id}', { params: { path: { job_id: 'job_404' } } })).catch(
      (e) => e,
    )) as DocketNotFoundError;
    expect(err).toBeInstanceOf(DocketNotFoundError);
    expect(err).toMatchObject({ status: 404, code: 'job_not_found', requestId: 'req_1', details: [{ field: 'f' }] });
    plan('/api/v1/templates', { status: 422, body: envelope(422, 'invalid_body') });
    await expect(call(api().GET('/templates'))).rejects.toBeInstanceOf(DocketValidationError);
    plan('/api/v1/usage', { status: 429, body: envelope(429, 'rate_limited'), headers: { 'retry-after': '3600' } });
    await expect(call(api().GET('/usage'))).rejects.toMatchObject({ name: 'DocketRateLimitError', retryAfterSeconds: 3600 });
  });

  it('reports no answer at all as DocketServerError network_error', async () => {
    const dead = createDocketApi({ baseUrl: 'http://127.0.0.1:1/api/v1', apiKey: 'k', secret: 's', retry: { maxRetries: 0 } });
    await expect(call(dead.GET('/wallet'))).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });
});

describe('waitForJob', () => {
  it('polls until terminal, reporting each status change and riding out a 429', async () => {
    plan(
      '/api/v1/job/job_1',
      { status: 200, body: job('queued_for_processing') },
      { status: 429, body: envelope(429, 'rate_limited'), headers: { 'retry-after': '0' } },
      { status: 200, body: job('running') },
      { status: 200, body: { ...job('success'), result: { total: 3 } } },
    );
    const statuses: string[] = [];
    const done = await waitForJob<{ total: number }>(api(), 'job_1', { intervalMs: 5, onStatus: (s) => statuses.push(s) });
    expect(done.result?.total).toBe(3);
    expect(statuses).toEqual(['queued_for_processing', 'running', 'success']);
  });

  it('gives up with DocketTimeoutError naming the last status', async () => {
    plan('/api/v1/job/job_1', { status: 200, body: job('running') });
    await expect(waitForJob(api(), 'job_1', { intervalMs: 5, timeoutMs: 50 })).rejects.toThrow(DocketTimeoutError);
    await expect(waitForJob(api(), 'job_1', { intervalMs: 5, timeoutMs: 50 })).rejects.toThrow(/last status: running/);
  });
});

describe('back-off', () => {
  it('grows exponentially within ±20 % and is capped', () => {
    expect(backoffMs(0, { baseDelayMs: 100 }, () => 0.5)).toBe(100);
    expect(backoffMs(3, { baseDelayMs: 100 }, () => 0.5)).toBe(800);
    expect(backoffMs(20, { baseDelayMs: 100, maxDelayMs: 1000 }, () => 1)).toBe(1200);
    expect(backoffMs(1, { baseDelayMs: 100 }, () => 0)).toBe(160);
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfterSeconds('7')).toBe(7);
    expect(parseRetryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfterSeconds('soon')).toBeUndefined();
    expect(parseRetryAfterSeconds(null)).toBeUndefined();
    expect(DocketRateLimitError.name).toBe('DocketRateLimitError');
  });
});
