import type { AuthContext } from './identity.service.js';

/** How many verified credentials one gateway keeps; the oldest goes first beyond it. */
export const CREDENTIAL_CACHE_MAX_ENTRIES = 10_000;

/**
 * Verified credentials for a short time (`ttlMs`), so a client polling `GET /job` is not a Postgres
 * round-trip per request. Keyed by API key and the SHA-256 digest of the presented secret: only a caller
 * who sent the right secret can hit an entry, and the plaintext is never held. Only successes are kept,
 * so a new secret works at once.
 *
 * Revocation: `dropKey` on every notification of a revoked key or secret (`CredentialRevocations`), and
 * the cache serves nothing while that channel is down (`active`). `epoch` moves on every drop, so a
 * verification that read the rows before a revocation and finishes after it is not cached (`set` with a
 * stale epoch is ignored). The TTL bounds everything else.
 */
export class CredentialCache {
  private readonly entries = new Map<string, { auth: AuthContext; expiresAt: number }>();
  private epochValue = 0;
  /** False until the revocation channel listens, and whenever it is down: then nothing is served or kept. */
  active = false;

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  get epoch(): number {
    return this.epochValue;
  }

  get size(): number {
    return this.entries.size;
  }

  get(apiKey: string, digest: string): AuthContext | undefined {
    if (!this.active || this.ttlMs <= 0) return undefined;
    const k = `${apiKey}:${digest}`;
    const hit = this.entries.get(k);
    if (!hit) return undefined;
    if (hit.expiresAt > this.now()) return hit.auth;
    this.entries.delete(k);
    return undefined;
  }

  /** Keeps a verification that started at `epoch` (read before the rows were queried). */
  set(apiKey: string, digest: string, auth: AuthContext, epoch: number): void {
    if (!this.active || this.ttlMs <= 0 || epoch !== this.epochValue) return;
    if (this.entries.size >= CREDENTIAL_CACHE_MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(`${apiKey}:${digest}`, { auth, expiresAt: this.now() + this.ttlMs });
  }

  /** Forgets every secret of one API key (by its id, `key_…`). */
  dropKey(apiKeyId: string): void {
    this.epochValue++;
    for (const [k, v] of this.entries) if (v.auth.apiKeyId === apiKeyId) this.entries.delete(k);
  }

  /** Forgets everything (the revocation channel was lost: notifications may have been missed). */
  clear(): void {
    this.epochValue++;
    this.entries.clear();
  }
}
