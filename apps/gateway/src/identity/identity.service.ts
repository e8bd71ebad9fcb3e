import { Inject, Injectable, Optional } from '@nestjs/common';
import { DocketError } from '@docket/errors';
import { DataSource, In, type EntityManager } from 'typeorm';
import { ulid } from 'ulid';
import { CredentialCache } from './credential-cache.js';
import { generateApiKey, generateSecret, hashesEqual, hashSecret, isApiKey, parseBasicAuth, type Environment } from './credentials.js';
import { AccountEntity } from './entities/account.entity.js';
import { ApiKeyEntity } from './entities/api-key.entity.js';
import { KeySecretEntity } from './entities/key-secret.entity.js';

/** Who is calling: put on the request by `BasicAuthGuard`, read with `@Auth()`. */
export interface AuthContext {
  accountId: string;
  apiKeyId: string;
  /** Public identifier, safe to log. */
  apiKey: string;
  /** True for `dk_test_` keys. */
  sandbox: boolean;
}

export interface IssuedCredentials {
  api_key: string;
  /** Names the secret for `revoke-secret` (spec §5.5). */
  secret_id: string;
  /** Plaintext, returned exactly once. */
  secret: string;
}

export interface CreatedAccount {
  account_id: string;
  sandbox: IssuedCredentials;
  live: IssuedCredentials;
}

export interface RotatedSecret {
  api_key: string;
  secret_id: string;
  secret: string;
}

export interface RevokedSecret {
  api_key: string;
  secret_id: string;
  revoked_at: string;
}

export interface SecretRecord {
  secret_id: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}
export interface KeySecrets {
  api_key: string;
  /** Oldest first; never the secret itself (only its digest is stored). */
  secrets: SecretRecord[];
}
export interface RevokedKey {
  api_key: string;
  revoked_at: string;
}

export interface AccountKeyRecord {
  account_id: string;
  name: string;
  account_created_at: string;
  api_key_id: string;
  api_key: string;
  environment: Environment;
  key_revoked_at: string | null;
}

export interface AccountSummary {
  account_id: string;
  name: string;
  created_at: string;
  /** Its API keys (never a secret): live, then sandbox. */
  keys: { api_key: string; environment: Environment; created_at: string; revoked_at: string | null }[];
}
export interface AccountsPage {
  accounts: AccountSummary[];
  page: number;
  size: number;
  total: number;
}

export interface CreateAccountOptions {
  /**
   * Runs inside the account's transaction after the rows are written; if it throws, nothing is
   * kept. The admin CLI opens the wallet here so an account never exists without one.
   */
  beforeCommit?: (accountId: string) => Promise<void>;
}

interface CandidateRow {
  secret_id: string;
  api_key_id: string;
  account_id: string;
  api_key: string;
  environment: Environment;
  secret_hash: string;
}

/** Compared against when a key is unknown, so every failure costs one hash and one comparison. */
const DUMMY_HASH = hashSecret(`sk_dummy_${ulid()}`);
const MAX_NAME_LENGTH = 200;
/** A secret's `last_used_at` is written at most once per this many seconds (not on every request). */
export const LAST_USED_RESOLUTION_SECONDS = 60;

const newId = (prefix: string) => `${prefix}_${ulid().toLowerCase()}`;

@Injectable()
export class IdentityService {
  constructor(
    @Inject(DataSource) private readonly ds: DataSource,
    /** The gateway's cache of verified credentials; absent (the admin CLI, tests): every call verifies against Postgres. */
    @Optional() @Inject(CredentialCache) private readonly cache?: CredentialCache,
  ) {}

  /** An account with one sandbox and one live key, each with one secret (plaintext returned once). */
  async createAccount(name: string, opts: CreateAccountOptions = {}): Promise<CreatedAccount> {
    const trimmed = typeof name === 'string' ? name.trim() : '';
    if (!trimmed || trimmed.length > MAX_NAME_LENGTH) {
      throw new DocketError('validation_failed', `Account name must be 1 to ${MAX_NAME_LENGTH} characters`);
    }
    const accountId = newId('acct');
    return this.ds.transaction(async (em) => {
      await em.insert(AccountEntity, { id: accountId, name: trimmed });
      const sandbox = await this.issueKey(em, accountId, 'sandbox');
      const live = await this.issueKey(em, accountId, 'live');
      await opts.beforeCommit?.(accountId);
      return { account_id: accountId, sandbox, live };
    });
  }

