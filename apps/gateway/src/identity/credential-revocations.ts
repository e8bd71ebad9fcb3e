import pg from 'pg';
import type { Logger } from 'pino';
import type { CredentialCache } from './credential-cache.js';

/** The Postgres channel the `identity` triggers notify with an API key id when a key or secret is revoked or deleted. */
export const CREDENTIALS_CHANNEL = 'docket_identity_credentials';
/** Wait before listening again after the connection was lost (the cache serves nothing meanwhile). */
export const REVOCATIONS_RECONNECT_MS = 1_000;

/**
 * Keeps `CredentialCache` honest across processes: a dedicated Postgres connection LISTENs on
 * `CREDENTIALS_CHANNEL`, so a revocation by the admin CLI, another gateway replica or plain SQL empties
 * the entries of that key on every gateway as it commits. While the connection is down the cache is
 * inactive (every request verifies against Postgres) and it is cleared when listening resumes.
 */
export class CredentialRevocations {
  private client?: pg.Client;
  private stopped = false;
  private retry?: NodeJS.Timeout;

  constructor(
    private readonly url: string,
    private readonly cache: CredentialCache,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    if (this.cache.ttlMs <= 0) return;
    try {
      await this.listen();
    } catch (err) {
      this.lost(err);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.cache.active = false;
    await this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url, application_name: 'docket-gateway-revocations' });
    this.client = client;
    client.on('notification', (n) => {
      if (n.channel === CREDENTIALS_CHANNEL && n.payload) this.cache.dropKey(n.payload);
    });
    // Only the current connection counts: one being dropped after a loss reports nothing.
    client.on('error', (err) => client === this.client && this.lost(err));
    client.on('end', () => client === this.client && this.lost(new Error('connection ended')));
    await client.connect();
    await client.query(`LISTEN ${CREDENTIALS_CHANNEL}`);
    if (this.stopped) return void (await client.end());
    this.cache.clear();
    this.cache.active = true;
  }

  private lost(err: unknown): void {
    this.cache.active = false;
    this.cache.clear();
    if (this.stopped || this.retry) return;
    this.log.warn({ err }, 'credential cache off: revocation channel lost; verifying every request until it listens again');
    const old = this.client;
    this.client = undefined;
    void old?.end().catch(() => undefined);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.listen().catch((e) => this.lost(e));
    }, REVOCATIONS_RECONNECT_MS);
  }
}
