import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BASE_URL, type DocketClientOptions } from '../client.js';
import { UsageError } from './exit-codes.js';

export interface CredentialFlags {
  api?: string;
  'api-key'?: string;
  secret?: string;
  config?: string;
}

/** `$DOCKET_CONFIG`, else `$XDG_CONFIG_HOME/docket/config.json` (`~/.config/docket/config.json`). */
export function configPath(env: NodeJS.ProcessEnv): string {
  return env.DOCKET_CONFIG ?? join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'docket', 'config.json');
}

interface ConfigFile {
  api?: string;
  api_key?: string;
  secret?: string;
}

function readConfig(path: string, explicit: boolean): ConfigFile {
  if (!existsSync(path)) {
    if (explicit) throw new UsageError(`config file ${path} does not exist`);
    return {};
  }
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as ConfigFile;
  } catch (err) {
    throw new UsageError(`config file ${path} is not valid JSON: ${(err as Error).message}`);
  }
}

/** Credentials: flags first, then DOCKET_API / DOCKET_API_KEY / DOCKET_SECRET, then the config file. */
export function resolveCredentials(flags: CredentialFlags, env: NodeJS.ProcessEnv): DocketClientOptions {
  const path = flags.config ?? configPath(env);
  const file = readConfig(path, Boolean(flags.config ?? env.DOCKET_CONFIG));
  const apiKey = flags['api-key'] ?? env.DOCKET_API_KEY ?? file.api_key;
  const secret = flags.secret ?? env.DOCKET_SECRET ?? file.secret;
  if (!apiKey || !secret) {
    throw new UsageError(`no credentials: pass --api-key and --secret, set DOCKET_API_KEY and DOCKET_SECRET, or write ${path}`);
  }
  return { baseUrl: flags.api ?? env.DOCKET_API ?? file.api ?? DEFAULT_BASE_URL, apiKey, secret };
}
