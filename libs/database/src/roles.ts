import pg from 'pg';

/**
 * One Postgres schema per service, two roles per schema (ADR 0009-nats-and-postgres-least-privilege):
 * - `docket_<schema>_owner` owns the schema and everything in it; migrations run as this role.
 * - `docket_<schema>` is what the running service connects as: USAGE on its schema, DML on its tables
 *   and sequences (through default privileges, so tables added by later migrations are covered), and
 *   nothing on any other service's schema.
 */
export const SERVICE_SCHEMAS = {
  gateway: 'identity',
  artifact: 'artifact',
  template: 'template',
  billing: 'billing',
  'webhook-dispatcher': 'webhook',
} as const;

export type DatabaseService = keyof typeof SERVICE_SCHEMAS;

export interface ServiceRoles {
  schema: string;
  owner: string;
  app: string;
}

export function serviceRoles(service: DatabaseService): ServiceRoles {
  const schema = SERVICE_SCHEMAS[service];
  return { schema, owner: `docket_${schema}_owner`, app: `docket_${schema}` };
}

/** The same server and database as `url`, as another role (password only where the server asks for one). */
export function urlAsRole(url: string, role: string, password?: string): string {
  const u = new URL(url);
  u.username = role;
  u.password = password ?? '';
  return u.toString();
}

const ident = (s: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(s)) throw new Error(`unsupported identifier: ${s}`);
  return `"${s}"`;
};

/**
 * Idempotently creates both roles of every service in the database of `adminUrl` (a superuser or a role
 * with CREATEROLE), the schemas owned by their owner role, and the DML grants. Existing objects created by
 * another role (a database migrated before roles existed) are handed to the owner. Passwords are optional:
 * local development and tests use trust authentication.
 */
export async function provisionServiceRoles(adminUrl: string, passwords: Partial<Record<string, string>> = {}): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const db = ident((await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0].db);
    // Nobody creates objects in `public` or connects by default; each role gets exactly what it needs.
    await client.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
    for (const service of Object.keys(SERVICE_SCHEMAS) as DatabaseService[]) {
      const r = serviceRoles(service);
      for (const role of [r.owner, r.app]) {
        await createRole(client, role);
        if (passwords[role]) await client.query(`ALTER ROLE ${ident(role)} PASSWORD ${pg.escapeLiteral(passwords[role] as string)}`);
        await client.query(`GRANT CONNECT ON DATABASE ${db} TO ${ident(role)}`);
      }
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${ident(r.schema)} AUTHORIZATION ${ident(r.owner)}`).catch(ignoreRace);
      await client.query(`ALTER SCHEMA ${ident(r.schema)} OWNER TO ${ident(r.owner)}`);
      await handOver(client, r);
      await client.query(`REVOKE ALL ON SCHEMA ${ident(r.schema)} FROM PUBLIC`);
      await client.query(`GRANT USAGE ON SCHEMA ${ident(r.schema)} TO ${ident(r.app)}`);
      await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${ident(r.schema)} TO ${ident(r.app)}`);
      await client.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${ident(r.schema)} TO ${ident(r.app)}`);
      await client.query(
        `ALTER DEFAULT PRIVILEGES FOR ROLE ${ident(r.owner)} IN SCHEMA ${ident(r.schema)} GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${ident(r.app)}`,
      );
      await client.query(
        `ALTER DEFAULT PRIVILEGES FOR ROLE ${ident(r.owner)} IN SCHEMA ${ident(r.schema)} GRANT USAGE, SELECT, UPDATE ON SEQUENCES TO ${ident(r.app)}`,
      );
    }
  } finally {
    await client.end();
  }
}

async function createRole(client: pg.Client, role: string): Promise<void> {
  const { rowCount } = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (rowCount) return;
  // NOINHERIT and no memberships: a service role is never more than itself.
  await client.query(`CREATE ROLE ${ident(role)} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT`).catch(ignoreRace);
}

/** Tables, sequences and views of the schema made by another role become the owner's. */
async function handOver(client: pg.Client, r: ServiceRoles): Promise<void> {
  const { rows } = await client.query<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind AS kind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'S', 'v', 'm') AND pg_get_userbyid(c.relowner) <> $2`,
    [r.schema, r.owner],
  );
  for (const { name, kind } of rows) {
    const what = kind === 'S' ? 'SEQUENCE' : kind === 'v' ? 'VIEW' : kind === 'm' ? 'MATERIALIZED VIEW' : 'TABLE';
    await client.query(`ALTER ${what} ${ident(r.schema)}."${name.replace(/"/g, '""')}" OWNER TO ${ident(r.owner)}`);
  }
}

/** Two provisioners at once (parallel test files, replicas): the loser's duplicate is fine. */
function ignoreRace(err: { code?: string }): void {
  if (err.code !== '42710' && err.code !== '23505' && err.code !== '42P06') throw err;
}
