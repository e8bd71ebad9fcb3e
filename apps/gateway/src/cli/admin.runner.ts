import { loadConfig, z } from '@docket/config';
import { DEFAULT_PIPELINE_ALIAS, Subjects } from '@docket/contracts';
import { createServiceDataSource, ensureDatabase, initAndMigrate } from '@docket/database';
import { DocketError } from '@docket/errors';
import { natsAuth, RpcClient } from '@docket/messaging';
import type { DataSource } from 'typeorm';
import { IDENTITY_SCHEMA, identityEntities } from '../identity/entities/index.js';
import { IdentityService } from '../identity/identity.service.js';
import { gatewayMigrations } from '../migrations/index.js';
import { rateLimitEnv, rateLimitSettings } from '../rate-limit/rate-limit.config.js';
import { RateLimitService } from '../rate-limit/rate-limit.service.js';
import { AdminOperations, type AdminResources } from '../admin/admin.operations.js';
import { parseAdminArgs, USAGE, type AdminCommand } from './admin.args.js';
import { natsAdvice, withDevConnection, withoutCredentials, type NatsTrouble } from './admin.connection.js';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/docket';
export const DEFAULT_NATS_URL = 'nats://127.0.0.1:4222';

export interface AdminResult {
  exitCode: 0 | 1;
  /** Exactly what goes to stdout: one JSON object (or the usage text for `help`). */
  stdout: string;
}

export interface AdminRunOptions {
  /** Reply deadline for billing requests. */
  rpcTimeoutMs?: number;
  /** Where a missing NATS_URL/NATS_USER is read from (`npm start`'s connection file by default). */
  connectionFile?: string;
}

/**
 * Runs one admin command and releases every connection it opened, so the process can exit.
 * Identity commands need only Postgres; wallet commands need only NATS (billing answers them); set-defaults
 * needs both (the artifact service answers it).
 */
export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv, opts: AdminRunOptions = {}): Promise<AdminResult> {
  let resources: Resources | undefined;
  try {
    const cmd = parseAdminArgs(argv);
    if (cmd.command === 'help') return { exitCode: 0, stdout: `${USAGE}\n` };
    const resolved = withDevConnection(env, opts.connectionFile);
    resources = new Resources(resolved.env, opts, resolved.source);
    const result = await execute(cmd, resources);
    return { exitCode: 0, stdout: `${JSON.stringify(result, null, 2)}\n` };
  } catch (err) {
    return { exitCode: 1, stdout: `${JSON.stringify({ error: describe(resources?.advise(err) ?? err) }, null, 2)}\n` };
  } finally {
    await resources?.close();
  }
}

async function execute(cmd: Exclude<AdminCommand, { command: 'help' }>, r: Resources): Promise<unknown> {
  // The same operations the gateway's admin routes run (AdminOperations): one implementation, two doors.
  const ops = new AdminOperations(r);
  switch (cmd.command) {
    case 'create-account':
      return ops.createAccount(cmd.name, cmd.credits);
    case 'deposit':
      return ops.deposit(cmd.accountId, cmd.credits);
    case 'freeze':
      return ops.freeze(cmd.accountId, cmd.reason);
    case 'unfreeze':
      return ops.unfreeze(cmd.accountId);
    case 'rotate-secret':
      return ops.rotateSecret(cmd.apiKey);
    case 'list-secrets':
      return ops.listSecrets(cmd.apiKey);
    case 'revoke-secret':
      return ops.revokeSecret(cmd.apiKey, cmd.secretId);
    case 'revoke-key':
      return ops.revokeKey(cmd.apiKey);
    case 'set-defaults':
      return setDefaults(cmd, r);
    case 'set-rate-limit':
      return ops.setRateLimit(cmd.apiKey, cmd.perMinute);
  }
}

