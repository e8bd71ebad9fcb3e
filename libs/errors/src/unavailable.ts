import { DocketError } from './docket-error.js';

/**
 * SQLSTATE classes and socket errors that mean "a dependency is down" (Postgres restarting, connection
 * lost), not a bug: `08` connection exception, `57P01..03` admin/crash shutdown and "cannot connect now",
 * `53300` too many connections.
 */
const UNAVAILABLE_SQLSTATE = /^(08|57P0[123]|53300)/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
// (node-postgres's own words when the server went away under a pooled client or a new connection timed out; typeorm's
// when a transaction's connection died under it and the next query of that transaction finds its runner released.)
const UNAVAILABLE_MESSAGE =
  /Connection terminated|terminating connection due to administrator command|the database system is (starting up|shutting down|in recovery mode)|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect|Query runner already released/i;

/** Whether an unexpected error only says that Postgres (or another socket peer) is unreachable for now. */
export function isDependencyUnavailable(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    e = (e as { driverError?: unknown; cause?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The coded 503 for such an error (retryable; the details stay in the log, never in the reply). */
export function dependencyUnavailable(): DocketError {
  return new DocketError('service_unavailable', 'A dependency is temporarily unavailable; retry shortly');
}
