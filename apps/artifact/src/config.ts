import { baseEnv, dbEnv, env, s3Env, z } from '@docket/config';

export const artifactEnvSchema = z.object({
  ...baseEnv,
  ...dbEnv,
  ...s3Env,
  HOST: z.string().default('127.0.0.1'),
  PORT: env.port(3101),
  /** How often pending uploads are checked for expiry. */
  UPLOAD_EXPIRY_SWEEP_MS: z.coerce.number().int().min(100).default(60_000),
  /** How often raw uploads past their retention policy are purged (spec §2.8). */
  RETENTION_SWEEP_MS: z.coerce.number().int().min(100).default(300_000),
  /** Seconds an upload URL stays valid (spec §8: 3600 by default). */
  UPLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 24 * 3600).default(3600),
});

export type ArtifactConfig = z.infer<typeof artifactEnvSchema>;
export const ARTIFACT_SCHEMA = 'artifact';