  /**
   * Resolves a Basic `Authorization` header to its caller, or null. Every failure (missing,
   * malformed, unknown key, wrong secret, revoked key or secret) returns the same null; once the
   * header is well-formed, each path does one indexed query, one SHA-256 and at least one
   * constant-time comparison, so timing does not tell an unknown key from a wrong secret. (Only a
   * right key and secret can be answered faster, from the cache: a failure is never cached.)
   */
  async authenticate(authorizationHeader: string | undefined): Promise<AuthContext | null> {
    const creds = parseBasicAuth(authorizationHeader);
    return creds ? this.verify(creds.apiKey, creds.secret) : null;
  }

  /**
   * The constant-time check of one API key and secret (the Basic strategy's verify step). A credential
   * verified within the cache's TTL and not revoked since is answered from `CredentialCache`.
   */
  async verify(apiKey: string, secret: string): Promise<AuthContext | null> {
    const creds = { apiKey, secret };
    const presented = hashSecret(creds.secret);
    const cached = this.cache?.get(apiKey, presented);
    if (cached) return { ...cached };
    const epoch = this.cache?.epoch ?? 0;
    const rows: CandidateRow[] = await this.ds.query(
      `SELECT s.id AS secret_id, k.id AS api_key_id, k.account_id, k.api_key, k.environment, s.secret_hash
         FROM "identity"."api_keys" k
         JOIN "identity"."key_secrets" s ON s.api_key_id = k.id AND s.revoked_at IS NULL
        WHERE k.api_key = $1 AND k.revoked_at IS NULL`,
      [creds.apiKey],
    );
    let match: CandidateRow | undefined;
    // No early exit: compare against every active secret (or the dummy) before deciding.
    for (const row of rows.length ? rows : [undefined]) {
      const ok = hashesEqual(presented, row ? row.secret_hash : DUMMY_HASH);
      if (ok && row && !match) match = row;
    }
    if (!match) return null;
    await this.touchSecret(match.secret_id);
    const auth = {
      accountId: match.account_id,
      apiKeyId: match.api_key_id,
      apiKey: match.api_key,
      sandbox: match.environment === 'sandbox',
    };
    this.cache?.set(apiKey, presented, auth, epoch);
    return auth;
  }

  /** Issues an additional secret; existing secrets stay valid until revoked (spec §5.5). */
  async rotateSecret(apiKey: string): Promise<RotatedSecret> {
    const key = await this.activeKey(apiKey);
    const secret = generateSecret();
    const secretId = newId('sec');
    await this.ds.getRepository(KeySecretEntity).insert({ id: secretId, apiKeyId: key.id, secretHash: hashSecret(secret) });
    return { api_key: key.apiKey, secret_id: secretId, secret };
  }

  /** Every secret of a key, revoked ones included: ids, created, last used, revoked (spec §5.5: find the old one to revoke). */
  async listSecrets(apiKey: string): Promise<KeySecrets> {
    const key = await this.keyOrThrow(apiKey);
    const secrets = await this.ds
      .getRepository(KeySecretEntity)
      .find({ where: { apiKeyId: key.id }, order: { createdAt: 'ASC', id: 'ASC' } });
    return {
      api_key: key.apiKey,
      secrets: secrets.map((s) => ({
        secret_id: s.id,
        created_at: s.createdAt.toISOString(),
        last_used_at: s.lastUsedAt?.toISOString() ?? null,
        revoked_at: s.revokedAt?.toISOString() ?? null,
      })),
    };
  }
  /** Revokes one secret of a key; idempotent (a second call returns the first revocation time). */
  async revokeSecret(apiKey: string, secretId: string): Promise<RevokedSecret> {
    const key = await this.keyOrThrow(apiKey);
    const rows: { revoked_at: Date }[] = await this.ds.query(
      `UPDATE "identity"."key_secrets" SET revoked_at = COALESCE(revoked_at, now())
        WHERE id = $1 AND api_key_id = $2 RETURNING revoked_at`,
      [secretId, key.id],
    );
    const updated = firstRow(rows);
    if (!updated) throw new DocketError('not_found', `Secret ${secretId} does not belong to API key ${key.apiKey}`);
    return { api_key: key.apiKey, secret_id: secretId, revoked_at: updated.revoked_at.toISOString() };
  }