/** The key's account's default pipeline gets the given defaults (the artifact service checks they exist). */
async function setDefaults(cmd: Extract<AdminCommand, { command: 'set-defaults' }>, r: Resources): Promise<unknown> {
  const owner = await (await r.identity()).findAccountByKey(cmd.apiKey);
  if (!owner) throw new DocketError('not_found', `API key ${cmd.apiKey} does not exist`);
  return (await r.operator()).request(Subjects.artifact.updatePipeline, {
    accountId: owner.account_id,
    pipelineId: DEFAULT_PIPELINE_ALIAS,
    template_id: cmd.templateId,
    webhook_id: cmd.webhookId,
  });
}

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof DocketError) return { code: err.code, message: err.message };
  // An operator runs this by hand: the raw cause (e.g. ECONNREFUSED) is what helps them.
  return { code: 'internal_error', message: err instanceof Error ? err.message : String(err) };
}

/** What nats-server answers a connection without the user it requires (or with a wrong password). */
const UNAUTHORIZED = /authori[sz]ation violation/i;
/** How RpcClient reports a request no service subscribed to (toDocketError). */
const NO_RESPONDERS = /^No service answers /;

/** Connections opened on first use and all closed at the end. */
class Resources implements AdminResources {
  private ds?: DataSource;
  private rpc?: RpcClient;

  constructor(
    private readonly env: NodeJS.ProcessEnv,
    private readonly opts: AdminRunOptions,
    /** npm start's connection file, when the settings came from it. */
    private readonly source?: string,
  ) {}

  async identity(): Promise<IdentityService> {
    return new IdentityService(await this.database());
  }

  /** Defaults (reported for `set-rate-limit --per-minute default`) come from the same env as the gateway's. */
  async rateLimits(): Promise<RateLimitService> {
    const settings = rateLimitSettings(loadConfig(z.object(rateLimitEnv), this.env));
    return new RateLimitService(await this.database(), settings);
  }

  private async database(): Promise<DataSource> {
    if (this.ds) return this.ds;
    const url = this.env.DATABASE_URL || DEFAULT_DATABASE_URL;
    await ensureDatabase(url);
    this.ds = createServiceDataSource({
      url,
      schema: IDENTITY_SCHEMA,
      entities: identityEntities,
      migrations: gatewayMigrations,
      poolSize: 2,
    });
    await initAndMigrate(this.ds, IDENTITY_SCHEMA);
    return this.ds;
  }

  /** Request/reply to the services as the `admin` NATS user (billing for wallets, artifact for pipelines); one connection. */
  async operator(): Promise<RpcClient> {
    if (this.rpc) return this.rpc;
    this.rpc = new RpcClient({
      natsUrl: this.natsUrl(),
      auth: natsAuth({ NATS_USER: this.env.NATS_USER, NATS_PASSWORD: this.env.NATS_PASSWORD }),
      name: 'docket-admin',
      timeoutMs: this.opts.rpcTimeoutMs ?? 10_000,
    });
    await this.rpc.connect().catch((err: Error) => {
      throw this.unreachable(err);
    });
    return this.rpc;
  }

  /** Why NATS could not be reached; refused for want of a user (or with a wrong password): what to do about it. */
  private unreachable(err: Error): DocketError {
    const url = withoutCredentials(this.natsUrl());
    if (UNAUTHORIZED.test(err.message)) {
      return new DocketError(
        'service_unavailable',
        `Cannot reach NATS at ${url}: ${err.message}. ${natsAdvice(this.trouble('unauthorized'))}`,
      );
    }
    const hint = this.source ? ` (from ${this.source}: is npm start still running?)` : '';
    return new DocketError('service_unavailable', `Cannot reach NATS at ${url}${hint}: ${err.message}`);
  }

  /** A request nothing on NATS answered gets the advice of what to do about it; any other error stays as it is. */
  advise(err: unknown): unknown {
    if (!this.rpc || !(err instanceof DocketError) || err.code !== 'service_unavailable' || !NO_RESPONDERS.test(err.message)) return err;
    return new DocketError(err.code, `${err.message}. ${natsAdvice(this.trouble('no_responders'))}`);
  }

  private natsUrl(): string {
    return this.env.NATS_URL || DEFAULT_NATS_URL;
  }

  private trouble(problem: NatsTrouble['problem']): NatsTrouble {
    return { problem, natsUrl: this.natsUrl(), user: this.env.NATS_USER || undefined, source: this.source };
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.rpc?.close(), this.ds?.isInitialized ? this.ds.destroy() : undefined]);
  }
}
