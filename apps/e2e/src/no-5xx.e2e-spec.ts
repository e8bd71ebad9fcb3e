import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { MAX_ARTIFACT_BYTES } from '@docket/contracts';
import fc from 'fast-check';
import { useE2eStack } from './stack.test-helper.js';

/**
 * No input makes the API answer 5xx (issue 11). First a deterministic sweep: every value of every valid sample
 * body replaced by each of SWEEP_VALUES (or removed). Then fast-check generates bodies, queries and path ids for every
 * operation of the gateway's own OpenAPI document (so a new endpoint is fuzzed without touching this file):
 * valid bodies with one value replaced or removed, or many (odd numbers, huge and unicode strings, nulls, wrong
 * types, deep nesting, arrays), random JSON, malformed JSON, other content types. Every answer must be < 500, and every 4xx must be the error envelope (ADR 0001).
 * `npm test` runs FUZZ_RUNS (default 400) requests; `npm run fuzz` runs 10,000. FUZZ_SEED replays a reported run.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
/** `GET /health` reports dependencies (503 when one is down under load) and reads no input: not fuzzed. */
const SKIPPED = new Set(['get /health']);
/** Path ids and query values stay under Node's 16 KiB header limit (431 is the HTTP server's, before any route). */
const MAX_URL_PART = 2000;
/** The gateway's JSON body limit (`JSON_BODY_LIMIT_BYTES`). */
const BODY_LIMIT_BYTES = 1024 * 1024;

jest.setTimeout(Math.max(180_000, RUNS * 200));
/**
 * The field sweep sends every odd value to every field of every body (thousands of requests, one after another): a
 * budget of its own, as its count grows with the API and a 2-core CI machine running the other tiers beside it once
 * took longer than the default above.
 */
const SWEEP_TIMEOUT_MS = 600_000;

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
interface Operation {
  method: Method;
  path: string;
}
interface FuzzRequest {
  op: Operation;
  ids: string[];
  query: [string, string][];
  body:
    | { kind: 'none' }
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; text: string; contentType: string }
    | { kind: 'multipart'; bytes: Uint8Array; type: string; filename: string };
  auth: 'live' | 'sandbox' | 'other' | 'none' | 'garbage';
}

// ---- generators ----

const oddNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    -1,
    1,
    1.5,
    0.1,
    2 ** 31,
    -(2 ** 31),
    2 ** 32,
    2 ** 53,
    2 ** 63,
    2 ** 64,
    1e21,
    1e300,
    -1e300,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    Number.EPSILON,
    MAX_ARTIFACT_BYTES,
    MAX_ARTIFACT_BYTES + 1,
  ),
  fc.integer(),
  fc.maxSafeInteger(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '\ud800',
    '\uffff',
    '../../etc/passwd',
    "'; DROP TABLE jobs;--",
    '%00',
    '%',
    '{{7*7}}',
    '$where',
    '__proto__',
    'constructor',
    'application/pdf',
    'application/x-msdownload',
    'IMAGE/PNG',
    'text/plain; charset=utf-8',
    'tpl_x',
    'wh_x',
    'job_x',
    'art_x',
    'pipe_x',
    'https://93.184.216.34/hook',
    'http://127.0.0.1/x',
    'https://localhost/x',
    'javascript:alert(1)',
    'extraction.completed',
    '30d',
    'never',
    'table',
    'currency',
    '1e300',
    '-1',
    'NaN',
    'Infinity',
    'null',
    'true',
    '{}',
    '[]',
    '🧾'.repeat(300),
    'ä'.repeat(1000),
  ),
  fc.nat(3_000).map((n) => 'x'.repeat(n)),
  fc.constantFrom(100_000, 1_100_000).map((n) => 'y'.repeat(n)),
);
const oddScalar = fc.oneof(oddNumber, oddString, fc.boolean(), fc.constant(null));
const nested = fc.nat(300).map((depth) => {
  let v: unknown = 'deep';
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
});
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: oddScalar, weight: 6 },
  { arbitrary: fc.array(oddScalar, { maxLength: 8 }), weight: 1 },
  { arbitrary: fc.array(fc.constant('extraction.completed'), { minLength: 50, maxLength: 500 }), weight: 1 },
  { arbitrary: fc.dictionary(fc.string({ maxLength: 10 }), oddScalar, { maxKeys: 5 }), weight: 1 },
  { arbitrary: nested, weight: 1 },
  { arbitrary: fc.jsonValue({ maxDepth: 4 }), weight: 1 },
);

