// `docket`: the command line on @docket/sdk. `docket --help` lists commands; exit codes: exit-codes.ts / README.
import { parseArgs } from 'node:util';
import { SDK_VERSION } from '../client.js';
import { Docket } from '../docket.js';
import { batch, extract, jobs, templates, webhooksVerify, type Io } from './commands.js';
import { resolveCredentials } from './config.js';
import { ExitCode, UsageError } from './exit-codes.js';

export const HELP = `docket ${SDK_VERSION}: extract structured data from documents with Docket

  docket extract <file> [--template tpl_…|--schema schema.json] [--webhook-url URL] [--wait] [--json|--markdown] [--timeout S]
  docket batch <files…> [--template tpl_…|--schema schema.json] [--json]       progress on stderr, waits for every job
  docket jobs [job_id] [--page N] [--json]                                     recent documents, or one job
  docket templates [--search text] [--json]
  docket wallet [--json]
  docket webhooks verify --secret whsec_… --id ID --timestamp TS --signature SIG [--body file|-]
  docket mcp                                                                   MCP server on stdio (same as docket-mcp)

Credentials: --api URL --api-key dk_… --secret sk_…, else DOCKET_API / DOCKET_API_KEY / DOCKET_SECRET,
else the config file (--config, DOCKET_CONFIG, ~/.config/docket/config.json: {"api","api_key","secret"}).
Exit codes: 0 ok, 1 a job failed/cancelled/expired, 2 usage, 3 auth (401/403), 4 refused (other 4xx, upload),
5 unavailable (5xx, no answer), 6 --wait timed out, 7 webhook signature invalid.`;

const OPTIONS = {
  api: { type: 'string' },
  'api-key': { type: 'string' },
  secret: { type: 'string' },
  config: { type: 'string' },
  template: { type: 'string' },
  schema: { type: 'string' },
  'webhook-url': { type: 'string' },
  wait: { type: 'boolean' },
  json: { type: 'boolean' },
  markdown: { type: 'boolean' },
  timeout: { type: 'string' },
  search: { type: 'string' },
  page: { type: 'string' },
  id: { type: 'string' },
  timestamp: { type: 'string' },
  signature: { type: 'string' },
  body: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
} as const;

const defaultIo: Io = {
  out: (text) => process.stdout.write(`${text}\n`),
  stdin: async () => {
    const chunks: Buffer[] = [];
    for await (const c of process.stdin) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
};

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export async function run(argv: string[], env: NodeJS.ProcessEnv = process.env, io: Io = defaultIo): Promise<number> {
  const { values, positionals } = parse(argv);
  const [command, ...args] = positionals;
  if (values.version) return (io.out(SDK_VERSION), ExitCode.ok);
  if (values.help || !command) return (io.out(HELP), command || values.help ? ExitCode.ok : ExitCode.usage);
  if (command === 'webhooks') return webhooksVerify(args, values, io);
  if (command === 'mcp') {
    const { serveStdio } = await import('../mcp/server.js');
    await serveStdio(resolveCredentials(values, env));
    return -1; // keeps running until stdin closes
  }
  const docket = new Docket(resolveCredentials(values, env));
  switch (command) {
    case 'extract':
      return extract(docket, args, values, io);
    case 'batch':
      return batch(docket, args, values, io);
    case 'jobs':
      return jobs(docket, args, values, io);
    case 'templates':
      return templates(docket, args, values, io);
    case 'wallet': {
      const w = await docket.getWallet();
      io.out(
        values.json
          ? JSON.stringify(w, null, 2)
          : `balance ${w.balance}, spendable ${w.spendable}${w.is_frozen ? `, frozen: ${w.frozen_reason}` : ''}`,
      );
      return ExitCode.ok;
    }
    default:
      throw new UsageError(`unknown command ${command} (docket --help)`);
  }
}
