import { baseEnv, jetstreamEnv, dbEnv, env, z } from '@docket/config';

const delays = z
  .string()
  .default('5000,30000,120000')
  .transform((s, ctx) => {
    const list = s
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map(Number);
    if (!list.length || list.some((n) => !Number.isInteger(n) || n < 0)) {
      ctx.addIssue({ code: 'custom', message: 'comma-separated non-negative integers (ms)' });
      return z.NEVER;
    }
    return list;
  });

export const configSchema = z.object({
  ...baseEnv,
  ...jetstreamEnv,
  ...dbEnv,
  HOST: z.string().default('127.0.0.1'),
  PORT: env.port(3105),
  /** 32 bytes, base64 or hex. Encrypts signing secrets at rest. Required outside development/test. */
  WEBHOOK_SECRET_KEY: z.string().optional(),
  /** `host:port` entries exempt from the HTTPS/public-IP rule (test receivers). Empty by default. */
  WEBHOOK_ALLOWLIST: z.string().default(''),
  /** Backoff before attempts 2, 3, 4. */
  WEBHOOK_RETRY_DELAYS_MS: delays,
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
});

export type WebhookConfig = z.infer<typeof configSchema>;

export function parseAllowlist(raw: string): Set<string> {
  return new Set(
    raw
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );
}