  /** Revokes a key and so every secret of it, effective on the next request; idempotent. */
  async revokeKey(apiKey: string): Promise<RevokedKey> {
    const key = await this.keyOrThrow(apiKey);
    const rows: { revoked_at: Date }[] = await this.ds.query(
      `UPDATE "identity"."api_keys" SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING revoked_at`,
      [key.id],
    );
    return { api_key: key.apiKey, revoked_at: firstRow(rows)!.revoked_at.toISOString() };
  }

  /** Accounts newest first with their keys, one page (`page` from 1); for operators only, never behind an API key. */
  async listAccounts(page: number, size: number): Promise<AccountsPage> {
    const [accounts, total] = await this.ds
      .getRepository(AccountEntity)
      .findAndCount({ order: { createdAt: 'DESC', id: 'DESC' }, skip: (page - 1) * size, take: size });
    const keys = accounts.length
      ? await this.ds.getRepository(ApiKeyEntity).find({
          where: { accountId: In(accounts.map((a) => a.id)) },
          order: { environment: 'ASC', createdAt: 'ASC' },
        })
      : [];
    return {
      accounts: accounts.map((a) => ({
        account_id: a.id,
        name: a.name,
        created_at: a.createdAt.toISOString(),
        keys: keys
          .filter((k) => k.accountId === a.id)
          .map((k) => ({
            api_key: k.apiKey,
            environment: k.environment,
            created_at: k.createdAt.toISOString(),
            revoked_at: k.revokedAt?.toISOString() ?? null,
          })),
      })),
      page,
      size,
      total,
    };
  }

  /** The account owning a key, revoked or not (admin lookups); null when the key is unknown. */
  async findAccountByKey(apiKey: string): Promise<AccountKeyRecord | null> {
    if (typeof apiKey !== 'string' || !isApiKey(apiKey)) return null;
    const key = await this.ds.getRepository(ApiKeyEntity).findOneBy({ apiKey });
    if (!key) return null;
    const account = await this.ds.getRepository(AccountEntity).findOneByOrFail({ id: key.accountId });
    return {
      account_id: account.id,
      name: account.name,
      account_created_at: account.createdAt.toISOString(),
      api_key_id: key.id,
      api_key: key.apiKey,
      environment: key.environment,
      key_revoked_at: key.revokedAt ? key.revokedAt.toISOString() : null,
    };
  }

  private async issueKey(em: EntityManager, accountId: string, environment: Environment): Promise<IssuedCredentials> {
    const apiKeyId = newId('key');
    const apiKey = generateApiKey(environment);
    const secret = generateSecret();
    const secretId = newId('sec');
    await em.insert(ApiKeyEntity, { id: apiKeyId, accountId, apiKey, environment });
    await em.insert(KeySecretEntity, { id: secretId, apiKeyId, secretHash: hashSecret(secret) });
    return { api_key: apiKey, secret_id: secretId, secret };
  }
  /** Records the use of a secret, at most once per LAST_USED_RESOLUTION_SECONDS (one indexed no-op update otherwise). */
  private async touchSecret(secretId: string): Promise<void> {
    await this.ds.query(
      `UPDATE "identity"."key_secrets" SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => $2))`,
      [secretId, LAST_USED_RESOLUTION_SECONDS],
    );
  }

  private async keyOrThrow(apiKey: string): Promise<ApiKeyEntity> {
    if (typeof apiKey !== 'string' || !isApiKey(apiKey)) {
      throw new DocketError('validation_failed', 'api_key must look like dk_test_… or dk_live_…');
    }
    const key = await this.ds.getRepository(ApiKeyEntity).findOneBy({ apiKey });
    if (!key) throw new DocketError('not_found', `API key ${apiKey} does not exist`);
    return key;
  }

  private async activeKey(apiKey: string): Promise<ApiKeyEntity> {
    const key = await this.keyOrThrow(apiKey);
    if (key.revokedAt) throw new DocketError('conflict', `API key ${apiKey} is revoked`);
    return key;
  }
}

/** `UPDATE … RETURNING` through `DataSource.query` yields `[rows, count]` on Postgres. */
function firstRow<T>(result: T[] | [T[], number]): T | undefined {
  const rows = Array.isArray(result[0]) ? (result[0] as T[]) : (result as T[]);
  return rows[0];
}
