import { baseEnv, dbEnv, env, z } from '@docket/config';

export const configSchema = z.object({
  ...baseEnv,
  ...dbEnv,
  HOST: z.string().default('127.0.0.1'),
  PORT: env.port(3102),
  /** How long a hard delete waits for `artifact` to say whether the template is in use. */
  ARTIFACT_RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
});

export type TemplateConfig = z.infer<typeof configSchema>;
