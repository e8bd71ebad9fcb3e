import 'reflect-metadata';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServiceDataSource, initAndMigrate, schemaStatus } from '@docket/database';
import { Controller, Get, Global, Module, UseGuards, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { loadConfig } from '@docket/config';
import { createTestDatabase, testLogger, type TestDatabase } from '@docket/testing';
import { DataSource } from 'typeorm';
import { gatewayEnvSchema } from '../config.js';
import { HttpExceptionFilter } from '../http/http-exception.filter.js';
import {
  Auth,
  BasicAuthGuard,
  basicAuthHeader,
  IDENTITY_SCHEMA,
  identityEntities,
  IdentityModule,
  IdentityService,
  type AuthContext,
  type CreatedAccount,
} from '../identity/index.js';
import { gatewayMigrations } from '../migrations/index.js';
import { CONFIG, LOGGER } from '../tokens.js';
import { RateLimitModule } from './rate-limit.module.js';
import { RateLimitService } from './rate-limit.service.js';
import { RateLimitStore } from './rate-limit.store.js';
import { WINDOW_MS } from './window.js';

const dataSourceFor = (url: string, poolSize = 10) =>
  createServiceDataSource({ url, schema: IDENTITY_SCHEMA, entities: identityEntities, migrations: gatewayMigrations, poolSize });
const T0 = Date.UTC(2026, 10, 23, 10, 0, 0);
const SETTINGS = { enabled: true, livePerMinute: 600, sandboxPerMinute: 60, cacheMs: 30_000 };

describe('rate limits against a real Postgres', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let identity: IdentityService;
  let acct: CreatedAccount;
  let live: AuthContext;
  let sandbox: AuthContext;
  const counters = async (apiKeyId: string) =>
    (await ds.query(`SELECT window_start, count FROM "identity"."rate_limit_counters" WHERE api_key_id = $1 ORDER BY window_start`, [
      apiKeyId,
    ])) as {
      window_start: Date;
      count: number;
    }[];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await initAndMigrate(dataSourceFor(db.url, 20), IDENTITY_SCHEMA);
    identity = new IdentityService(ds);
    acct = await identity.createAccount('Limited');
    live = (await identity.authenticate(basicAuthHeader(acct.live.api_key, acct.live.secret)))!;
    sandbox = (await identity.authenticate(basicAuthHeader(acct.sandbox.api_key, acct.sandbox.secret)))!;
  });

  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await db?.drop();
  });

  it('has no pending migrations and the identity entities still match them', async () => {
    expect(await schemaStatus({ url: db.url, schema: IDENTITY_SCHEMA, entities: identityEntities, migrations: gatewayMigrations })).toEqual(
      { pendingMigrations: false, drift: [] },
    );
  });

  it('counts N parallel requests exactly, and admits exactly `limit` of a parallel burst', async () => {
    const store = new RateLimitStore(ds);
    const counts = await Promise.all(Array.from({ length: 40 }, () => store.consume(live.apiKeyId, T0, 1000)));
    expect([...counts].sort((a, b) => a! - b!)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect((await counters(live.apiKeyId)).map((r) => r.count)).toEqual([40]);

    const burst = await Promise.all(Array.from({ length: 50 }, () => store.consume(sandbox.apiKeyId, T0, 17)));
    expect(burst.filter((c) => c !== null)).toHaveLength(17);
    expect(burst.filter((c) => c === null)).toHaveLength(33);
    // Refused requests are not counted.
    expect((await counters(sandbox.apiKeyId)).map((r) => r.count)).toEqual([17]);
  });

  it('starts a new window from zero and drops the key`s older windows', async () => {
    const store = new RateLimitStore(ds);
    expect(await store.consume(sandbox.apiKeyId, T0, 17)).toBeNull();
    expect(await store.consume(sandbox.apiKeyId, T0 + WINDOW_MS, 17)).toBe(1);
    const rows = await counters(sandbox.apiKeyId);
    expect(rows).toEqual([{ window_start: new Date(T0 + WINDOW_MS), count: 1 }]);
    // Another key's rows are untouched.
    expect((await counters(live.apiKeyId)).map((r) => r.count)).toEqual([40]);
  });

  it('uses the environment default, then an admin override once the cache expires', async () => {
    let now = T0 + 5 * WINDOW_MS + 1000;
    const gateway = new RateLimitService(ds, SETTINGS, () => now);
    const admin = new RateLimitService(ds, SETTINGS);
    expect(await gateway.limitFor(sandbox)).toBe(60);
    expect(await gateway.limitFor(live)).toBe(600);
    const d = await gateway.consume(sandbox);
    expect(d).toEqual({ allowed: true, limit: 60, remaining: 59, resetAt: (T0 + 6 * WINDOW_MS) / 1000, retryAfterSeconds: 59 });

    expect(await admin.setLimit(acct.sandbox.api_key, 2)).toEqual({
      api_key: acct.sandbox.api_key,
      environment: 'sandbox',
      requests_per_minute: 2,
      source: 'override',
    });
    expect(await gateway.limitFor(sandbox)).toBe(60); // cached
    now += 30_001;
    expect(await gateway.limitFor(sandbox)).toBe(2);
    expect(await gateway.consume(sandbox)).toMatchObject({ allowed: true, limit: 2, remaining: 0 });
    expect(await gateway.consume(sandbox)).toMatchObject({ allowed: false, limit: 2, remaining: 0, retryAfterSeconds: 29 });

    expect(await admin.setLimit(acct.sandbox.api_key, null)).toMatchObject({ requests_per_minute: 60, source: 'default' });
    now += 30_001;
    expect(await gateway.limitFor(sandbox)).toBe(60);
    await expect(admin.setLimit(`dk_live_${'Q'.repeat(24)}`, 5)).rejects.toMatchObject({ code: 'not_found' });
    await expect(admin.setLimit('nope', 5)).rejects.toMatchObject({ code: 'validation_failed' });
  });
});

