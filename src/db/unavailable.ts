// Whether a failure means the database cannot be reached right now (refused, reset, restarting, the
// connection cut mid-statement) rather than a fault of the request or of the code. Such a request is
// answered 503 with Retry-After (http/plugins/errors.ts), which tells a client to send it again, with the
// same Idempotency-Key, instead of a 500 it would take as final.
import { notReachableYet } from './wait-for-store.ts';

// SQLSTATE: class 08 (connection exception), 57P01-57P03 (shut down by an administrator, crash shutdown,
// cannot connect now: starting up or in recovery), 53300 (too many connections).
const UNAVAILABLE_STATE = /^(08...|57P0[123]|53300)$/;
// Errors of the pg driver about its own connection, which carry no code.
const CONNECTION_LOST = /^(Connection terminated( unexpectedly)?|Client has encountered a connection error.*)$/;
const NETWORK = new Set(['EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED']);

export function storeUnavailable(err: unknown): boolean {
  if (notReachableYet(err)) return true;
  const e = err as { code?: unknown; message?: unknown } | undefined;
  if (typeof e?.code === 'string' && (UNAVAILABLE_STATE.test(e.code) || NETWORK.has(e.code))) return true;
  return typeof e?.message === 'string' && CONNECTION_LOST.test(e.message);
}
