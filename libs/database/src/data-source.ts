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
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`).catch((err: { code?: string }) => {
      if (err.code !== '23505' && err.code !== '42P06') throw err;
    });
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
