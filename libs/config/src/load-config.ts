import { z } from 'zod';

/**
 * One config pattern for every app: a zod schema of the environment, validated once at boot.
 * A bad environment stops the process with every problem listed, before anything connects.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const parsed = schema.safeParse(env);
  const issues = parsed.success
    ? productionIssues(parsed.data as Record<string, unknown>)
    : parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(env)', message: i.message }));
  if (!parsed.success || issues.length) {
    throw new Error(`Invalid environment:\n${issues.map((i) => `  ${i.path}: ${i.message}`).join('\n')}`);
  }
  return parsed.data;
}

/**
 * Secrets a production process must be given (never defaulted): its own NATS user for any app that
 * connects to NATS, and an explicit DATABASE_URL (its own DML role) for any app with a database.
 */
export function productionIssues(cfg: Record<string, unknown>): { path: string; message: string }[] {
  if (cfg.NODE_ENV !== 'production') return [];
  const issues: { path: string; message: string }[] = [];
  if ('NATS_URL' in cfg) {
    for (const key of ['NATS_USER', 'NATS_PASSWORD'])
      if (!cfg[key]) issues.push({ path: key, message: "required in production (the service's own NATS user; see docs/deploy.md)" });
  }
  return issues;
}

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** Pieces shared by the apps' env schemas; each app composes the ones it uses. */
export const env = {
  nodeEnv: z.enum(['production', 'staging', 'development', 'test']).default('development'),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  databaseUrl: z.string().url().default('postgres://postgres@127.0.0.1:5432/docket'),
  natsUrl: z.string().default('nats://127.0.0.1:4222'),
  port: (def: number) => z.coerce.number().int().min(0).max(65535).default(def),
  bool,
};

export const s3Env = {
  S3_ENDPOINT: z.string().url().default('http://127.0.0.1:9000'),
  S3_PUBLIC_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().default('docket'),
  S3_ACCESS_KEY_ID: z.string().min(1).default('S3RVER'),
  S3_SECRET_ACCESS_KEY: z.string().min(1).default('S3RVER'),
};

export const baseEnv = {
  NODE_ENV: env.nodeEnv,
  LOG_LEVEL: env.logLevel,
  NATS_URL: env.natsUrl,
  /** This service's NATS user and password (nats-server `authorization.users`); required in production. */
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
};

export const dbEnv = {
  /** The service's own Postgres role (DML on its schema only; see docs/deploy.md). */
  DATABASE_URL: env.databaseUrl,
  /** The schema owner's role for migrations; DATABASE_URL when unset. */
  MIGRATION_DATABASE_URL: z.string().url().optional(),
  /** `boot`: apply pending migrations at start; `skip`: a migration Job applies them (k8s). */
  DB_MIGRATE: z.enum(['boot', 'skip']).default('boot'),
};

/**
 * The JetStream streams' limits (JOBS, EVENTS), applied by every service that opens them; an existing stream
 * is updated to them at start. Full streams refuse new messages (the outbox keeps them and retries) rather
 * than dropping queued jobs or unsettled events.
 */
export const jetstreamEnv = {
  /** Copies of each stream in a NATS cluster (3 in production: one node lost keeps the queue). */
  JETSTREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  JETSTREAM_JOBS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 ** 3),
  JETSTREAM_JOBS_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(7 * 24 * 3600 * 1000),
  JETSTREAM_EVENTS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(1024 ** 3),
  JETSTREAM_EVENTS_MAX_AGE_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(7 * 24 * 3600 * 1000),
};

export { z };
