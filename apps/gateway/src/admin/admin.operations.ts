import { Subjects, type WalletStatusResponseDto } from '@docket/contracts';
import type { RpcClient } from '@docket/messaging';
import type {
  AccountsPage,
  CreatedAccount,
  IdentityService,
  KeySecrets,
  RevokedKey,
  RevokedSecret,
  RotatedSecret,
} from '../identity/index.js';
import type { KeyRateLimit, RateLimitService } from '../rate-limit/rate-limit.service.js';

/** Opened on first use: the CLI connects only to what a command needs (identity: Postgres; wallets: NATS). */
export interface AdminResources {
  identity(): Promise<IdentityService>;
  /** A NATS client allowed billing's operator subjects (the `admin` NATS user, ADR 0009). */
  operator(): Promise<RpcClient>;
  rateLimits(): Promise<RateLimitService>;
}

/** The reason a freeze gets when the operator names none. */
export const DEFAULT_FREEZE_REASON = 'manual_freeze';

/**
 * The operator's operations, one implementation for both doors: the admin CLI (`npm run admin`) and the gateway's
 * admin HTTP routes (`/admin/…`, ADMIN_TOKEN). Each is one call to the identity service, the rate-limit service or
 * billing; validation of the inputs is the door's (CLI arguments / HTTP DTOs) and again the service's.
 */
export class AdminOperations {
  constructor(private readonly r: AdminResources) {}

  async listAccounts(page: number, size: number): Promise<AccountsPage> {
    return (await this.r.identity()).listAccounts(page, size);
  }

  /** Account, sandbox and live credentials (secrets returned once) and its wallet, all or nothing. */
  async createAccount(name: string, credits: number): Promise<CreatedAccount> {
    const [identity, billing] = await Promise.all([this.r.identity(), this.r.operator()]);
    // The wallet is opened inside the account transaction: a billing failure leaves no account behind.
    return identity.createAccount(name, {
      beforeCommit: async (accountId) => {
        await billing.request(Subjects.billing.openWallet, { accountId, initialCredits: credits });
      },
    });
  }

  async wallet(accountId: string): Promise<WalletStatusResponseDto> {
    return (await this.r.operator()).request(Subjects.billing.getWallet, { accountId });
  }

  async deposit(accountId: string, credits: number): Promise<WalletStatusResponseDto> {
    return (await this.r.operator()).request(Subjects.billing.deposit, { accountId, credits });
  }

  async freeze(accountId: string, reason: string = DEFAULT_FREEZE_REASON): Promise<WalletStatusResponseDto> {
    return (await this.r.operator()).request(Subjects.billing.freeze, { accountId, reason });
  }

  async unfreeze(accountId: string): Promise<WalletStatusResponseDto> {
    return (await this.r.operator()).request(Subjects.billing.unfreeze, { accountId });
  }

  async rotateSecret(apiKey: string): Promise<RotatedSecret> {
    return (await this.r.identity()).rotateSecret(apiKey);
  }

  async listSecrets(apiKey: string): Promise<KeySecrets> {
    return (await this.r.identity()).listSecrets(apiKey);
  }

  async revokeSecret(apiKey: string, secretId: string): Promise<RevokedSecret> {
    return (await this.r.identity()).revokeSecret(apiKey, secretId);
  }

  async revokeKey(apiKey: string): Promise<RevokedKey> {
    return (await this.r.identity()).revokeKey(apiKey);
  }

  async setRateLimit(apiKey: string, perMinute: number | null): Promise<KeyRateLimit> {
    return (await this.r.rateLimits()).setLimit(apiKey, perMinute);
  }
}
