import { parseArgs } from 'node:util';
import { DocketError } from '@docket/errors';

/** One parsed admin command. Pure: no I/O, so every rule is unit-testable. */
export type AdminCommand =
  | { command: 'help' }
  | { command: 'create-account'; name: string; credits: number }
  | { command: 'deposit'; accountId: string; credits: number }
  | { command: 'freeze'; accountId: string; reason: string }
  | { command: 'unfreeze'; accountId: string }
  | { command: 'rotate-secret'; apiKey: string }
  | { command: 'revoke-secret'; apiKey: string; secretId: string }
  | { command: 'list-secrets'; apiKey: string }
  /** Unset: unchanged; null: cleared (`none`). */
  | { command: 'set-defaults'; apiKey: string; templateId?: string | null; webhookId?: string | null }
  | { command: 'revoke-key'; apiKey: string }
  | { command: 'set-rate-limit'; apiKey: string; perMinute: number | null };

export const USAGE = `Docket admin CLI: npm run --silent admin -- <command> [options]
Each command prints one JSON object on stdout; on failure it prints { "error": { code, message } } and exits 1.

  create-account --name N [--credits C]     account + sandbox and live credentials (secrets shown once, with their secret_id), wallet opened with C credits (default 0)
  deposit --account A --credits C           add credits to the wallet → wallet
  freeze --account A [--reason R]           freeze the wallet (reason default manual_freeze) → wallet
  unfreeze --account A                      unfreeze the wallet → wallet
  rotate-secret --api-key K                 issue an additional secret (shown once, with its secret_id); old ones stay valid until revoked
  list-secrets --api-key K                  the key's secrets: secret_id, created_at, last_used_at, revoked_at (never the secret)
  revoke-secret --api-key K --secret-id S   revoke one secret of a key
  revoke-key --api-key K                    revoke a key and all its secrets, immediately
  set-defaults --api-key K [--template-id T] [--webhook-id W]
                                            default template (a template id, "auto" or "none") and default webhook (an id or "none") of
                                            the key's account (its default pipeline, shared by its sandbox and live keys) → the pipeline
  set-rate-limit --api-key K --per-minute N requests per minute for the key ("default" removes the override);
                                            running gateways apply it within RATE_LIMIT_CACHE_SECONDS
  help                                      this text

Environment: DATABASE_URL (default postgres://postgres@127.0.0.1:5432/docket), NATS_URL (default nats://127.0.0.1:4222),
NATS_USER / NATS_PASSWORD (the operator's "admin" NATS user when the server has authorization). While \`npm start\` runs,
its .data/admin-connection.json fills in what is not set (its NATS server, the admin user and password, DATABASE_URL)
when NATS_USER is not set and NATS_URL is unset or names that same server (host:port; localhost = 127.0.0.1 = ::1).
A NATS_URL naming another server leaves the file unread.`;

type OptionSpec = Record<string, { type: 'string' }>;

const OPTIONS: Record<Exclude<AdminCommand['command'], 'help'>, OptionSpec> = {
  'create-account': { name: { type: 'string' }, credits: { type: 'string' } },
  deposit: { account: { type: 'string' }, credits: { type: 'string' } },
  freeze: { account: { type: 'string' }, reason: { type: 'string' } },
  unfreeze: { account: { type: 'string' } },
  'rotate-secret': { 'api-key': { type: 'string' } },
  'list-secrets': { 'api-key': { type: 'string' } },
  'set-defaults': { 'api-key': { type: 'string' }, 'template-id': { type: 'string' }, 'webhook-id': { type: 'string' } },
  'revoke-secret': { 'api-key': { type: 'string' }, 'secret-id': { type: 'string' } },
  'revoke-key': { 'api-key': { type: 'string' } },
  'set-rate-limit': { 'api-key': { type: 'string' }, 'per-minute': { type: 'string' } },
};

const ACCOUNT_ID = /^acct_[0-9a-z]+$/;

export function parseAdminArgs(argv: string[]): AdminCommand {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') return { command: 'help' };
  if (!Object.hasOwn(OPTIONS, command)) throw invalid(`Unknown command "${command}"; run "help" for the list`);
  const name = command as keyof typeof OPTIONS;
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({ args: rest, options: OPTIONS[name], strict: true, allowPositionals: false }));
  } catch (err) {
    throw invalid((err as Error).message);
  }
  switch (name) {
    case 'create-account':
      return { command: name, name: required(values, 'name'), credits: credits(values.credits ?? '0', 0) };
    case 'deposit':
      return { command: name, accountId: account(values), credits: credits(required(values, 'credits'), 0.000001) };
    case 'freeze':
      return { command: name, accountId: account(values), reason: values.reason ?? 'manual_freeze' };
    case 'unfreeze':
      return { command: name, accountId: account(values) };
    case 'rotate-secret':
    case 'list-secrets':
    case 'revoke-key':
      return { command: name, apiKey: required(values, 'api-key') };
    case 'revoke-secret':
      return { command: name, apiKey: required(values, 'api-key'), secretId: required(values, 'secret-id') };
    case 'set-defaults':
      return defaults(values);
    case 'set-rate-limit':
      return { command: name, apiKey: required(values, 'api-key'), perMinute: perMinute(required(values, 'per-minute')) };
  }
}

function required(values: Record<string, string | undefined>, option: string): string {
  const value = values[option]?.trim();
  if (!value) throw invalid(`--${option} is required`);
  return value;
}

function account(values: Record<string, string | undefined>): string {
  const id = required(values, 'account');
  if (!ACCOUNT_ID.test(id)) throw invalid('--account must be an account id (acct_…)');
  return id;
}

function credits(text: string, min: number): number {
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < min || value > 1e9) {
    throw invalid(`--credits must be a number between ${min} and 1000000000`);
  }
  return value;
}

/** A positive whole number of requests per minute, or `default` (null: remove the override). */
function perMinute(text: string): number | null {
  if (text === 'default') return null;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1 || value > 1_000_000) {
    throw invalid('--per-minute must be a whole number between 1 and 1000000, or "default"');
  }
  return value;
}

const RESOURCE_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** `set-defaults`: at least one of the two defaults; `none` clears one. */
function defaults(values: Record<string, string | undefined>): AdminCommand {
  const apiKey = required(values, 'api-key');
  const pick = (option: string): string | null | undefined => {
    const raw = values[option]?.trim();
    if (raw === undefined) return undefined;
    if (raw === 'none') return null;
    if (!RESOURCE_ID.test(raw)) throw invalid(`--${option} must be an id (letters, digits, _ or -) or "none"`);
    return raw;
  };
  const templateId = pick('template-id');
  const webhookId = pick('webhook-id');
  if (templateId === undefined && webhookId === undefined) throw invalid('set-defaults needs --template-id and/or --webhook-id');
  return {
    command: 'set-defaults',
    apiKey,
    ...(templateId !== undefined && { templateId }),
    ...(webhookId !== undefined && { webhookId }),
  };
}

function invalid(message: string): DocketError {
  return new DocketError('validation_failed', message);
}
