import pg from 'pg';
import { DataSource, type MixedList, type EntitySchema } from 'typeorm';

export interface ServiceDataSourceOptions {
  url: string;
  /** The one Postgres schema this service owns. */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  poolSize?: number;
}

/** One DataSource per service schema; never `synchronize` — tables come from migrations only. */
export function createServiceDataSource(o: ServiceDataSourceOptions): DataSource {
  return new DataSource({
    type: 'postgres',
    url: o.url,
    schema: o.schema,
    entities: o.entities,
    migrations: o.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: { max: o.poolSize ?? 10 },
  });
}

/** Creates the database named in the URL when it is missing (connects to `postgres` to do so). */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_]+$/.test(name)) throw new Error(`Unsupported database name: ${name}`);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE "${name}"`).catch((err: { code?: string }) => {
        // Created concurrently by another service: 42P04, or 23505 when both inserts raced in pg_database.
        if (err.code !== '42P04' && err.code !== '23505') throw err;
      });
    }
  } finally {
    await client.end();
  }
}

/**
 * Initialise, create the schema if needed and apply pending migrations. Replicas of one service that
 * boot together serialise on a session advisory lock per schema, so exactly one applies each migration.
 */
export async function initAndMigrate(ds: DataSource, schema: string): Promise<DataSource> {
  if (!ds.isInitialized) await ds.initialize();
  const runner = ds.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock(hashtext($1))', [`docket:migrate:${schema}`]);
    // An owner role (provisionServiceRoles) finds its schema made for it and may not create others.
    const exists = await runner.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (!exists.length) {
      await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`).catch((err: { code?: string }) => {
        if (err.code !== '23505' && err.code !== '42P06') throw err;
      });
    }
    await ds.runMigrations({ transaction: 'each' });
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`docket:migrate:${schema}`]).catch(() => undefined);
    await runner.release();
  }
  return ds;
}

/**
 * Whether a service's schema matches its code: migrations not yet applied, and the SQL TypeORM would
 * still need to make the tables match the entities (empty when migrations and entities agree).
 */
export async function schemaStatus(o: ServiceDataSourceOptions): Promise<{ pendingMigrations: boolean; drift: string[] }> {
  const ds = await createServiceDataSource({ ...o, poolSize: 1 }).initialize();
  try {
    const exists = await ds.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [o.schema]);
    if (!exists.length) return { pendingMigrations: true, drift: [`schema "${o.schema}" does not exist`] };
    const pendingMigrations = await ds.showMigrations();
    const drift = (await ds.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);
    return { pendingMigrations, drift };
  } finally {
    await ds.destroy();
  }
}

/** The database settings every app with a schema reads (`dbEnv` in @docket/config). */
export interface ServiceDatabaseSettings {
  /** The service's own role: DML on its schema only. */
  DATABASE_URL: string;
  /** The schema owner's role, for migrations; DATABASE_URL when unset (a single-role install). */
  MIGRATION_DATABASE_URL?: string;
  /** `boot`: apply pending migrations at start; `skip`: a migration Job did (k8s). */
  DB_MIGRATE: 'boot' | 'skip';
}

/** Applies the service's pending migrations as the schema owner (the `migrate` entry point and `boot` mode). */
export async function migrateServiceSchema(
  cfg: Omit<ServiceDatabaseSettings, 'DB_MIGRATE'>,
  o: Omit<ServiceDataSourceOptions, 'url'>,
): Promise<void> {
  const url = cfg.MIGRATION_DATABASE_URL ?? cfg.DATABASE_URL;
  await ensureDatabase(url);
  // Two connections: one holds the advisory lock while the other applies the migrations.
  const ds = createServiceDataSource({ ...o, url, poolSize: 2 });
  try {
    await initAndMigrate(ds, o.schema);
  } finally {
    if (ds.isInitialized) await ds.destroy();
  }
}

/**
 * The one way a service opens its database: migrations first (as the owner role, unless a Job did them),
 * then the service's DataSource as its DML role.
 */
export async function openServiceDatabase(cfg: ServiceDatabaseSettings, o: Omit<ServiceDataSourceOptions, 'url'>): Promise<DataSource> {
  if (cfg.DB_MIGRATE === 'boot') await migrateServiceSchema(cfg, o);
  return createServiceDataSource({ ...o, url: cfg.DATABASE_URL }).initialize();
}

/** `node apps/<service>/dist/migrate.js`: migrations only, with MIGRATION_DATABASE_URL (else DATABASE_URL); exit 0 when done. */
export async function runMigrationsCli(
  service: string,
  o: Omit<ServiceDataSourceOptions, 'url'>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const url = env.DATABASE_URL;
  const migrationUrl = env.MIGRATION_DATABASE_URL;
  if (!url && !migrationUrl) {
    console.error(`${service}: set MIGRATION_DATABASE_URL (the schema owner's role) to migrate`);
    process.exit(2);
  }
  try {
    await migrateServiceSchema({ DATABASE_URL: (migrationUrl ?? url) as string, MIGRATION_DATABASE_URL: migrationUrl }, o);
    console.log(JSON.stringify({ service, schema: o.schema, migrated: true }));
  } catch (err) {
    console.error(`${service}: migrations failed:`, err instanceof Error ? err.message : err);
    process.exit(1);
  }
}

/**
 * Readiness: the service's schema carries every migration its code ships. Throws when one is missing (a
 * pod of a new version against an old schema must not take traffic). Migrations the code does not know
 * are tolerated: during a rolling upgrade the old pods keep serving on the new, expanded schema.
 */
export async function assertSchemaCurrent(ds: DataSource): Promise<void> {
  const schema = ds.driver.schema ?? 'public';
  const expected = ds.migrations.map((m) => m.name ?? m.constructor.name);
  const rows: { name: string }[] = await ds.query(`SELECT name FROM "${schema}"."migrations"`);
  const applied = new Set(rows.map((r) => r.name));
  const missing = expected.filter((name) => !applied.has(name));
  if (missing.length) throw new Error(`schema "${schema}" is ${missing.length} migration(s) behind: ${missing.join(', ')}`);
}
