import 'reflect-metadata';
import { adminLogging } from './admin.logging.js';
import { runAdmin } from './admin.runner.js';

adminLogging();

const result = await runAdmin(process.argv.slice(2), process.env);
process.exitCode = result.exitCode;
process.stdout.write(result.stdout);
// Connections are closed by runAdmin; this only guards against a stray handle keeping the CLI alive.
setTimeout(() => process.exit(result.exitCode), 5_000).unref();
