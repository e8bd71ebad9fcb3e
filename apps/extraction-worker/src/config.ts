import { baseEnv, jetstreamEnv, env, z } from '@docket/config';
import { availableParallelism } from 'node:os';
import {
  DEFAULT_MAX_INFLATED_BYTES_PER_PAGE,
  DEFAULT_MAX_INFLATED_STREAM_BYTES,
  DEFAULT_OCR_LANGUAGES,
  OCR_ENGINE_MODES,
  OCR_LANGUAGES,
  parseOcrLanguages,
} from '@docket/extraction';

/** Bytes in a MiB (the unit of the PDF inflation settings). */
export const MIB = 1024 * 1024;

/** Extra time the shutdown grace period gives beyond the extraction deadline (storing results, reporting). */
export const SHUTDOWN_GRACE_MARGIN_MS = 30_000;

export const workerEnvSchema = z
  .object({
    ...baseEnv,
    ...jetstreamEnv,
    // No S3 settings: the worker reads and writes storage only through artifact's presigned URLs (JobStorageReply).
    HOST: z.string().default('127.0.0.1'),
    PORT: env.port(3104),
    /** Jobs worked on at once by this process (OCR is CPU-bound: ~1 per core). */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(1),
    /** JetStream redelivery deadline; the worker sends progress acks while it works. */
    WORKER_ACK_WAIT_MS: z.coerce.number().int().min(5_000).default(60_000),
    /**
     * Processing attempts (pickups that reached artifact, counted there) before a job that keeps failing or
     * crashing the worker is failed with `processing_error`. Deliveries naked during an outage are not attempts.
     */
    WORKER_MAX_DELIVER: z.coerce.number().int().min(1).max(20).default(3),
    /** Longest delay before an infrastructure failure is retried (exponential backoff from 1 s up to this). */
    WORKER_RETRY_MAX_MS: z.coerce.number().int().min(1_000).default(60_000),
    /** Hard deadline of one extraction. */
    EXTRACTION_TIMEOUT_MS: z.coerce.number().int().min(1_000).default(300_000),
    /**
     * On SIGTERM: stop pulling, let jobs in hand finish for this long, then nak what is left (redelivered at
     * once to another worker). Default: EXTRACTION_TIMEOUT_MS + 30 s; must be longer than EXTRACTION_TIMEOUT_MS.
     */
    WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(1_000).optional(),
    /** OCR languages, `+`-separated (tesseract's notation), from the bundled models; empty = the default. */
    OCR_LANGUAGES: z
      .string()
      .default(DEFAULT_OCR_LANGUAGES.join('+'))
      .refine((v) => !v.trim() || parseOcrLanguages(v) !== undefined, { message: `a '+'-separated list of ${OCR_LANGUAGES.join(', ')}` }),
    /**
     * OCR engine of jobs whose template says `default` (or that have none): `auto` = the measured best (PaddleOCR for
     * English, tesseract for other languages; docs/adr/0006-ocr-engines.md), `paddle`, `native` (tesseract binary when on
     * PATH, else tesseract.js) or `tesseract.js`.
     */
    OCR_ENGINE: z.enum(OCR_ENGINE_MODES).default('auto'),
    /**
     * ONNX threads per PaddleOCR inference; default: cores ÷ WORKER_CONCURRENCY (at least 1), so that concurrent jobs
     * never ask for more threads than there are cores.
     */
    OCR_THREADS: z.coerce.number().int().min(1).max(64).optional(),
    /**
     * Largest size one PDF stream may inflate to, in MiB (a 1 MB Flate stream can inflate to 1 GB); beyond it the job
     * fails with `decompression_limit` before the stream is decoded. Keep it well under the worker's memory limit.
     */
    PDF_MAX_INFLATED_STREAM_MIB: z.coerce
      .number()
      .int()
      .min(1)
      .max(4096)
      .default(DEFAULT_MAX_INFLATED_STREAM_BYTES / MIB),
    /** A PDF's streams may inflate to PDF_MAX_INFLATED_STREAM_MIB plus this many MiB per page read, together. */
    PDF_MAX_INFLATED_MIB_PER_PAGE: z.coerce
      .number()
      .int()
      .min(1)
      .max(1024)
      .default(DEFAULT_MAX_INFLATED_BYTES_PER_PAGE / MIB),
  })
  .transform((c) => ({ ...c, WORKER_SHUTDOWN_GRACE_MS: c.WORKER_SHUTDOWN_GRACE_MS ?? c.EXTRACTION_TIMEOUT_MS + SHUTDOWN_GRACE_MARGIN_MS }))
  .refine((c) => c.WORKER_SHUTDOWN_GRACE_MS > c.EXTRACTION_TIMEOUT_MS, {
    message: 'WORKER_SHUTDOWN_GRACE_MS must be longer than EXTRACTION_TIMEOUT_MS (a job in hand must be able to finish)',
    path: ['WORKER_SHUTDOWN_GRACE_MS'],
  });

/** The engine's bounds on inflated PDF streams, from the MiB settings. */
export function pdfInflation(cfg: Pick<WorkerConfig, 'PDF_MAX_INFLATED_STREAM_MIB' | 'PDF_MAX_INFLATED_MIB_PER_PAGE'>): {
  maxStreamBytes: number;
  maxBytesPerPage: number;
} {
  return { maxStreamBytes: cfg.PDF_MAX_INFLATED_STREAM_MIB * MIB, maxBytesPerPage: cfg.PDF_MAX_INFLATED_MIB_PER_PAGE * MIB };
}

/** OCR threads per job: the setting, else the cores shared among the concurrent jobs. */
export function ocrThreads(cfg: Pick<WorkerConfig, 'OCR_THREADS' | 'WORKER_CONCURRENCY'>, cores = availableParallelism()): number {
  return cfg.OCR_THREADS ?? Math.max(1, Math.floor(cores / cfg.WORKER_CONCURRENCY));
}

export type WorkerConfig = z.infer<typeof workerEnvSchema>;