/** Valid bodies per operation: the fuzz mutates them so requests reach the services' rules, not only shape checks. */
function sampleBody(op: Operation, ids: Record<string, string>): Record<string, unknown> {
  const field = {
    key: 'invoice_number',
    label: 'Invoice Number',
    data_type: 'string',
    required: false,
    validation: { regex: '^INV', min_value: 0, max_value: 10 },
  };
  const table = { key: 'lines', label: 'Lines', data_type: 'table', fields: [{ key: 'qty', label: 'Qty', data_type: 'number' }] };
  const descriptor = { filename: 'invoice.pdf', artifact_type: 'application/pdf', artifact_size: 1000, retention_policy: '7d' };
  const schema = { extraction_schema: { fields: [field, table] }, webhook_id: ids.webhook_id };
  const byTemplate = { template_id: ids.template_id };
  switch (`${op.method} ${op.path}`) {
    case 'post /extract':
      return { ...descriptor, ...byTemplate, webhook_id: ids.webhook_id };
    case 'post /pipeline_async':
      return { ...descriptor, ...schema, pipeline_id: ids.pipeline_id };
    case 'post /batch':
    case 'post /artifacts/request-batch-upload':
      return { files: [descriptor, { ...descriptor, filename: 'b.png', artifact_type: 'image/png' }], ...schema };
    case 'patch /artifacts/{artifact_id}':
      return { filename: 'renamed.pdf', description: 'd', tags: ['a', 'b'] };
    case 'post /templates':
    case 'post /templates/':
      return {
        name: 'Fuzzed',
        description: 'd',
        category: 'invoice',
        tags: ['t'],
        fields: [field, table],
        settings: { auto_save: true, confidence_threshold: 0.5, ocr_engine: 'default' },
        is_public: false,
      };
    case 'put /templates/{template_id}':
      return { name: 'Fuzzed again', status: 'active', settings: { confidence_threshold: 0.9 } };
    case 'patch /templates/{template_id}/schema':
      return { add_fields: [{ ...field, key: 'extra' }], update_fields: [field], remove_fields: ['gone'] };
    case 'post /templates/{template_id}/clone':
      return { new_name: 'Fuzzed clone', include_settings: false };
    case 'post /webhooks':
    case 'post /webhooks/':
      return { url: 'https://93.184.216.34/hook', description: 'd', events: ['extraction.completed'] };
    case 'patch /webhooks/{webhook_id}':
      return { description: 'd', is_active: false, events: ['extraction.failed'] };
    case 'post /job/{job_id}/corrections':
      return { fields: { invoice_number: 'INV-1', lines: [{ item: 'x', qty: 1 }] } };
    case 'put /memory/settings':
      return { enabled: true };
    default:
      return { template_id: ids.template_id, is_active: true, name: 'x', webhook_id: ids.webhook_id };
  }
}

/**
 * Replaces, drops or adds values anywhere in a sample body, each with probability `percent`, steered by
 * `choices` (so fast-check can shrink them). 0 % sends the valid sample itself.
 */
