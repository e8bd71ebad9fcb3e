// `node libs/database/dist/provision-cli.js` (in the gateway image: `node node_modules/@docket/database/dist/provision-cli.js`):
// creates every service's two Postgres roles, its schema
// (owned by the owner role) and the DML grants, in the database of DATABASE_ADMIN_URL (a role with
// CREATEROLE that may create schemas). Role passwords from DOCKET_DB_PASSWORD_<ROLE> (upper case), e.g.
// DOCKET_DB_PASSWORD_DOCKET_BILLING, DOCKET_DB_PASSWORD_DOCKET_BILLING_OWNER. Idempotent (k8s: Job docket-db-roles).
import { provisionServiceRoles, SERVICE_SCHEMAS, serviceRoles, type DatabaseService } from './roles.js';

const adminUrl = process.env.DATABASE_ADMIN_URL;
if (!adminUrl) {
  console.error('set DATABASE_ADMIN_URL (a role allowed to create roles and schemas)');
  process.exit(2);
}
const passwords: Record<string, string> = {};
for (const service of Object.keys(SERVICE_SCHEMAS) as DatabaseService[]) {
  const r = serviceRoles(service);
  for (const role of [r.owner, r.app]) {
    const p = process.env[`DOCKET_DB_PASSWORD_${role.toUpperCase()}`];
    if (p) passwords[role] = p;
  }
}
try {
  await provisionServiceRoles(adminUrl, passwords);
  console.log(JSON.stringify({ provisioned: Object.keys(SERVICE_SCHEMAS).map((s) => serviceRoles(s as DatabaseService)) }));
} catch (err) {
  console.error('provisioning failed:', err instanceof Error ? err.message : err);
  process.exit(1);
}
