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
 * with CREATEROLE), the schemas owned by their owner role, and the DML grants. Objects created by another
 * role (a database migrated before the roles existed, or by services that ran as the superuser) are handed
 * to the owner, whatever state the database is in. Passwords are optional: local development and tests use
 * trust authentication.
 *
 * Roles are cluster-wide, so they are created first, each on its own (two provisioners of different
 * databases may race); everything inside the database (schemas, ownership, grants) happens in one
 * transaction, serialised per database by an advisory lock: it is applied entirely or not at all.
 */
export async function provisionServiceRoles(adminUrl: string, passwords: Partial<Record<string, string>> = {}): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const db = ident((await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0].db);
    const services = Object.keys(SERVICE_SCHEMAS) as DatabaseService[];
    for (const r of services.map(serviceRoles)) {
      for (const role of [r.owner, r.app]) {
        await createRole(client, role);
        if (passwords[role]) await client.query(`ALTER ROLE ${ident(role)} PASSWORD ${pg.escapeLiteral(passwords[role] as string)}`);
      }
    }
    await client.query('BEGIN');
    try {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['docket:provision-service-roles']);
      // Nobody creates objects in `public` or connects by default; each role gets exactly what it needs.
      await client.query(`REVOKE CREATE ON SCHEMA public FROM PUBLIC`);
      for (const r of services.map(serviceRoles)) {
        for (const role of [r.owner, r.app]) await client.query(`GRANT CONNECT ON DATABASE ${db} TO ${ident(role)}`);
        // A service running as the superuser (or as its owner role) may create its schema at the same time.
        await client.query('SAVEPOINT create_schema');
        await client
          .query(`CREATE SCHEMA IF NOT EXISTS ${ident(r.schema)} AUTHORIZATION ${ident(r.owner)}`)
          .then(() => client.query('RELEASE SAVEPOINT create_schema'))
          .catch(async (err: { code?: string }) => {
            ignoreRace(err);
            await client.query('ROLLBACK TO SAVEPOINT create_schema');
          });
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
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
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

/**
 * The schema's tables, views, sequences, functions and types made by another role become the owner's.
 *
 * Order matters: Postgres refuses `ALTER SEQUENCE … OWNER TO` on a sequence linked to a table column (a
 * `serial` or identity column: "cannot change owner of sequence … is linked to table"); such a sequence
 * follows its table when the table changes owner. So tables (and views) first, then only the sequences
 * that belong to no column. Indexes, constraints, triggers and a table's row type follow their table.
 */
async function handOver(client: pg.Client, r: ServiceRoles): Promise<void> {
  for (const step of HAND_OVER) {
    // One object at a time, re-read after each change: whatever followed an earlier change (a column's
    // sequence, an array or multirange type) is no longer listed.
    const done = new Set<string>();
    for (;;) {
      const { rows } = await client.query<{ name: string; statement: string }>(`${step} LIMIT 1`, [r.schema, r.owner]);
      if (!rows.length) break;
      const { name, statement } = rows[0];
      if (done.has(name)) throw new Error(`could not hand ${name} to ${r.owner}`);
      done.add(name);
      await client.query(`ALTER ${statement} ${name} OWNER TO ${ident(r.owner)}`);
    }
  }
}

/**
 * What handOver changes, in order: each query lists the schema's objects ($1) of one kind that the owner
 * ($2) does not own yet, with their qualified name and the ALTER statement for their kind.
 */
const HAND_OVER = [
  // Tables (a column's sequence, indexes, constraints, triggers and the row type follow), views, foreign tables.
  `SELECT c.oid::regclass::text AS name,
          CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END AS statement
     FROM pg_class c
    WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relowner <> $2::regrole
    ORDER BY c.oid`,
  // Sequences of no column (Postgres refuses to change a column's sequence by itself).
  `SELECT c.oid::regclass::text AS name, 'SEQUENCE' AS statement
     FROM pg_class c
    WHERE c.relnamespace = $1::regnamespace AND c.relkind = 'S' AND c.relowner <> $2::regrole
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                        AND d.refclassid = 'pg_class'::regclass AND d.deptype IN ('a', 'i'))
    ORDER BY c.oid`,
  // Functions, procedures and aggregates (the gateway's trigger function): a later migration replacing one must own it.
  `SELECT p.oid::regprocedure::text AS name, 'ROUTINE' AS statement
     FROM pg_proc p
    WHERE p.pronamespace = $1::regnamespace AND p.proowner <> $2::regrole
    ORDER BY p.oid`,
  // Enums, domains, range and multirange types and standalone composite types (array types follow their element).
  `SELECT t.oid::regtype::text AS name, CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END AS statement
     FROM pg_type t LEFT JOIN pg_class c ON c.oid = t.typrelid
    WHERE t.typnamespace = $1::regnamespace AND t.typowner <> $2::regrole
      AND (t.typtype IN ('e', 'd', 'r', 'm') OR (t.typtype = 'c' AND c.relkind = 'c'))
    ORDER BY t.oid`,
];

/** Two provisioners at once (parallel test files, replicas): the loser's duplicate is fine. */
function ignoreRace(err: { code?: string }): void {
  if (err.code !== '42710' && err.code !== '23505' && err.code !== '42P06') throw err;
}
