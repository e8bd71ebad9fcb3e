import { baseEnv, dbEnv, env, z } from '@docket/config';
import { MAX_ARTIFACT_BYTES } from '@docket/contracts';
import { LAST_USED_RESOLUTION_SECONDS } from './identity/identity.service.js';
import { ADMIN_TOKEN_MIN_LENGTH } from './admin/admin-token.js';
import { rateLimitEnv } from './rate-limit/rate-limit.config.js';

/** Verified credentials are kept this long by default: a poller's requests within it skip the Postgres check. */
export const CREDENTIAL_CACHE_DEFAULT_SECONDS = 10;

export const gatewayEnvSchema = z.object({
  ...baseEnv,
  ...dbEnv,
  HOST: z.string().default('127.0.0.1'),
  PORT: env.port(3000),
  /** What GET /version reports: the deployment, not the key (spec §4.9). */
  DOCKET_ENVIRONMENT: z.enum(['production', 'staging', 'development']).default('development'),
  /** Reply deadline for service requests. */
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  /**
   * Largest file POST /artifacts/upload accepts (buffered in memory; larger files use POST /extract + PUT).
   * At most the engine's limit (`MAX_ARTIFACT_BYTES`, 50 MiB): a bigger file could never be processed.
   */
  DIRECT_UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_ARTIFACT_BYTES)
    .default(25 * 1024 * 1024),
  /** Serve the Swagger UI at /docs and the document at /docs-json (llms.txt is built from the same document either way). */
  API_DOCS: env.bool.default(true),
  /**
   * The dashboard's built files (`apps/dashboard/dist`, `npm run build -w apps/dashboard`), served under `/app/`. Empty:
   * the copy beside this gateway's build when it exists; nothing is served when the directory is missing.
   */
  DASHBOARD_DIR: z.string().default(''),
  /**
   * How long a verified API key and secret is answered from memory (0: never). A revocation reaches every gateway
   * as it commits (Postgres LISTEN/NOTIFY); this bounds the rest. At most 60 s, the resolution of a secret's `last_used_at`.
   */
  CREDENTIAL_CACHE_SECONDS: z.coerce.number().min(0).max(LAST_USED_RESOLUTION_SECONDS).default(CREDENTIAL_CACHE_DEFAULT_SECONDS),
  ...rateLimitEnv,
  /**
   * The operator token of the admin routes (`/admin/…`, `Authorization: Bearer …`), at least ADMIN_TOKEN_MIN_LENGTH
   * characters. Empty: admin mode is off and every admin route answers 404. Never an API key; only its SHA-256 is kept.
   */
  ADMIN_TOKEN: z.union([z.literal(''), z.string().min(ADMIN_TOKEN_MIN_LENGTH)]).default(''),
  /**
   * The NATS user the admin routes call billing's operator subjects as (deposit, freeze, open wallet: ADR 0009 keeps
   * them from the gateway's own user). Used only with ADMIN_TOKEN; its password is required when NATS has users.
   */
  ADMIN_NATS_USER: z.string().default('admin'),
  ADMIN_NATS_PASSWORD: z.string().default(''),
});

export type GatewayConfig = z.infer<typeof gatewayEnvSchema>;
