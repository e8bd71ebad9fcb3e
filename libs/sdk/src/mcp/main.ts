#!/usr/bin/env node
// The `docket-mcp` bin: Docket's MCP server on stdio. Credentials as for the CLI (flags, DOCKET_* env, config file).
import { parseArgs } from 'node:util';
import { resolveCredentials } from '../cli/config.js';
import { serveStdio } from './server.js';

const { values } = parseArgs({
  options: { api: { type: 'string' }, 'api-key': { type: 'string' }, secret: { type: 'string' }, config: { type: 'string' } },
});
try {
  await serveStdio(resolveCredentials(values, process.env));
} catch (err) {
  process.stderr.write(`docket-mcp: ${(err as Error).message}\n`);
  process.exit(2);
}