function mutate(value: unknown, m: { percent: number; choices: number[]; odd: unknown[] }, at = { i: 0 }): unknown {
  const next = () => m.choices[at.i++ % m.choices.length]!;
  const hit = () => next() % 100 < m.percent;
  const pick = () => m.odd[at.i++ % m.odd.length];
  if (Array.isArray(value)) return value.map((v) => (hit() ? pick() : mutate(v, m, at)));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (hit()) continue; // dropped: a missing field
      out[k] = hit() ? pick() : mutate(v, m, at);
    }
    if (hit()) out[`extra_${next()}`] = pick();
    return out;
  }
  return hit() ? pick() : value;
}

/** Every path to a value inside a sample body (objects and arrays included), e.g. `['files', 0, 'artifact_size']`. */
function valuePaths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  if (!value || typeof value !== 'object') return [];
  const entries: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  return entries.flatMap(([k, v]) => [[...prefix, k], ...valuePaths(v, [...prefix, k])]);
}

/** One value of a valid body replaced (or removed with `undefined`): the rules of that one field are reached. */
function mutateOne(sample: Record<string, unknown>, pathIndex: number, replacement: unknown): unknown {
  const body = structuredClone(sample);
  const paths = valuePaths(body);
  const path = paths[pathIndex % paths.length]!;
  let parent = body as Record<string | number, unknown>;
  for (const k of path.slice(0, -1)) parent = parent[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (replacement === undefined && !Array.isArray(parent)) delete parent[last];
  else parent[last] = replacement;
  return body;
}

/** Values every field of every sample body is replaced with, one at a time (`undefined` removes the field). */
const SWEEP_VALUES: unknown[] = [
  undefined,
  null,
  true,
  0,
  -1,
  1.5,
  1e300,
  -1e300,
  2 ** 63,
  MAX_ARTIFACT_BYTES + 1,
  '',
  'x'.repeat(5000),
  '\u0000',
  '🧾',
  'application/x-msdownload',
  [],
  [null],
  {},
  { a: { b: { c: [1] } } },
];
/** Whole JSON bodies that are not objects: 422 `invalid_body` on every operation that takes a body (issue 20). */
const NOT_OBJECT_BODIES = ['[]', '[{}]', '"x"', '1', 'true', 'null'];

const queryKeys = fc.constantFrom(
  'page',
  'size',
  'limit',
  'offset',
  'category',
  'search',
  'include_archived',
  'hard_delete',
  'file_type',
  'status_filter',
  'event_type',
  'days',
  'period',
  '__proto__',
  'x',
);
const queryValue = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '-1',
    '1.5',
    '1e300',
    '1e400',
    '99999999999999999999',
    '0x10',
    'NaN',
    'Infinity',
    '',
    'true',
    'false',
    'raw',
    'json',
    'md',
    'success',
    'invoice',
    '7d',
    '%',
    '\u0000',
  ),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.nat(MAX_URL_PART).map((n) => '9'.repeat(n)),
);
const oddId = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom('', ' ', '..', '%2F', 'null', 'undefined', '0', '-1', '1e300', 'art_'.padEnd(65, 'x'), "x'; DROP TABLE jobs;--"),
  fc.nat(MAX_URL_PART).map((n) => 'a'.repeat(n)),
);

// ---- the test ----

