import { baseEnv, jetstreamEnv, dbEnv, env, s3Env, z } from '@docket/config';

export const artifactEnvSchema = z.object({
  ...baseEnv,
  ...jetstreamEnv,
  ...dbEnv,
  ...s3Env,
  HOST: z.string().default('127.0.0.1'),
  PORT: env.port(3101),
  /** How often pending uploads are checked for expiry. */
  UPLOAD_EXPIRY_SWEEP_MS: z.coerce.number().int().min(100).default(60_000),
  /** How often jobs in flight are checked against JOB_PROCESSING_DEADLINE_MS. */
  JOB_DEADLINE_SWEEP_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * A job `running` this long after the worker first picked it up becomes `expired`
   * (`processing_timeout`, never charged, hold released). 30 minutes is safe with the worker's defaults
   * (apps/extraction-worker/src/config.ts): its own worst case is WORKER_MAX_DELIVER (3) deliveries × (
   * EXTRACTION_TIMEOUT_MS (5 min) + WORKER_ACK_WAIT_MS (1 min) before a crashed delivery comes back + a few
   * seconds of nak backoff) ≈ 18 minutes, after which the worker has reported `failed` itself, so a job
   * still in flight at 30 minutes has been lost. Raise it with those worker settings.
   */
  JOB_PROCESSING_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(30 * 60_000),
  /**
   * A job still `queued_for_processing` this long after it was queued becomes `expired` the same way. Queued
   * work is durable in JetStream, so this only catches a message lost with its stream; a long backlog (a big
   * batch, few workers) must never expire jobs that are merely waiting, hence a day by default.
   */
  JOB_QUEUE_DEADLINE_MS: z.coerce
    .number()
    .int()
    .min(60_000)
    .default(24 * 3600_000),
  /** How often raw uploads past their retention policy are purged (spec §2.8). */
  RETENTION_SWEEP_MS: z.coerce.number().int().min(100).default(300_000),
  /** Seconds an upload URL stays valid (spec §8: 3600 by default). */
  UPLOAD_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(3600),
  /**
   * Seconds the worker's presigned URLs for one job (source HEAD/GET, result PUTs) stay valid. They are handed out at
   * each delivery and used within one extraction: keep it above the worker's EXTRACTION_TIMEOUT_MS (300 s) plus
   * the time to store the results.
   */
  WORKER_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(3600),
});

export type ArtifactConfig = z.infer<typeof artifactEnvSchema>;
export const ARTIFACT_SCHEMA = 'artifact';