/** The gateway's pieces (identity guard, rate-limit module, HTTP error filter) around a stand-in controller. */
@Controller()
class ProbeController {
  @Get('status')
  status() {
    return { status: 'API is running' };
  }

  @Get('wallet')
  @UseGuards(BasicAuthGuard)
  wallet(@Auth() auth: AuthContext) {
    return { account: auth.accountId };
  }
}

@Global()
@Module({})
class TestCoreModule {
  static register(ds: DataSource, cfg: Record<string, unknown>): DynamicModule {
    const providers = [
      { provide: DataSource, useValue: ds },
      { provide: CONFIG, useValue: cfg },
      { provide: LOGGER, useValue: testLogger() },
    ];
    return { module: TestCoreModule, providers, exports: providers.map((p) => p.provide) };
  }
}

describe('rate limits over HTTP (guard → interceptor → filter)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let app: NestFastifyApplication;
  let acct: CreatedAccount;
  let baseUrl: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await initAndMigrate(dataSourceFor(db.url, 4), IDENTITY_SCHEMA);
    const cfg = loadConfig(gatewayEnvSchema, {
      DATABASE_URL: db.url,
      RATE_LIMIT_SANDBOX_PER_MINUTE: '3',
      RATE_LIMIT_LIVE_PER_MINUTE: '100',
    });
    app = await NestFactory.create<NestFastifyApplication>(
      {
        module: class RateLimitTestModule {},
        imports: [TestCoreModule.register(ds, cfg), IdentityModule, RateLimitModule],
        controllers: [ProbeController],
      },
      new FastifyAdapter(),
      { logger: false },
    );
    app.useGlobalFilters(new HttpExceptionFilter(testLogger()));
    await app.listen(0, '127.0.0.1');
    baseUrl = await app.getUrl();
    acct = await new IdentityService(ds).createAccount('Over HTTP');
  });

  afterAll(async () => {
    await app?.close();
    if (ds?.isInitialized) await ds.destroy();
    await db?.drop();
  });

  const get = (path: string, auth?: string) => fetch(`${baseUrl}${path}`, { headers: auth ? { authorization: auth } : {} });
  /** Counts must not straddle a minute boundary: wait for the next window when this one is nearly over. */
  const awayFromWindowEdge = async () => {
    const left = WINDOW_MS - (Date.now() % WINDOW_MS);
    if (left < 5000) await new Promise((r) => setTimeout(r, left + 50));
  };

  it('limits the sandbox key after its quota with 429, Retry-After and the envelope; live, 401s and /status are unaffected', async () => {
    const sandbox = basicAuthHeader(acct.sandbox.api_key, acct.sandbox.secret);
    const wrong = basicAuthHeader(acct.sandbox.api_key, acct.live.secret);
    for (let i = 0; i < 5; i++) expect((await get('/wallet', wrong)).status).toBe(401);
    for (let i = 0; i < 10; i++) expect((await get('/status')).status).toBe(200);

    await awayFromWindowEdge();
    const remaining: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await get('/wallet', sandbox);
      expect(r.status).toBe(200);
      remaining.push(r.headers.get('x-ratelimit-remaining'));
      expect(r.headers.get('x-ratelimit-limit')).toBe('3');
      expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
    }
    expect(remaining).toEqual(['2', '1', '0']);

    const limited = await get('/wallet', sandbox);
    expect(limited.status).toBe(429);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(await limited.json()).toMatchObject({
      statusCode: 429,
      error: 'Too Many Requests',
      code: 'rate_limited',
      details: { retry_after_seconds: retryAfter, limit: 3 },
      request_id: expect.any(String),
    });

    const live = await get('/wallet', basicAuthHeader(acct.live.api_key, acct.live.secret));
    expect(live.status).toBe(200);
    expect(live.headers.get('x-ratelimit-limit')).toBe('100');
    expect(live.headers.get('x-ratelimit-remaining')).toBe('99');
    const status = await get('/status');
    expect(status.status).toBe(200);
    expect(status.headers.get('x-ratelimit-limit')).toBeNull();
  });
});
