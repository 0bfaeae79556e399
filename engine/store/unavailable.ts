/**
 * Whether an error means the store cannot be reached or is not taking queries for a moment —
 * PostgreSQL down, restarting, shutting down, out of connections, or the connection lost on the
 * way; SQLite locked past its busy timeout — rather than a fault of the request or of the code.
 * The same request succeeds once the store is back, so the API answers 503 with Retry-After
 * (engine/http/api.ts handleApi) instead of a 500.
 */

/** Node's connection errors and PostgreSQL's SQLSTATEs for "not now" (class 08, 57P01–57P03, 53300), SQLite's busy. */
const CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'EPIPE',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01', // admin_shutdown: the server is stopping
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up, shutting down, in recovery
  '53300', // too_many_connections
  'SQLITE_BUSY',
]);

/** What pg says, without a code, when a connection ends under a query or the pool cannot get one in time. */
const MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

export function storeUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
  // a connection tried on several addresses (AggregateError), or an error that wraps the cause (a failed migration at start)
  if (Array.isArray(e.errors) && e.errors.some((x) => storeUnavailable(x, depth + 1))) return true;
  return storeUnavailable(e.cause, depth + 1);
}
