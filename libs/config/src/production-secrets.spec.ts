import { describe, expect, it } from '@jest/globals';
import { baseEnv, dbEnv, loadConfig, z } from './index.js';

const schema = z.object({ ...baseEnv, ...dbEnv });

describe('production refuses to start without its own NATS user', () => {
  it('lists NATS_USER and NATS_PASSWORD as missing in production', () => {
    expect(() => loadConfig(schema, { NODE_ENV: 'production' })).toThrow(
      /NATS_USER: required in production[\s\S]*NATS_PASSWORD: required in production/,
    );
  });

  it('starts in production with them, and without them elsewhere', () => {
    expect(loadConfig(schema, { NODE_ENV: 'production', NATS_USER: 'billing', NATS_PASSWORD: 's3cret' }).NATS_USER).toBe('billing');
    expect(loadConfig(schema, { NODE_ENV: 'development' }).NATS_USER).toBeUndefined();
  });

  it('migrates at boot unless told a Job does it', () => {
    expect(loadConfig(schema, {}).DB_MIGRATE).toBe('boot');
    expect(loadConfig(schema, { DB_MIGRATE: 'skip' }).DB_MIGRATE).toBe('skip');
  });
});