describe('No 5xx for any input (fast-check over every endpoint, public HTTP only)', () => {
  const suite = useE2eStack('Fuzz', { RATE_LIMIT_ENABLED: 'false' });
  const ops: Operation[] = [];
  const realIds: Record<string, string> = {};
  const bodyIds: Record<string, string> = {};
  const foreignIds: string[] = [];
  const stats = { requests: 0, sweep: 0, byStatus: new Map<number, number>(), fiveXx: [] as string[], started: 0 };
  let base = '';

  beforeAll(async () => {
    base = suite.stack.api;
    const root = base.replace(/\/api\/v1$/, '');
    const doc = (await (await fetch(`${root}/docs-json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of Object.keys(item)) {
        if (['get', 'post', 'put', 'patch', 'delete'].includes(method) && !SKIPPED.has(`${method} ${path}`))
          ops.push({ method: method as Method, path });
      }
    }
    expect(ops.length).toBeGreaterThan(30);
    await seed();
    stats.started = Date.now();
  });

  afterAll(() => {
    const ms = Date.now() - stats.started;
    const histogram = [...stats.byStatus.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    process.stdout.write(
      `\n[fuzz] ${stats.requests} requests (${stats.sweep} field sweep + ${stats.requests - stats.sweep} generated) over ${ops.length} operations in ${(ms / 1000).toFixed(1)} s: ` +
        `${stats.fiveXx.length} × 5xx; statuses ${histogram}\n`,
    );
  });

  async function call(method: string, path: string, auth: string, body?: unknown) {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return (await res.json()) as Record<string, string> & { files?: { artifact_id: string }[] };
  }

  /** Real ids, so generated requests also reach the services' rules (ownership, state) and not only 404s. */
  async function seed() {
    const field = { key: 'invoice_number', label: 'Invoice Number', data_type: 'string' };
    const tpl = await call('POST', '/templates/', suite.sandbox, { name: 'Fuzz seed', fields: [field] });
    const hook = await call('POST', '/webhooks/', suite.sandbox, { url: suite.stack.receiverUrl, events: ['extraction.completed'] });
    const ex = await call('POST', '/extract', suite.sandbox, {
      filename: 'seed.pdf',
      artifact_type: 'application/pdf',
      artifact_size: 1000,
      template_id: tpl.id,
    });
    const batch = await call('POST', '/artifacts/request-batch-upload', suite.sandbox, {
      files: [{ filename: 'b.pdf', artifact_type: 'application/pdf', artifact_size: 10 }],
      template_id: tpl.id,
    });
    const pipelines = (await call('GET', '/pipelines', suite.sandbox)) as unknown as { id: string }[];
    Object.assign(realIds, {
      template_id: tpl.id,
      webhook_id: hook.id,
      artifact_id: ex.artifact_id,
      job_id: ex.job_id,
      batch_id: batch.batch_id,
      pipeline_id: pipelines[0]?.id ?? 'pipe_none',
    });
    // Bodies name their own template and webhook, never used in paths, so a generated DELETE cannot take them away.
    const bodyTpl = await call('POST', '/templates/', suite.sandbox, { name: 'Fuzz body seed', fields: [field] });
    const bodyHook = await call('POST', '/webhooks/', suite.sandbox, { url: suite.stack.receiverUrl, events: ['extraction.completed'] });
    Object.assign(bodyIds, { template_id: bodyTpl.id, webhook_id: bodyHook.id, pipeline_id: realIds.pipeline_id });
    const foreignTpl = await call('POST', '/templates/', suite.otherLive, { name: 'Foreign seed', fields: [field] });
    foreignIds.push(foreignTpl.id);
    for (const [k, v] of Object.entries(realIds)) expect({ k, v: typeof v }).toEqual({ k, v: 'string' });
  }

  /** Built once the OpenAPI document and the seeded ids are known. */
  function requestArbitrary(): fc.Arbitrary<FuzzRequest> {
    return fc.record({
      op: fc.constantFrom(...ops),
      ids: fc.array(
        fc.oneof(
          { arbitrary: fc.constant('__real__'), weight: 3 },
          { arbitrary: fc.constantFrom(...foreignIds), weight: 1 },
          { arbitrary: oddId, weight: 2 },
        ),
        { minLength: 2, maxLength: 2 },
      ),
      query: fc.array(fc.tuple(queryKeys, queryValue), { maxLength: 4 }),
      body: fc.oneof(
        { arbitrary: fc.constant({ kind: 'none' as const }), weight: 1 },
        {
          arbitrary: fc
            .record({ one: fc.nat(), replacement: fc.option(oddValue, { nil: undefined, freq: 8 }) })
            .map((m) => ({ kind: 'json' as const, value: m })),
          weight: 8,
        },
        {
          arbitrary: fc
            .record({
              percent: fc.constantFrom(0, 3, 10, 30, 60),
              choices: fc.array(fc.nat(), { minLength: 1, maxLength: 40 }),
              odd: fc.array(oddValue, { minLength: 1, maxLength: 6 }),
            })
            .map((m) => ({ kind: 'json' as const, value: m })),
          weight: 8,
        },
        { arbitrary: oddValue.map((value) => ({ kind: 'json' as const, value: { raw: value } })), weight: 2 },
        {
          arbitrary: fc
            .record({
              text: fc.oneof(
                fc.string({ maxLength: 200 }),
                fc.constantFrom(
                  '',
                  ' ',
                  '{',
                  '{"a":',
                  '[1,2',
                  'null',
                  '1e400',
                  '{"artifact_size":1e400}',
                  '{"__proto__":{"x":1}}',
                  '{"constructor":{"prototype":{"x":1}}}',
                  `${'['.repeat(100_000)}`,
                ),
              ),
              contentType: fc.constantFrom(
                'application/json',
                'application/json; charset=utf-8',
                'text/plain',
                'application/x-www-form-urlencoded',
                'application/xml',
                'multipart/form-data; boundary=x',
                '',
              ),
            })
            .map((r) => ({ kind: 'raw' as const, ...r })),
          weight: 2,
        },
        {
          arbitrary: fc
            .record({
              bytes: fc.uint8Array({ maxLength: 2000 }),
              type: fc.oneof(
                fc.constantFrom('application/pdf', 'image/png', 'application/x-msdownload', 'text/plain', ''),
                fc.string({ maxLength: 30 }),
              ),
              filename: fc.oneof(fc.constantFrom('a.pdf', '', '../../x', 'a'.repeat(400)), fc.string({ unit: 'grapheme', maxLength: 30 })),
            })
            .map((m) => ({ kind: 'multipart' as const, ...m })),
          weight: 1,
        },
      ),
      auth: fc.constantFrom<FuzzRequest['auth'][]>('live', 'live', 'sandbox', 'sandbox', 'sandbox', 'sandbox', 'other', 'none', 'garbage'),
    });
  }

  function toUrl(r: FuzzRequest): string {
    let n = 0;
    const path = r.op.path.replace(/\{([^}]+)\}/g, (_m, name: string) => {
      const chosen = r.ids[n++ % r.ids.length]!;
      return encodeURIComponent(chosen === '__real__' ? (realIds[name] ?? realIds.artifact_id!) : chosen);
    });
    const qs = r.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
    return `${base}${path}${qs ? `?${qs}` : ''}`;
  }

  function toInit(r: FuzzRequest): RequestInit {
    const headers: Record<string, string> = {};
    if (r.auth === 'live') headers.authorization = suite.live;
    if (r.auth === 'sandbox') headers.authorization = suite.sandbox;
    if (r.auth === 'other') headers.authorization = suite.otherLive;
    if (r.auth === 'garbage') headers.authorization = 'Basic !!!not-base64';
    const init: RequestInit = { method: r.op.method.toUpperCase(), headers };
    if (r.op.method === 'get') return init;
    const b = r.body;
    if (b.kind === 'json') {
      const value = b.value as
        { percent: number; choices: number[]; odd: unknown[] } | { raw: unknown } | { one: number; replacement: unknown };
      const sample = sampleBody(r.op, bodyIds);
      const body = 'raw' in value ? value.raw : 'one' in value ? mutateOne(sample, value.one, value.replacement) : mutate(sample, value);
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body) ?? 'null';
    } else if (b.kind === 'raw') {
      if (b.contentType) headers['content-type'] = b.contentType;
      init.body = b.text;
    } else if (b.kind === 'multipart') {
      const form = new FormData();
      form.append('retention_policy', '7d');
      form.append('file', new Blob([b.bytes as Uint8Array<ArrayBuffer>], { type: b.type }), b.filename);
      init.body = form;
    }
    return init;
  }

  /** fast-check's report without multi-megabyte counterexamples. */
  function shortReport(details: fc.RunDetails<[FuzzRequest]>): void {
    if (!details.failed) return;
    const [r] = details.counterexample ?? [];
    const cause = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
    throw new Error(
      `Property failed after ${details.numRuns} runs (seed ${details.seed}, path ${details.counterexamplePath}): ${r ? `${r.op.method} ${r.op.path}` : ''}\n${cause.slice(0, 3000)}`,
    );
  }

  /** Sends one request and checks the property: no 5xx, every 4xx in the envelope. Answers the status and error code. */
  async function check(method: string, url: string, init: RequestInit): Promise<{ status: number; code?: unknown }> {
    let res: Response;
    try {
      res = await fetch(url, init);
    } catch (err) {
      // A body over the 1 MiB limit is answered 413 and the connection closed while the client still writes.
      if (typeof init.body === 'string' && Buffer.byteLength(init.body) > BODY_LIMIT_BYTES) {
        count(413);
        return { status: 413 };
      }
      throw err;
    }
    const text = await res.text();
    count(res.status);
    const sent = typeof init.body === 'string' ? init.body.slice(0, 600) : init.body ? '(multipart)' : '(no body)';
    const what = `${method.toUpperCase()} ${url.slice(0, 300)} ${sent} → ${res.status} ${text.slice(0, 300)}`;
    if (res.status >= 500) stats.fiveXx.push(what);
    expect({ what, fiveXx: res.status >= 500 }).toEqual({ what, fiveXx: false });
    if (res.status >= 400) {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        body = { unparsable: text.slice(0, 200) };
      }
      const envelope = {
        statusCode: body.statusCode,
        error: typeof body.error,
        code: typeof body.code,
        message: typeof body.message,
        request_id: typeof body.request_id,
      };
      expect({ what, envelope }).toEqual({
        what,
        envelope: { statusCode: res.status, error: 'string', code: 'string', message: 'string', request_id: 'string' },
      });
      return { status: res.status, code: body.code };
    }
    return { status: res.status };
  }

  function count(status: number): void {
    stats.requests++;
    stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
  }

  it(
    'answers every field of every valid body replaced by each odd value (or removed) without a 5xx',
    async () => {
      for (const op of ops.filter((o) => o.method !== 'get' && o.method !== 'delete')) {
        const sample = sampleBody(op, bodyIds);
        const url = toUrl({ op, ids: ['__real__', '__real__'], query: [], body: { kind: 'none' }, auth: 'sandbox' });
        for (const [i] of valuePaths(sample).entries()) {
          for (const odd of SWEEP_VALUES) {
            const body = JSON.stringify(mutateOne(sample, i, odd));
            await check(op.method, url, {
              method: op.method.toUpperCase(),
              headers: { authorization: suite.sandbox, 'content-type': 'application/json' },
              body,
            });
          }
        }
        for (const body of NOT_OBJECT_BODIES) {
          const answer = await check(op.method, url, {
            method: op.method.toUpperCase(),
            headers: { authorization: suite.sandbox, 'content-type': 'application/json' },
            body,
          });
          expect({ op: `${op.method} ${op.path}`, body, ...answer }).toEqual({
            op: `${op.method} ${op.path}`,
            body,
            status: 422,
            code: 'invalid_body',
          });
        }
      }
      stats.sweep = stats.requests;
      expect(stats.fiveXx).toEqual([]);
    },
    SWEEP_TIMEOUT_MS,
  );

  it(`answers ${RUNS} generated requests without a 5xx, every 4xx in the error envelope`, async () => {
    const earlier = stats.fiveXx.length;
    await fc.assert(
      fc.asyncProperty(requestArbitrary(), async (r) => void (await check(r.op.method, toUrl(r), toInit(r)))),
      {
        numRuns: RUNS,
        endOnFailure: true,
        reporter: shortReport,
        ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
      },
    );
    expect(stats.fiveXx.slice(earlier)).toEqual([]);
  });
});
