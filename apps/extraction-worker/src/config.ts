import { baseEnv, env, s3Env, z } from '@docket/config';
import { DEFAULT_OCR_LANGUAGES, OCR_LANGUAGES, parseOcrLanguages } from '@docket/extraction';

export const workerEnvSchema = z.object({
  ...baseEnv,
  ...s3Env,
  HOST: z.string().default('127.0.0.1'),
  PORT: env.port(3104),
  /** Jobs worked on at once by this process (OCR is CPU-bound: ~1 per core). */
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
  /** JetStream redelivery deadline; the worker sends progress acks while it works. */
  WORKER_ACK_WAIT_MS: z.coerce.number().int().min(5_000).default(60_000),
  /** Deliveries before a job that keeps crashing is failed. */
  WORKER_MAX_DELIVER: z.coerce.number().int().min(1).max(20).default(3),
  /** Hard deadline of one extraction. */
  EXTRACTION_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(300_000),
  /** OCR languages, `+`-separated (tesseract's notation), from the bundled models; empty = the default. */
  OCR_LANGUAGES: z
    .string()
    .default(DEFAULT_OCR_LANGUAGES.join('+'))
    .refine((v) => !v.trim() || parseOcrLanguages(v) !== undefined, { message: `a '+'-separated list of ${OCR_LANGUAGES.join(', ')}` }),
});

export type WorkerConfig = z.infer<typeof workerEnvSchema>;
