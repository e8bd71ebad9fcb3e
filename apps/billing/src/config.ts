import { baseEnv, jetstreamEnv, dbEnv, env, z } from '@docket/config';

const positive = z.coerce.number().positive();
const positiveInt = z.coerce.number().int().positive();

export const billingEnvSchema = z
  .object({
    ...baseEnv,
    ...jetstreamEnv,
    ...dbEnv,
    HOST: z.string().default('127.0.0.1'),
    PORT: env.port(3103),
    /** Credits charged per processed page (may be fractional, e.g. 0.5). */
    PRICE_PER_PAGE_CREDITS: positive.default(1),
    /** Holds never estimate fewer pages than this. */
    HOLD_MIN_PAGES: positiveInt.default(5),
    /** Page estimate of an upload: ceil(artifact_size / this). */
    BYTES_PER_PAGE_ESTIMATE: positiveInt.default(100_000),
    /** Holds never estimate more pages than this. */
    HOLD_MAX_PAGES: positiveInt.default(500),
    /** How often open holds are reconciled against their jobs (the safety net behind job-finished events). */
    HOLD_RECONCILE_SWEEP_MS: positiveInt.default(300_000),
    /** A hold is reconciled once it is older than this (jobs are created within a request of their hold). */
    HOLD_RECONCILE_AFTER_MS: positiveInt.default(900_000),
    /** Reply deadline of the reconciliation's questions to artifact. */
    ARTIFACT_RPC_TIMEOUT_MS: positiveInt.default(5_000),
  })
  .refine((c) => c.HOLD_MAX_PAGES >= c.HOLD_MIN_PAGES, { message: 'HOLD_MAX_PAGES must be >= HOLD_MIN_PAGES', path: ['HOLD_MAX_PAGES'] });

export type BillingConfig = z.infer<typeof billingEnvSchema>;
