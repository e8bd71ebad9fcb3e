// Applies this service's migrations as the schema owner and exits (k8s: the migration Job; see docs/deploy.md).
import 'reflect-metadata';
import { runMigrationsCli } from '@docket/database';
import { DATABASE } from './bootstrap.js';

await runMigrationsCli('billing', DATABASE);
