import { describe, expect, it } from '@jest/globals';
import { isDependencyUnavailable } from './index.js';

describe('isDependencyUnavailable', () => {
  it('recognises Postgres restarting and lost connections (TypeORM wraps the driver error)', () => {
    expect(isDependencyUnavailable({ code: '57P01', message: 'terminating connection due to administrator command' })).toBe(true);
    expect(isDependencyUnavailable({ name: 'QueryFailedError', driverError: { code: '57P03' } })).toBe(true);
    expect(isDependencyUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDependencyUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it("recognises node-postgres's words for a pooled client whose server went away, and a connect timeout", () => {
    expect(isDependencyUnavailable(new Error('Client was closed and is not queryable'))).toBe(true);
    expect(isDependencyUnavailable({ name: 'QueryFailedError', driverError: new Error('timeout exceeded when trying to connect') })).toBe(
      true,
    );
    expect(isDependencyUnavailable(Object.assign(new Error('socket hang up'), { code: 'ECONNABORTED' }))).toBe(true);
  });

  it("recognises typeorm's released query runner: a transaction whose connection died under it (Postgres restarting)", () => {
    const released = Object.assign(new Error('Query runner already released. Cannot run queries anymore.'), {
      name: 'QueryRunnerAlreadyReleasedError',
    });
    expect(isDependencyUnavailable(released)).toBe(true);
  });

  it('leaves bugs and data errors alone', () => {
    expect(isDependencyUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isDependencyUnavailable({ name: 'QueryFailedError', driverError: { code: '23505' } })).toBe(false);
  });
});
